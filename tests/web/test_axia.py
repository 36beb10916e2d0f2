"""AXIA in the browser: every choice made by clicking the table (dice, spaces, cards, slots)."""

from __future__ import annotations

from .browser import Browser
from .conftest import SCREENSHOTS, BrowserFactory, WebServer
from .helpers import api, click_move_button, create_match, play_to_end

SENT = """
const box = document.getElementById('legal-moves');
return box.getAttribute('data-ready') !== 'true'
  || box.getAttribute('data-version') !== arguments[0];
"""
VERSION = "return document.getElementById('legal-moves').getAttribute('data-version')"


def axia_through_table(browser: Browser, moves: list[str], turn: int) -> None:
    """Click the table's things named in a move (die, space, card, cell, slot) in order."""
    move = moves[(turn * 5) % len(moves)]
    # A territory cell is named "@B2" on the table, apart from the column slot "C1" of "S07>C1".
    words = move.replace(">", " ").replace("@", " @").replace("+", " ").replace(",", " ").split()
    things = [w for w in words if w not in {"hit", "defeat", "zorak", "item"}]
    if move.startswith("take "):
        things = [move]
    version = browser.js(VERSION)
    clicked = False
    for thing in things:
        found = browser.finds(f'.axia-board .live[data-tokens="{thing}"]')
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
