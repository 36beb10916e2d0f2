"""Axiom in the browser: pick pieces and their moves from the 3D board's picker to the end."""

from __future__ import annotations

import json
from typing import Any

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import api, create_match, offered, play_to_end

TOWER = "C(0,0,2) C(0,1,3)z-"  # Black's first move can stack a third cube: a tower


def step(browser: Browser) -> str:
    return str(browser.find("#axiom-info").get_attribute("data-step"))


def framed(browser: Browser) -> dict[str, Any] | None:
    """The structure's box on the canvas once the camera stopped moving (None while it moves)."""
    board = browser.find(".axiom-board")
    if board.get_attribute("data-framing") == "moving":
        return None
    found: dict[str, Any] = json.loads(
        str(browser.find(".board-canvas").get_attribute("data-frame"))
    )
    return found


def in_view(frame: dict[str, Any]) -> bool:
    left, right, top, bottom = (int(frame[k]) for k in ("left", "right", "top", "bottom"))
    return 0 <= left < right <= int(frame["width"]) and 0 <= top < bottom <= int(frame["height"])


def cell(where: dict[str, int]) -> str:
    return f"{where['x']},{where['y']},{where['z']}"


def axiom_through_picker(browser: Browser, moves: list[str], turn: int) -> None:
    """Alternate sceptre and cube moves, always chosen through the board's piece picker: the
    move is one of the server's structures, and its parts (piece, target cell) say what to
    click."""
    legal = offered(browser)
    assert sorted(m["move"] for m in legal) == sorted(moves)  # the structures are the moves offered
    sceptres = [m for m in legal if m["kind"] == "sceptre"]
    cubes = [m for m in legal if m["kind"] == "cube"]
    pool = cubes if (turn % 2 == 0 and cubes) or not sceptres else sceptres
    move = pool[(turn * 7) % len(pool)]
    piece = f"{'S' if move['kind'] == 'sceptre' else 'C'}({cell(move['source'])})"
    browser.click(f'.axiom-picker button.piece[data-piece="{piece}"]')
    if move["kind"] == "sceptre":
        browser.click(f'.axiom-picker .destinations button[data-move="{move["move"]}"]')
        return
    browser.click(f'.axiom-picker button.target[data-target="{cell(move["target"])}"]')
    browser.click(f'.axiom-picker .placements button[data-move="{move["move"]}"]')


def test_axiom_against_a_bot_to_the_result(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    browser = browser_factory()
    match = create_match(
        browser, web_server.url, "axiom", ["you", "bot:random"], {"max_plies": "40"}
    )
    assert api(web_server.url, f"/api/matches/{match}")["game"] == "axiom(max_plies=40)"
    canvas = browser.find(".board-canvas")
    start_pieces = browser.find(".axiom-board").get_attribute("data-pieces")
    # Each step of a cube move says what it wants; the dome step is a labelled choice.
    assert step(browser) == "piece" and "pick a piece" in browser.text("#axiom-info").lower()
    browser.click('.axiom-picker button.piece[data-piece="C(0,0,2)"]')
    browser.wait(lambda: step(browser) == "cell", what="the cell step")
    assert "cell" in browser.text("#axiom-info").lower()
    browser.click('.axiom-picker button.target[data-target="0,1,3"]')
    browser.wait(lambda: step(browser) == "domes", what="the dome step")
    assert "dome" in browser.text("#axiom-info").lower()
    dome = browser.find(f'.axiom-picker .placements button[data-move="{TOWER}"]')
    assert dome.text == "Place with dome facing down (z-)"
    assert browser.find(".axiom-picker .placements").get_attribute("aria-label")
    # The cube's target cells are published with the canvas (small markers; see the screenshot).
    cells = [t for t in json.loads(str(canvas.get_attribute("data-targets"))) if "target" in t]
    assert {"0,1,3"} < {t["target"] for t in cells}
    browser.screenshot(SCREENSHOTS / "axiom-dome-step.png")
    dome.click()
    # The tower stands; after the bot's reply the camera frames all of it.
    browser.wait(lambda: browser.finds("#move-list li[data-ply='2']"), what="the bot's reply")
    first = browser.find("#move-list li[data-ply='1']")
    assert first.get_attribute("data-move") == TOWER
    assert first.text.startswith("Cube (0,0,2) to (0,1,3), dome facing down")
    frame = browser.wait(lambda: framed(browser), what="the camera to settle")
    assert in_view(frame), frame
    browser.screenshot(SCREENSHOTS / "axiom-tower.png")
    # Undo against a bot takes back the bot's reply and my move.
    browser.click("#undo")
    browser.wait(lambda: not browser.finds("#move-list li[data-ply]"), what="the undo")
    browser.wait(
        lambda: browser.find(".axiom-board").get_attribute("data-pieces") == start_pieces,
        what="the start position again",
    )
    # Selecting a sceptre lights its destinations (3D markers and buttons) from the legal moves.
    sceptre = browser.find(".axiom-picker button.piece[data-piece^='S']")
    origin = str(sceptre.get_attribute("data-piece"))
    sceptre.click()
    offered = {
        str(b.get_attribute("data-move"))
        for b in browser.finds(".axiom-picker .destinations button[data-move]")
    }
    legal = {
        str(b.get_attribute("data-move")) for b in browser.finds("#legal-moves button[data-move]")
    }
    assert offered and offered == {m for m in legal if m.startswith(origin + " ")}
    browser.screenshot(SCREENSHOTS / "axiom.png")
    button = f'.axiom-picker button.piece[data-piece="{origin}"]'
    browser.click(button)  # deselect; now pick the same sceptre by clicking it in 3D
    browser.wait(
        lambda: browser.find(button).get_attribute("aria-pressed") == "false", what="deselection"
    )
    targets = json.loads(str(canvas.get_attribute("data-targets")))
    head = next(t for t in targets if t.get("id") == origin)
    browser.click_at(canvas, head["x"], head["y"])
    browser.wait(
        lambda: (
            browser.find(f'.axiom-picker button.piece[data-piece="{origin}"]').get_attribute(
                "aria-pressed"
            )
            == "true"
        ),
        what="the sceptre picked in 3D",
    )
    markers = [t for t in json.loads(str(canvas.get_attribute("data-targets"))) if "move" in t]
    assert {m["move"] for m in markers} == offered  # one green marker per destination
    # (Moves onto the sceptre's own cube can lose at once at the start; take another.)
    safe = [m for m in markers if not m["move"].split(" ")[1].startswith(origin)]
    browser.click_at(canvas, safe[0]["x"], safe[0]["y"])
    browser.wait(lambda: browser.finds("#move-list li[data-ply='1']"), what="the 3D move")
    move = str(browser.find("#move-list li[data-ply='1']").get_attribute("data-move"))
    assert move.startswith(origin) and move in offered
    assert browser.text("#move-list li[data-ply='1']").startswith(f"Sceptre {origin[1:]} to the ")
    play_to_end(browser, axiom_through_picker)  # the bot's seed is the server's: any length
    summary = api(web_server.url, f"/api/matches/{match}")
    assert summary["status"] == "finished"
    assert summary["result_text"].lower() in browser.text("#result-text").lower()
    browser.screenshot(SCREENSHOTS / "axiom-result.png")
    final = browser.find(".axiom-board").get_attribute("data-pieces")
    # The replay rebuilds the pictures move by move and ends on the same position.
    browser.click("#open-replay")
    browser.wait(  # the frames come from the server: wait for ply 0 to be drawn
        lambda: (
            browser.finds("#replay-ply")
            and browser.find("#replay-ply").get_attribute("data-ply") == "0"
            and browser.find(".axiom-board").get_attribute("data-pieces") != final
        ),
        what="the replay's first position",
    )
    start = browser.find(".axiom-board").get_attribute("data-pieces")
    assert start != final and start is not None and start.count("; ") == 15
    browser.click("#replay-next")
    browser.wait(lambda: browser.find("#replay-ply").get_attribute("data-ply") == "1", what="ply 1")
    assert browser.find(".axiom-board").get_attribute("data-pieces") != start
    browser.click("#replay-end")
    browser.wait(
        lambda: browser.find(".axiom-board").get_attribute("data-pieces") == final,
        what="the replay's last picture to equal the final position",
    )


def test_the_hint_ball_plays_the_hinted_move_and_the_legend_names_the_sides(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    browser = browser_factory()
    create_match(browser, web_server.url, "axiom", ["you", "bot:random"])
    canvas = browser.find(".board-canvas")
    # The board's key says whose sceptres are whose, from the view: Black red, White blue.
    sides = [
        (
            e.get_attribute("data-owner"),
            e.get_attribute("data-colour"),
            e.get_attribute("data-sceptre"),
        )
        for e in browser.finds("#axiom-legend .side")
    ]
    assert sides == [("0", "black", "red"), ("1", "white", "blue")]
    assert browser.text("#axiom-legend .side.to-move").startswith("Black: red sceptres (you)")
    browser.wait(
        lambda: browser.find("#legal-moves").get_attribute("data-ready") == "true", what="my turn"
    )
    browser.click("#hint")
    move = browser.wait(lambda: browser.find("#hint-text").get_attribute("data-move"), 60, "a hint")

    def ball() -> dict[str, Any] | None:
        targets = json.loads(str(canvas.get_attribute("data-targets")))
        return next((t for t in targets if t.get("hint") == move and t.get("playable")), None)

    spot = browser.wait(ball, what="the gold hint ball, carrying the move")
    browser.wait(lambda: framed(browser), what="the camera to settle")
    browser.screenshot(SCREENSHOTS / "axiom-hint.png")
    browser.click_at(canvas, spot["x"], spot["y"])
    browser.wait(lambda: browser.finds("#move-list li[data-ply='1']"), what="the hinted move")
    assert browser.find("#move-list li[data-ply='1']").get_attribute("data-move") == move
