"""AXIA in the browser: every choice made by clicking the table (dice, spaces, cards, slots)."""

from __future__ import annotations

from typing import Any

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import api, click_move_button, create_match, offered, play_to_end

SENT = """
const box = document.getElementById('legal-moves');
return box.getAttribute('data-ready') !== 'true'
  || box.getAttribute('data-version') !== arguments[0];
"""
VERSION = "return document.getElementById('legal-moves').getAttribute('data-version')"


def parts(move: dict[str, Any]) -> list[str]:
    """The things on the table a structured move names, as the board marks them (data-part)."""
    found = [f"die:{move['die']}"] if "die" in move else []
    found += [
        f"space:{s}" for s in ([move["space"]] if "space" in move else move.get("spaces", []))
    ]
    found += [f"card:{c}" for c in ([move["card"]] if "card" in move else move.get("cards", []))]
    found += [f"{key}:{move[key]}" for key in ("cell", "slot", "item") if key in move]
    found += [f"take:{move['index']}"] if "index" in move else []
    return found + (["deck"] if move["kind"] == "deck" else [])


def axia_through_table(browser: Browser, moves: list[str], turn: int) -> None:
    """Click the table's things named in a move (die, space, card, cell, slot) in order: the
    move is one of the server's structures, and its parts say what to click."""
    legal = offered(browser)
    assert sorted(m["move"] for m in legal) == sorted(moves)  # the structures are the moves offered
    chosen = legal[(turn * 5) % len(legal)]
    move = chosen["move"]
    version = browser.js(VERSION)
    clicked = False
    for thing in parts(chosen):
        found = browser.finds(f'.axia-board .live[data-part="{thing}"]')
        if not found:
            break
        found[0].click()
        clicked = True
        if browser.js(SENT, version):
            return
    choice = browser.finds(f'#axia-choices button[data-move="{move}"]')
    if clicked and choice:
        choice[0].click()
    else:
        click_move_button(browser, move)


def test_axia_against_a_bot_to_the_result(
    web_server: WebServer, browser_factory: BrowserFactory
) -> None:
    browser = browser_factory(width=1280, height=1100)
    match = create_match(
        browser, web_server.url, "axia", ["you", "bot:random"], {"first_game": "true"}
    )
    browser.find(".axia-board .territory.mine")
    shot = {"taken": False}

    def choose(b: Browser, moves: list[str], turn: int) -> None:
        hitting = any(">" in m and m[0] in "PM" for m in moves)
        if not shot["taken"] and hitting and b.finds(".axia-board .die.used"):
            b.screenshot(SCREENSHOTS / "axia.png")
            shot["taken"] = True
        axia_through_table(b, moves, turn)

    turns = play_to_end(browser, choose, max_turns=600, timeout=90)
    assert turns > 8
    summary = api(web_server.url, f"/api/matches/{match}")
    assert summary["status"] == "finished"
    assert summary["result_text"].lower() in browser.text("#result-text").lower()
    browser.screenshot(SCREENSHOTS / "axia-result.png")
    browser.click("#close-over")
    assert browser.find("#score-sheet").text.count("Player") == 2


def test_axia_solo_to_the_rank(web_server: WebServer, browser_factory: BrowserFactory) -> None:
    browser = browser_factory()
    match = create_match(browser, web_server.url, "axia", ["you"], {"players": "1"})
    assert len(browser.finds("#seat-list li")) == 1
    # Scoring-card setup: the column slots C1–C3 are the targets, never the cells of that name.
    browser.wait(lambda: browser.finds('.territory.mine .slot.live[data-slot="C1"]'), what="setup")
    assert not browser.finds(".territory.mine .card-cell.live")
    # The grid is labelled as the notation names spaces; beasts have their full names.
    mine = ".territory.mine"
    assert browser.text(f"{mine} .axis.letters").split() == list("abcdef")
    assert browser.text(f"{mine} .axis.numbers").split() == [str(n) for n in range(1, 7)]
    assert "Legend" in browser.text("#axia-legend")
    assert "·" not in browser.text(".axia-board .face-up")
    turns = play_to_end(browser, axia_through_table, max_turns=400, timeout=90)
    assert turns > 8
    browser.click("#close-over")
    assert "Solo rank" in browser.find(".axia-board .rank").text
    # After the game the Moves panel lists the moves (from the record), also after a reload.
    plies = len(api(web_server.url, f"/api/matches/{match}/record")["moves"])
    for reload in (False, True):
        if reload:
            browser.driver.refresh()
        browser.wait(
            lambda: len(browser.finds("#move-list li[data-ply]")) == plies, what="the moves"
        )
        assert "hidden information" not in browser.text("#move-list")
