"""Rubik's Cage in the browser: against a bot, two browsers live, hot-seat with undo, replay."""

from __future__ import annotations

import json
import math
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import api, click_move_button, create_match, offered, play_to_end, wait_turn

CAGE_CONTROLS = """
const legal = new Set([...document.querySelectorAll('#legal-moves button[data-move]')]
  .map(b => b.getAttribute('data-move')));
const columns = [...document.querySelectorAll('.cage-grid button.column')]
  .map(b => b.getAttribute('aria-label'));
return {legal: [...legal], columns};
"""


def cage_through_board(browser: Browser, moves: list[str], turn: int) -> None:
    """Drop with the board's colour palette and column buttons; every 5th turn twist or flip.
    The move is chosen from the server's structures, by their parts, as the board chooses."""
    legal = offered(browser)
    assert sorted(m["move"] for m in legal) == sorted(moves)  # the structures are the moves offered
    turns = [m for m in legal if m["kind"] in ("twist", "flip")]
    drops = [m for m in legal if m["kind"] == "drop"]
    if turns and (turn % 5 == 4 or not drops):
        browser.click(f'.cage-turns button[data-turn="{turns[turn % len(turns)]["move"]}"]')
        return
    move = drops[(turn * 3) % len(drops)]
    browser.click(f'.palette button[data-colour="{move["colour"]}"]')
    browser.wait(
        lambda: (
            browser.js(
                "return document.querySelector(arguments[0]).getAttribute('aria-pressed')",
                f'.palette button[data-colour="{move["colour"]}"]',
            )
            == "true"
        ),
        what="the colour to be chosen",
    )
    browser.click(f'.cage-grid button.column[data-column="{move["column"]}"]')


def column_labels(browser: Browser) -> list[str]:
    return [
        str(e.get_attribute("aria-label")).split(";")[0]
        for e in browser.finds(".cage-grid button.column")
    ]


def test_cage_against_a_bot_to_the_result_then_replay(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    browser = browser_factory()
    match = create_match(browser, web_server.url, "cage", ["you", "bot:random"])
    canvas = browser.find(".board-canvas")  # the 3D view is there (WebGL through SwiftShader)
    # Drop by clicking a column in 3D: the back-right column 4, seen over the front ones.
    colour = browser.find('.palette button[aria-pressed="true"]').get_attribute("data-colour")
    points = json.loads(str(browser.wait(lambda: canvas.get_attribute("data-columns"))))
    browser.click_at(canvas, points[4]["x"], points[4]["y"])
    browser.wait(lambda: browser.finds("#move-list li[data-ply='1']"), what="the drop made in 3D")
    assert browser.text("#move-list li[data-ply='1']") == f"{colour}4"
    # The forbidden reverse move, once there is one, is shown greyed out, never offered.

    def choose(b: Browser, moves: list[str], turn: int) -> None:
        if turn == 9:
            b.screenshot(SCREENSHOTS / "cage.png")
        cage_through_board(b, moves, turn)

    turns = play_to_end(browser, choose)
    # The server draws the bot's seed, so a lucky random bot may end the game within a few
    # turns: what follows needs only that this browser played through the board at all.
    assert turns >= 1
    summary = api(web_server.url, f"/api/matches/{match}")
    assert summary["status"] == "finished"
    result = browser.text("#result-text")
    assert summary["result_text"].lower() in result.lower()
    browser.screenshot(SCREENSHOTS / "cage-result.png")
    browser.click("#close-over")
    final = column_labels(browser)
    browser.screenshot(SCREENSHOTS / "cage-final.png")

    # Replay: step from the start to the end and land on the same picture.
    browser.driver.refresh()
    browser.click("#open-replay")
    browser.wait(  # the frames come from the server: wait for ply 0 to be drawn
        lambda: all(label.endswith("empty") for label in column_labels(browser)),
        what="the replay's empty cage",
    )
    assert browser.find("#replay-ply").get_attribute("data-ply") == "0"
    plies = len(summary and api(web_server.url, f"/api/matches/{match}/record")["moves"])
    browser.click("#replay-next")
    browser.wait(lambda: browser.find("#replay-ply").get_attribute("data-ply") == "1", what="ply 1")
    assert browser.find("#move-list li.current").get_attribute("data-ply") == "1"
    assert sum(not label.endswith("empty") for label in column_labels(browser)) == 1
    browser.click("#replay-next")
    browser.screenshot(SCREENSHOTS / "cage-replay.png")
    browser.click("#replay-prev")
    browser.wait(lambda: browser.find("#replay-ply").get_attribute("data-ply") == "1", what="back")
    browser.click("#replay-end")
    browser.wait(
        lambda: browser.find("#replay-ply").get_attribute("data-ply") == str(plies), what="end"
    )
    assert column_labels(browser) == final


def test_two_browsers_play_each_other_live(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    ann, bob = browser_factory(), browser_factory(width=420, height=860)  # bob is on a phone
    match = create_match(ann, web_server.url, "cage", ["you", "open"])
    link = str(ann.find("#share-link").get_attribute("value"))
    assert link.endswith(f"/play/{match}")  # the link carries the match id only
    bob.open(link)
    bob.click('.take-seat[data-seat="1"]')
    for browser in (ann, bob):

        def started(b: Browser = browser) -> bool:
            return "to move" in b.text("#status") or "Your turn" in b.text("#status")

        browser.wait(started, what="the match to start in both browsers")

    # Ann (player 0) and Bob (player 1) alternate; each move shows up live in the other browser.
    last = {id(ann): -1, id(bob): -1}
    for ply in range(1, 200):
        mover, other = (ann, bob) if ply % 2 else (bob, ann)
        probe = wait_turn(mover, last[id(mover)])
        if probe.get("over"):
            break
        last[id(mover)] = int(probe["version"])
        drops = [m for m in probe["moves"] if m[0] in "WYROBG"]
        click_move_button(mover, (drops or probe["moves"])[0])

        def arrived(o: Browser = other, n: int = ply) -> bool:
            return len(o.finds("#move-list li[data-ply]")) >= n

        other.wait(arrived, what=f"move {ply} to reach the other browser")
    for browser in (ann, bob):
        browser.find("#game-over #result-text")
    assert ann.text("#result-text") and bob.text("#result-text")
    assert api(web_server.url, f"/api/matches/{match}")["status"] == "finished"
    bob.screenshot(SCREENSHOTS / "cage-phone.png")


def test_hot_seat_undo_and_keyboard(web_server: WebServer, browser_factory: BrowserFactory) -> None:
    browser = browser_factory()
    create_match(browser, web_server.url, "cage", ["you", "you"])
    browser.wait(lambda: "hot-seat" in browser.text("#status"), what="hot-seat status")
    # Keyboard: type a move in the notation box and press Enter.
    box = browser.find("#notation")
    box.send_keys("r3\n")
    browser.wait(lambda: len(browser.finds("#move-list li[data-ply]")) == 1, what="R3 played")
    assert browser.text("#move-list li[data-ply='1']") == "R3"
    browser.click("#undo")
    browser.wait(lambda: not browser.finds("#move-list li[data-ply]"), what="the undo")
    # An illegal move typed in is refused by the server and shown, changing nothing.
    browser.find("#notation").send_keys("T1+\n")
    browser.wait(lambda: len(browser.finds("#move-list li[data-ply]")) == 1, what="T1+")
    browser.find("#notation").send_keys("T1-\n")
    # The refusal says why, in words (no internal tags).
    browser.wait(lambda: "reverse" in browser.text("#message").lower(), what="the refusal")
    assert "/" not in browser.text("#message")
    assert browser.find("#notation").get_attribute("value") == "T1-"  # kept, to correct it
    assert browser.finds('.cage-turns button[data-turn="T1-"].forbidden')
    assert not browser.find('.cage-turns button[data-turn="T1-"]').is_enabled()
    turns = play_to_end(browser, cage_through_board)
    assert turns > 3 and browser.text("#result-text")


def test_lobby_lists_and_spectating(web_server: WebServer, browser_factory: BrowserFactory) -> None:
    browser = browser_factory()
    match = create_match(browser, web_server.url, "cage", ["bot:random", "bot:random"])
    browser.wait(
        lambda: browser.js("return !document.getElementById('game-over').hidden"),
        what="the bots to finish",
    )
    browser.open(web_server.url + "/")
    browser.click(f'#matches-finished li[data-match="{match}"] a')
    browser.find("#replay-range")  # a finished match opens as a replay
    assert not browser.finds("#notation-form:not([hidden])")  # a spectator gets no move box
    # A running match can be watched: the spectator sees moves arrive, with no move buttons.
    running = create_match(browser, web_server.url, "cage", ["bot:random", "bot:random"])
    browser.open(f"{web_server.url}/play/{running}?watch=1")
    browser.wait(lambda: len(browser.finds("#move-list li[data-ply]")) > 0, what="moves")
    assert not browser.finds("#legal-moves button[data-move]")


def columns_on_canvas(browser: Browser) -> list[dict[str, Any]]:
    """Where each column's number and top tile show on the canvas, and the tile's distance."""
    found: list[dict[str, Any]] = json.loads(
        str(browser.find(".board-canvas").get_attribute("data-columns"))
    )
    return found


def chosen_colour(browser: Browser) -> str:
    return str(browser.find('.palette button[aria-pressed="true"]').get_attribute("data-colour"))


def test_columns_by_number_after_orbiting(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    """The 3D view numbers its columns as the notation does; after the view is turned, a click
    on a column's number, or on the top of a column seen past nearer ones, drops there."""
    browser = browser_factory()
    create_match(browser, web_server.url, "cage", ["you", "bot:random"])
    canvas = browser.find(".board-canvas")
    before = browser.wait(lambda: columns_on_canvas(browser), what="the columns on the canvas")
    assert "drag" in browser.text(".orbit-hint").lower()
    # Turn the view: drag across the canvas (a real pointer drag, as a player orbits).
    drag = ActionChains(browser.driver).move_to_element(canvas).click_and_hold()
    for _ in range(6):
        drag = drag.move_by_offset(-35, 0)
    drag.release().perform()
    after = browser.wait(
        lambda: (lambda now: now if now != before else None)(columns_on_canvas(browser)),
        what="the columns to move with the view",
    )
    assert browser.js("return document.querySelector('.canvas-box').dataset.orbited") == "true"
    farthest = sorted(range(8), key=lambda r: -after[r]["distance"])

    def clear(r: int, point: dict[str, Any], columns: list[dict[str, Any]]) -> bool:
        """Nothing else's number within 30 px of ``point`` (column ``r``'s own aside)."""
        others = [c for i, c in enumerate(columns) if i != r]
        return all(math.dist((point["x"], point["y"]), (c["x"], c["y"])) > 30 for c in others)

    # By its number: the farthest column whose number shows clear of the others; pointing at it
    # names the column.
    far = next(r for r in farthest if clear(r, after[r], after))
    label = after[far]
    browser.driver.execute_script("window.scrollTo(0, 0)")
    ActionChains(browser.driver).move_to_element_with_offset(
        canvas,
        int(label["x"] - canvas.size["width"] / 2),
        int(label["y"] - canvas.size["height"] / 2),
    ).perform()
    browser.wait(
        lambda: browser.find("#cage-hover").get_attribute("data-column") == str(far),
        what="the hover caption naming the column",
    )
    assert browser.text("#cage-hover").startswith(f"Column {far}")
    browser.screenshot(SCREENSHOTS / "cage-numbers.png")
    colour = chosen_colour(browser)
    browser.click_at(canvas, label["x"], label["y"])
    browser.wait(lambda: browser.finds("#move-list li[data-ply='1']"), what="the drop by number")
    assert browser.text("#move-list li[data-ply='1']") == f"{colour}{far}"
    # By its top: a far column whose top tile shows clear of the other columns' numbers (the ray
    # to it passes through the space of the nearer columns first).
    probe = wait_turn(browser, -1)
    assert not probe.get("over")
    now = columns_on_canvas(browser)
    colour = chosen_colour(browser)
    open_columns = {m[1:] for m in probe["moves"] if m[0] == colour}
    back = next(r for r in farthest[:4] if clear(r, now[r]["top"], now) and str(r) in open_columns)
    browser.click_at(canvas, now[back]["top"]["x"], now[back]["top"]["y"])
    browser.wait(lambda: browser.finds("#move-list li[data-ply='3']"), what="the drop by the top")
    assert browser.text("#move-list li[data-ply='3']") == f"{colour}{back}"
