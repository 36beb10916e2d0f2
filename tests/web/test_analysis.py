"""The analysis board in a real browser: after the game the replay shows the evaluation line, the
best move of each ply (drawn on the Cage board) and the blunders in the move list; during a game
against a bot the Hint button suggests a legal move, marked on the board."""

from __future__ import annotations

import json
import time

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import api, create_match

RANDOM = {"kind": "bot", "agent": "random"}
GAME = "cage(players=2,stock=3:3)"


def finished_match(base: str, seed: int) -> str:
    match = api(base, "/api/matches", {"game": GAME, "seats": [RANDOM, RANDOM], "seed": seed})
    deadline = time.monotonic() + 60
    while api(base, f"/api/matches/{match['id']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return str(match["id"])


def attribute(browser: Browser, css: str, name: str) -> str | None:
    value = browser.js(
        "const e = document.querySelector(arguments[0]);"
        "return e ? e.getAttribute(arguments[1]) : null;",
        css,
        name,
    )
    return None if value is None else str(value)


def test_the_replay_shows_the_evaluation_line_best_moves_and_blunders(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    base = web_server.url
    match = finished_match(base, seed=6)
    browser = browser_factory(1280, 1800)
    browser.open(f"{base}/play/{match}?replay=1")
    browser.wait(
        lambda: attribute(browser, "#analysis", "data-state") == "ready", 120, "the analysis"
    )
    analysis = api(base, f"/api/matches/{match}/analysis")  # the cached one the page drew
    record = api(base, f"/api/matches/{match}/record")
    assert len(analysis["plies"]) == len(record["moves"])
    assert attribute(browser, "#eval-line", "data-points") == str(len(analysis["plies"]))
    labelled = {p["ply"]: p["label"] for p in analysis["plies"] if p["label"]}
    marks = attribute(browser, "#eval-line", "data-marks") or ""
    assert marks == " ".join(f"{ply}:{label}" for ply, label in labelled.items())
    judged = browser.js(
        "return [...document.querySelectorAll('#move-list li[data-judgement]')]"
        ".map(li => [Number(li.dataset.ply), li.dataset.judgement]);"
    )
    assert sorted(map(tuple, judged)) == sorted((ply + 1, label) for ply, label in labelled.items())
    assert labelled, "random bots make at least one blunder in this game"
    first = next(iter(labelled))
    for ply in (0, 1, first):
        browser.js(
            "const r = document.getElementById('replay-range'); r.value = arguments[0];"
            "r.dispatchEvent(new Event('input'));",
            ply,
        )
        best = analysis["plies"][ply]["best"][0]["move"]
        browser.wait(
            lambda best=best: attribute(browser, "#best-move", "data-move") == best,
            what=f"the best move of ply {ply}",
        )
        browser.wait(
            lambda best=best: attribute(browser, ".cage-board", "data-suggested") == best,
            what=f"the board drawing the best move of ply {ply}",
        )
    assert labelled[first] in browser.text("#best-move")
    late = max(labelled)  # a picture with cubies in the cage and a marked move
    browser.js(
        "const r = document.getElementById('replay-range'); r.value = arguments[0];"
        "r.dispatchEvent(new Event('input')); document.getElementById('replay').scrollIntoView();",
        late,
    )
    browser.wait(lambda: attribute(browser, "#replay-ply", "data-ply") == str(late))
    browser.screenshot(SCREENSHOTS / "analysis-replay.png")
    assert not browser.console_errors()


def test_the_hint_button_suggests_a_legal_move_against_a_bot(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    browser = browser_factory()
    create_match(browser, web_server.url, "cage", ["you", "bot:random"])
    browser.wait(lambda: attribute(browser, "#legal-moves", "data-ready") == "true", what="my turn")
    browser.click("#hint")
    move = browser.wait(lambda: attribute(browser, "#hint-text", "data-move"), 60, "a hint")
    legal = json.loads(
        browser.js(
            "return JSON.stringify([...document.querySelectorAll('#legal-moves button[data-move]')]"
            ".map(b => b.dataset.move));"
        )
    )
    assert move in legal
    browser.wait(
        lambda: (
            attribute(browser, f'#legal-moves button[data-move="{move}"]', "class")
            and "hinted"
            in str(attribute(browser, f'#legal-moves button[data-move="{move}"]', "class"))
        ),
        what="the hinted move button",
    )
    assert attribute(browser, ".cage-board", "data-suggested") == move
    browser.screenshot(SCREENSHOTS / "analysis-hint.png")
    browser.click(f'#legal-moves button[data-move="{move}"]')  # the server takes the hint
    browser.wait(
        lambda: attribute(browser, "#move-list li[data-ply='1']", "data-move") == move,
        what="the hinted move played",
    )
    browser.wait(lambda: attribute(browser, "#hint-text", "data-move") is None, what="hint cleared")
    assert not browser.console_errors()


def test_no_hint_button_when_watching(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    base = web_server.url
    match = api(base, "/api/matches", {"game": GAME, "seats": [{"kind": "human"}, RANDOM]})
    browser = browser_factory()
    browser.open(f"{base}/play/{match['id']}?watch=1")
    browser.find("#status")
    browser.wait(lambda: browser.js("return document.getElementById('hint') !== null"))
    assert browser.js("return document.getElementById('hint').offsetParent === null")


def test_axiom_and_axia_replays_show_the_analysis(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    """Axiom: the whole game, the best move drawn on the 3D board. AXIA: nothing until a seat is
    chosen, then that seat's decisions only (its own view), the best move beside the table."""
    base = web_server.url
    browser = browser_factory()
    for game, board, seat in (
        ("axiom", ".axiom-board", None),
        ("axia(players=2)", ".axia-board", "1"),
    ):
        match = api(base, "/api/matches", {"game": game, "seats": [RANDOM, RANDOM], "seed": 4})
        deadline = time.monotonic() + 60
        while api(base, f"/api/matches/{match['id']}")["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.1)
        browser.open(f"{base}/play/{match['id']}?replay=1")
        if seat is not None:
            browser.wait(
                lambda: "pick a seat" in browser.text("#analysis-status"), what="a seat asked for"
            )
            assert attribute(browser, "#eval-line", "data-points") == "0"
            browser.select("#replay-viewer", seat)
        browser.wait(
            lambda: attribute(browser, "#analysis", "data-state") == "ready", 180, "the analysis"
        )
        query = "" if seat is None else f"?seat={seat}"
        analysis = api(base, f"/api/matches/{match['id']}/analysis{query}")
        assert analysis["plies"], "some decision was analysed"
        assert attribute(browser, "#eval-line", "data-points") == str(len(analysis["plies"]))
        if seat is not None:
            assert {p["mover"] for p in analysis["plies"]} == {int(seat)}
        ply = analysis["plies"][-1]
        browser.js(
            "const r = document.getElementById('replay-range'); r.value = arguments[0];"
            "r.dispatchEvent(new Event('input'));",
            ply["ply"],
        )
        best = ply["best"][0]["move"]
        browser.wait(
            lambda best=best, board=board: attribute(browser, board, "data-suggested") == best,
            what=f"{game}: the board showing the best move",
        )
        assert attribute(browser, "#best-move", "data-move") == best
    assert not browser.console_errors()
