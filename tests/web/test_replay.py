"""Replays draw the engine's views, ply by ply: the browser knows no rules.

Each board publishes what it drew on ``data-drawn``, read back from its scene or page (mesh
places, textures, dome meshes, DOM marks), and each ply's picture must equal the view the engine
gives for that ply, computed here from the match record. Bot-only matches with a seed finish by
themselves in seconds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import gameshelf

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import api

RANDOM = {"kind": "bot", "agent": "random"}


def finished_match(base: str, game: str, seed: int) -> str:
    """A random-vs-random match with a seed, played to its end by the server."""
    match = api(base, "/api/matches", {"game": game, "seats": [RANDOM, RANDOM], "seed": seed})
    deadline = time.monotonic() + 60
    while api(base, f"/api/matches/{match['id']}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return str(match["id"])


def engine_views(base: str, match: str, player: int | None) -> list[dict[str, Any]]:
    """The engine's view of every ply (start first), replayed here from the match record."""
    record = api(base, f"/api/matches/{match}/record")
    state = gameshelf.load(record["game"]).new_initial_state(record["seed"])
    views = [state.view(player)]
    for move in record["moves"]:
        state.apply_action(move["action"])
        views.append(state.view(player))
    return views


def drawn(browser: Browser, css: str) -> Any:
    return json.loads(str(browser.find(css).get_attribute("data-drawn") or "null"))


def open_replay(browser: Browser, base: str, match: str) -> int:
    """Open a finished match's replay; returns its number of plies."""
    browser.open(f"{base}/play/{match}?replay=1")
    browser.wait(
        lambda: browser.find("#replay-ply").get_attribute("data-ply") == "0", what="the replay"
    )
    return int(str(browser.find("#replay-range").get_attribute("max")))


def wait_for_ply(browser: Browser, ply: int) -> None:
    """Wait until the replay shows ``ply``; fail naming the ply it shows instead."""
    try:
        browser.wait(
            lambda: browser.find("#replay-ply").get_attribute("data-ply") == str(ply),
            what=f"ply {ply}",
        )
    except Exception as exc:
        landed = browser.find("#replay-ply").get_attribute("data-ply")
        raise AssertionError(f"waited for ply {ply}, the replay shows ply {landed}") from exc


def step_and_compare(
    browser: Browser,
    css: str,
    picture: Any,
    at_ply: int,
    normalise: Callable[[Any], Any] = lambda found: found,
) -> None:
    """Go to ply ``at_ply`` with the Next button and wait until the board drew ``picture``."""
    if at_ply > 0:
        browser.click("#replay-next")
    wait_for_ply(browser, at_ply)

    def shown() -> Any:
        found = drawn(browser, css)
        return normalise(found) if found else None

    try:
        browser.wait(lambda: shown() == picture, 30, f"the picture of ply {at_ply}")
    except Exception as exc:
        raise AssertionError(
            f"ply {at_ply}: drew {shown()}, the engine's view gives {picture}"
        ) from exc


def test_a_cage_replay_with_stock_draws_each_engine_view(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    game = "cage(players=2,stock=12:12)"
    match = finished_match(web_server.url, game, seed=4)
    views = engine_views(web_server.url, match, None)
    # The engine gives one colour each here (no guess from the player count).
    assert views[0]["colours"] == [["W"], ["Y"]]
    browser = browser_factory()
    assert open_replay(browser, web_server.url, match) == len(views) - 1
    for ply, view in enumerate(views):
        picture = {
            "columns": view["columns"],
            "heights": [list(range(len(column))) for column in view["columns"]],
            "winning_cells": sorted(view["winning_cells"]),
            "colours": view["colours"],
            "left": view["left"],
        }
        step_and_compare(browser, ".cage-board", picture, ply)
    assert views[-1]["winning_cells"] or len(views) > 20  # the end shows (a line, or full)
    browser.screenshot(SCREENSHOTS / "cage-replay-stock.png")


NEXT_BUTTON_AT = """
const box = document.querySelector('#replay-next').getBoundingClientRect();
return [Math.round(box.x), Math.round(box.y), window.scrollY];
"""


def test_stepping_through_a_replay_leaves_the_next_button_where_it_was(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    # The move list follows the replay by scrolling itself only: the page stays where it is, so
    # "Next" stays under the pointer (it once jumped half a screen away at every click, and a
    # click landing while the analysis arrived was lost).
    match = finished_match(web_server.url, "cage(players=2,stock=12:12)", seed=4)
    browser = browser_factory()
    plies = open_replay(browser, web_server.url, match)
    browser.js("document.querySelector('#replay-next').scrollIntoView({block: 'start'})")
    before = browser.js(NEXT_BUTTON_AT)
    for ply in range(1, min(plies, 6) + 1):
        browser.click("#replay-next")
        wait_for_ply(browser, ply)
        assert browser.js(NEXT_BUTTON_AT) == before, f"the page moved at ply {ply}"
    browser.wait(
        lambda: browser.find("#analysis").get_attribute("data-state") in ("ready", "error"),
        60,
        "the analysis",
    )
    assert browser.js(NEXT_BUTTON_AT) == before, "the page moved when the analysis came"
    current = browser.find("#move-list li.current")
    assert current.get_attribute("data-ply") == str(min(plies, 6))
    assert browser.js(
        "const l = document.querySelector('#move-list').getBoundingClientRect();"
        "const i = arguments[0].getBoundingClientRect();"
        "return i.top >= l.top - 1 && i.bottom <= l.bottom + 1;",
        current,
    ), "the current move is scrolled out of the move list"


def _axiom_picture(view: dict[str, Any]) -> dict[str, Any]:
    cubes = [
        {k: c[k] for k in ("x", "y", "z", "colour", "domes")}
        for c in sorted(view["cubes"], key=lambda c: (c["x"], c["y"], c["z"]))
    ]
    sceptres = [
        {k: s[k] for k in ("x", "y", "z", "colour", "face")}
        for s in sorted(view["sceptres"], key=lambda s: (s["colour"], s["x"], s["y"], s["z"]))
    ]
    return {"cubes": cubes, "sceptres": sceptres}


def test_an_axiom_replay_with_overhangs_draws_each_engine_view(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    match = finished_match(web_server.url, "axiom(allow_overhang=true,max_plies=30)", seed=11)
    views = engine_views(web_server.url, match, None)
    browser = browser_factory()
    assert open_replay(browser, web_server.url, match) == len(views) - 1
    # Some ply shows a cube hanging from a side joint (nothing under it): the option at work.
    assert any(
        c["z"] > 1
        and (c["x"], c["y"], c["z"] - 1) not in {(d["x"], d["y"], d["z"]) for d in v["cubes"]}
        for v in views
        for c in v["cubes"]
    ), "no overhang in this game: pick another seed"
    for ply, view in enumerate(views):
        expected = _axiom_picture(view)
        assert len(expected["cubes"]) <= 12 and len(expected["sceptres"]) == 4
        step_and_compare(browser, ".axiom-board", expected, ply, _axiom_picture)
    info = browser.text("#axiom-info")
    assert views[-1]["result"]["text"] in info  # the result, in the engine's words


def _axia_picture(view: dict[str, Any], cards: dict[str, Any], viewer: int | None) -> Any:
    spaces = {card["id"]: card["spaces"] for card in cards["territory"]}

    def beasts(grid: list[str | None]) -> list[str | None]:
        out: list[str | None] = [None] * 36
        for cell, card in enumerate(grid):
            if card is None:
                continue
            for local, space in enumerate(spaces[card]):
                row = 2 * (cell // 3) + local // 2
                col = 2 * (cell % 3) + local % 2
                out[row * 6 + col] = space["beast"]
        return out

    players = view["players"]
    sheets = view.get("score_sheets")

    def active(i: int, player: dict[str, Any]) -> list[bool]:
        """Slots lit as scoring: the view's word (its final score sheet at the end)."""
        if sheets:
            by_slot = {row["slot"]: row["active"] for row in sheets[i]["scoring_cards"]}
            names = ["R1", "R2", "R3", "C1", "C2", "C3"]
            return [
                bool(by_slot.get(name)) and player["scoring"][k] is not None
                for k, name in enumerate(names)
            ]
        given = player.get("scoring_active") or [False] * 6
        return [bool(a) and player["scoring"][k] is not None for k, a in enumerate(given)]

    return {
        "round": min(8, view["round"] + 1),  # people count rounds from 1, the view from 0
        "phase": view["phase"],
        "dice": [{k: d[k] for k in ("die", "value", "used_by")} for d in view["dice"]],
        "face_up": view["face_up"],
        "hand": players[viewer].get("hand", []) if viewer is not None else [],
        "players": [
            {
                "player": i,
                "grid": p["grid"],
                "marks": p["marks"],
                "beasts": beasts(p["grid"]),
                "scoring": p["scoring"],
                "active": active(i, p),
            }
            for i, p in enumerate(players)
        ],
        "scores": ["?" if p["score"] is None else f"{p['score']:g}" for p in players],
    }


# One ply of the replay, set through the scrubber, and what the table drew for it.
SET_PLY = """
const range = document.getElementById('replay-range');
range.value = String(arguments[0]);
range.dispatchEvent(new Event('input'));
const board = document.querySelector('.axia-board');
return [document.getElementById('replay-ply').getAttribute('data-ply'),
        board.getAttribute('data-drawn')];
"""


def test_an_axia_replay_draws_every_ply_from_each_side(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    match = finished_match(web_server.url, "axia(players=2)", seed=3)
    cards = api(web_server.url, f"/api/matches/{match}/data")["cards"]
    browser = browser_factory()
    plies = open_replay(browser, web_server.url, match)
    # Every seat's side is offered once the game is over; the first player's hand is drawn.
    browser.select("#replay-viewer", "0")
    browser.wait(
        lambda: browser.find("#replay-ply").get_attribute("data-seat") == "0", what="seat 0"
    )
    for viewer in (0, None):
        if viewer is None:
            browser.select("#replay-viewer", "public")
        views = engine_views(web_server.url, match, viewer)
        assert plies == len(views) - 1 > 20
        # The cards drawn are the match's own card set (from the server, not the bundle).
        browser.wait(
            lambda: browser.find(".axia-board").get_attribute("data-card-set") == "standard",
            what="the match's card set",
        )
        hands = beasts = 0
        for ply, view in enumerate(views):
            at, picture = browser.js(SET_PLY, ply)
            assert at == str(ply)
            expected = _axia_picture(view, cards, viewer)
            assert json.loads(picture) == expected, f"seen by {viewer}, ply {ply}"
            hands += bool(expected["hand"])
            beasts += any(expected["players"][0]["beasts"])
        assert (hands > 0) == (viewer is not None)  # a player's hidden cards show, only to them
        assert beasts > 0  # spaces are drawn with the beasts of the match's cards
    browser.screenshot(SCREENSHOTS / "axia-replay.png")
