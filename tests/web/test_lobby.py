"""The lobby: only bots fit for the game, results counted from 1, idle matches, clean pages."""

from __future__ import annotations

import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta
from typing import Any

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import agents_ready, api

BOT = {"kind": "bot", "agent": "random"}
BOT_NAMES = """
return [...document.querySelectorAll('#seat-1 option')]
  .map(o => o.value).filter(v => v.startsWith('bot:')).map(v => v.slice(4));
"""


def offered(browser: Browser) -> list[str]:
    names: list[str] = browser.js(BOT_NAMES)
    return names


def fit(base: str, game: str) -> list[dict[str, Any]]:
    answer: list[dict[str, Any]] = api(base, "/api/agents?game=" + urllib.parse.quote(game))
    return answer


def test_lobby_offers_only_the_bots_fit_for_the_game(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    base = web_server.url
    browser = browser_factory()
    browser.open(base + "/")
    assert agents_ready(browser) == "cage"
    cage = fit(base, "cage")
    assert [a["strength"] for a in cage] == sorted(a["strength"] for a in cage)
    # The seat menu offers the named levels, weakest first as the server says; the research
    # variants ("(a trial)", fixed-budget twins, raw searches) wait behind one tick.
    levels = [a["name"] for a in cage if a["level"]]
    assert offered(browser) == levels
    assert levels[0] == "random" and levels[-1] == "expert" and "alphabeta" not in levels
    browser.click("#all-bots")
    assert offered(browser) == [a["name"] for a in cage]
    assert "alphabeta" in offered(browser)
    chosen = str(browser.find("#seat-1").get_attribute("value"))[4:]
    summary = next(a["summary"] for a in cage if a["name"] == chosen)
    assert summary and browser.text("#seat-help-1") == summary  # one line on what it is
    # The list follows the options: alpha-beta cannot play three-player Cage, nor AXIA.
    browser.select("#opt-players", "3")
    assert agents_ready(browser) == "cage(players=3)"
    assert offered(browser) == [a["name"] for a in fit(base, "cage(players=3)")]
    assert "alphabeta" not in offered(browser) and "random" in offered(browser)
    browser.select("#game-select", "axia")
    assert agents_ready(browser) == "axia"
    assert offered(browser) == [a["name"] for a in fit(base, "axia")]
    assert "alphabeta" not in offered(browser)
    # Should an unfit bot reach the server anyway, its refusal is shown with its reason.
    browser.js(
        "const s = document.getElementById('seat-1');"
        "s.add(new Option('alphabeta', 'bot:alphabeta')); s.value = 'bot:alphabeta';"
    )
    browser.click("#create-button")
    browser.wait(
        lambda: browser.find("#create-error").get_attribute("data-code") == "agent/unfit",
        what="the refusal of an unfit bot",
    )
    assert "alphabeta" in browser.text("#create-error")
    assert "/play/" not in browser.driver.current_url


def _age(database_url: str, match: str, days: int) -> None:
    """Make a match look idle for ``days`` days (its last change moved back in the database)."""
    with sqlite3.connect(database_url.removeprefix("sqlite:///")) as db:
        (stored,) = db.execute("SELECT updated FROM matches WHERE id = ?", (match,)).fetchone()
        older = datetime.fromisoformat(str(stored)) - timedelta(days=days)
        db.execute("UPDATE matches SET updated = ? WHERE id = ?", (str(older), match))


def _finished(base: str, match: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary: dict[str, Any] = api(base, f"/api/matches/{match}")
        if summary["status"] == "finished":
            return summary
        time.sleep(0.1)
    raise AssertionError(f"match {match} did not finish")


def test_lobby_lists_results_from_1_and_idle_matches(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    base = web_server.url
    # Seed 1: the second seat (index 1) wins this bot game, "player 2" for people.
    duel = api(base, "/api/matches", {"game": "cage", "seats": [BOT, BOT], "seed": 1})["id"]
    solo = api(base, "/api/matches", {"game": "axia(players=1)", "seats": [BOT]})["id"]
    waiting = [{"kind": "human"}, BOT]
    fresh = api(base, "/api/matches", {"game": "cage", "seats": waiting})["id"]
    stale = api(base, "/api/matches", {"game": "cage", "seats": waiting})["id"]
    _age(web_server.database_url, stale, days=2)
    duel_summary, solo_summary = (_finished(base, m) for m in (duel, solo))
    duel_result, solo_result = duel_summary["result_text"], solo_summary["result_text"]
    assert duel_summary["result"][1] > duel_summary["result"][0]

    browser = browser_factory()
    browser.open(base + "/")
    item = '#matches-{} li[data-match="{}"]'
    # Finished games say the server's result: seats counted from 1, a solo game's score and rank.
    assert browser.find(item.format("finished", duel)).get_attribute("data-result") == duel_result
    assert "player 2" in duel_result and "player 0" not in duel_result
    solo_text = browser.find(item.format("finished", solo)).text
    assert solo_result in solo_text and "solo" in solo_text and "draw" not in solo_text
    # Open matches say how long they have been idle; those idle over a day are left out.
    assert "idle just now" in browser.find(item.format("open", fresh)).text
    assert browser.find("#hide-idle").is_selected()  # on by default
    assert not browser.finds(item.format("open", stale))
    browser.click("#hide-idle")
    assert "idle 2 days" in browser.find(item.format("open", stale)).text
    assert "Invalid Date" not in browser.text("#main")
    browser.screenshot(SCREENSHOTS / "lobby.png")
    # The pages need nothing from outside (the server's Content-Security-Policy refuses it),
    # and nothing is missing: not even the favicon.
    browser.open(f"{base}/play/{fresh}")
    browser.find("#legal-moves")
    browser.wait(lambda: browser.finds(".cage-grid button.column"), what="the board")
    assert browser.console_errors() == []
    with urllib.request.urlopen(base + "/favicon.ico", timeout=10) as response:
        assert response.read(4) == b"\0\0\1\0"  # an icon, not the page
    with urllib.request.urlopen(base + "/", timeout=10) as response:
        policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy


def test_join_takes_a_seat_in_one_click_and_the_lists_say_what_a_match_is(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    base = web_server.url
    paula = browser_factory()
    paula.open(base + "/")
    agents_ready(paula)
    paula.select("#game-select", "axiom")
    agents_ready(paula)
    paula.find("#player-name").send_keys("paula")
    paula.select("#seat-0", "you")
    paula.select("#seat-1", "open")
    paula.select("#clock-mode", "correspondence")
    paula.click("#create-button")
    url: str = paula.wait(
        lambda: paula.driver.current_url if "/play/" in paula.driver.current_url else None,
        what="paula's match page",
    )
    match = url.split("/play/")[1].split("?")[0]
    paula.find("#match-terms")
    assert [b.text for b in paula.finds("#match-terms .badge")] == ["casual", "3 days a move"]

    guest = browser_factory()
    guest.open(base + "/")
    item = f'#matches-open li[data-match="{match}"]'
    listed = guest.find(item)
    # The list says who set it up, who sits where, whether it is rated and its clock.
    assert "by paula" in listed.text and "paula (Black) vs free seat (White)" in listed.text
    assert [b.text for b in listed.find_elements("css selector", ".terms .badge")] == [
        "casual",
        "3 days a move",
    ]
    guest.click(f"{item} button[data-join]")  # the one click
    guest.wait(lambda: f"/play/{match}" in guest.driver.current_url, what="the match page")
    guest.wait(
        lambda: guest.find('#seat-list li[data-seat="1"] .badge').text == "you",
        what="the guest seated as White",
    )
    assert not guest.finds(".take-seat")  # no second click asked for
    summary = api(base, f"/api/matches/{match}")
    assert summary["status"] == "running" and all(s["taken"] for s in summary["seats"])
    # paula's "Your move" box names her opponent and the move to play.
    paula.open(base + "/")
    waiting = paula.find(f'#waiting-list li[data-match="{match}"]')
    assert "axiom vs player 2 · move 1" in waiting.text  # the guest gave no name
    assert not paula.console_errors() and not guest.console_errors()


def test_an_unknown_page_is_the_tables_not_found_page_and_the_api_keeps_json(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    base = web_server.url
    browser = browser_factory()
    browser.open(base + "/no/such/page")
    assert "There is no page at /no/such/page" in browser.text("#not-found")
    browser.click('#not-found a[href="/"]')
    browser.find("#create-form")  # back in the lobby
    request = urllib.request.Request(base + "/api/no-such-route", headers={"accept": "text/html"})
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as error:
        assert error.code == 404
        assert error.headers.get_content_type() == "application/json"
    else:
        raise AssertionError("an unknown API path answered")
