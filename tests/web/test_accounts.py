"""Accounts in a real browser: a guest's game claimed by the account made afterwards, and a
rated Axiom game between two accounts in two browsers that moves both ratings."""

from __future__ import annotations

from openskill.models import PlackettLuce

from gameshelf.server.ratings import placements

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import (
    agents_ready,
    api,
    click_move_button,
    create_match,
    play_to_end,
    register,
    wait_turn,
)

HEADER_ON_TOP = """
const box = document.querySelector('header.top').getBoundingClientRect();
const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
return !!hit && !!hit.closest('header.top');
"""


def test_a_guests_game_is_claimed_by_the_new_account(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    browser = browser_factory()
    match = create_match(
        browser, web_server.url, "axiom", ["you", "bot:random"], {"max_plies": "40"}
    )
    play_to_end(browser, lambda b, moves, turn: click_move_button(b, moves[0]))
    result = api(web_server.url, f"/api/matches/{match}")["result"]
    # The game-over dialog covers the match, not the header above it.
    browser.find("#game-over")
    assert browser.js(HEADER_ON_TOP), "the game-over dialog covers the header"
    # A replay leaves nothing to type into: no move box, no undo, no chat input.
    inputs = ("#notation-form", "#undo", "#chat-form")
    assert all(browser.finds(css)[0].is_displayed() for css in inputs)
    browser.click("#open-replay")
    browser.find("#replay-range")
    assert not any(browser.finds(css)[0].is_displayed() for css in inputs)

    register(browser, web_server.url, "Grace")
    browser.find("#claim-prompt")
    # Leaving at once (another page, a reload) keeps the offer until it is answered.
    browser.open(f"{web_server.url}/play/{match}")
    browser.find("#claim-prompt")
    browser.screenshot(SCREENSHOTS / "accounts-claim-prompt.png")
    browser.click("#claim-yes")
    browser.wait(lambda: "1 seat attached" in browser.text("#claim-result"), what="the claim")
    browser.open(web_server.url + "/")
    browser.find("#account-name")
    assert not browser.finds("#claim-prompt")  # answered: not offered again
    assert api(web_server.url, f"/api/matches/{match}/players")["seats"][0]["account"] == "Grace"

    browser.click("#account-name")  # the header's link to the player page
    row = browser.find(f'#player-games tr[data-match="{match}"]')
    mine, theirs = result
    expected = "draw" if mine == theirs else "win" if mine > theirs else "loss"
    assert row.find_element("css selector", ".outcome").text == expected
    assert browser.driver.current_url.endswith("/players/Grace")
    browser.screenshot(SCREENSHOTS / "accounts-player-page.png")
    assert not browser.console_errors()


def _create_rated(browser: Browser, base: str) -> str:
    """Through the lobby: Axiom, this browser against another player, rated."""
    browser.open(base + "/")
    agents_ready(browser)
    browser.select("#game-select", "axiom")
    agents_ready(browser)
    browser.select("#seat-0", "you")
    browser.select("#seat-1", "open")
    enabled = "const box = document.getElementById('rated'); return box ? !box.disabled : null;"
    browser.wait(lambda: browser.js(enabled), what="the rated box (logged in)")
    browser.click("#rated")
    browser.find("#rated").location_once_scrolled_into_view  # noqa: B018 (scrolls it into view)
    browser.screenshot(SCREENSHOTS / "accounts-rated-lobby.png")
    browser.click("#create-button")
    url: str = browser.wait(
        lambda: browser.driver.current_url if "/play/" in browser.driver.current_url else None,
        what="the match page",
    )
    return url.split("/play/")[1].split("?")[0]


def test_two_accounts_play_a_rated_axiom_game_and_both_ratings_move(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    ada, ben = browser_factory(), browser_factory()
    guest = browser_factory()
    guest.open(web_server.url + "/")
    agents_ready(guest)
    assert not guest.find("#rated").is_enabled()  # guests cannot choose rated

    register(ada, web_server.url, "Ada")
    register(ben, web_server.url, "Ben")
    match = _create_rated(ada, web_server.url)
    assert api(web_server.url, f"/api/matches/{match}/players")["rated"] is True
    ben.open(f"{web_server.url}/play/{match}")
    ben.click('.take-seat[data-seat="1"]')
    last = {id(ada): -1, id(ben): -1}
    for ply in range(1, 100):
        mover = ada if ply % 2 else ben
        probe = wait_turn(mover, last[id(mover)])
        if probe.get("over"):
            break
        last[id(mover)] = int(probe["version"])
        click_move_button(mover, probe["moves"][0])
    for browser in (ada, ben):
        browser.find("#game-over #result-text")
    summary = api(web_server.url, f"/api/matches/{match}")
    assert summary["status"] == "finished"

    model = PlackettLuce()
    teams = [[model.rating()], [model.rating()]]
    expected = model.rate(teams, ranks=[float(r) for r in placements(summary["result"])])
    for index, (browser, name) in enumerate(((ada, "Ada"), (ben, "Ben"))):
        page = api(web_server.url, f"/api/players/{name}")
        (rating,) = page["ratings"]
        assert (rating["game"], rating["players"], rating["games"]) == ("axiom", 2, 1)
        assert abs(rating["mu"] - expected[index][0].mu) < 1e-9
        assert abs(rating["sigma"] - expected[index][0].sigma) < 1e-9
        browser.open(f"{web_server.url}/players/{name}")
        shown = browser.find('#ratings tr[data-game="axiom"] .rating').text
        assert shown == f"{rating['rating']:.1f}"
    ada.screenshot(SCREENSHOTS / "accounts-rated-ratings.png")
