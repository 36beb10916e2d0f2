"""A game with no board of its own (a plug-in) is played in the browser on the generic board:
its structured legal moves as buttons with their parts, its view as a tree."""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from gameshelf.core import registry
from gameshelf.core.game import State

from .browser import Browser
from .conftest import BrowserFactory, WebServer
from .helpers import api, create_match, play_to_end

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "plugin-tictactoe" / "src"


def marks(state: State) -> list[dict[str, Any]]:
    """The plug-in's moves with one part each (the notation says which cell is marked)."""
    return [{"move": m.text, "kind": "mark", "cell": m.action} for m in state.legal_moves()]


@pytest.fixture
def tictactoe(monkeypatch: pytest.MonkeyPatch) -> registry.GameEntry:
    """The example plug-in, registered for this test only, describing its moves' parts."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    entry: registry.GameEntry = importlib.import_module("gameshelf_tictactoe").ENTRY
    described = dataclasses.replace(entry, move_details=marks)
    registry.available_games()  # discover the installed games first: this one is added to them
    monkeypatch.setitem(registry._REGISTRY, described.name, described)
    return described


def click_first_on_the_generic_board(browser: Browser, moves: list[str], turn: int) -> None:
    browser.click(f'.generic-board button.generic-move[data-move="{moves[turn % len(moves)]}"]')


def test_a_plug_in_game_plays_on_the_generic_board(
    web_server: WebServer, browser_factory: BrowserFactory, tictactoe: registry.GameEntry
) -> None:
    browser = browser_factory()
    match = create_match(browser, web_server.url, tictactoe.name, ["you", "bot:random"])
    board = browser.find(".generic-board")
    browser.wait(lambda: browser.finds(".generic-board button.generic-move"), what="the moves")
    # each move shows its parts, as the game described them
    first = browser.find(".generic-board .generic-choice")
    assert "kind: mark" in first.text and "cell: " in first.text
    # the view as a readable tree: one entry per key of the engine's view
    drawn = json.loads(str(board.get_attribute("data-drawn")))
    keys = [e.get_attribute("data-key") for e in browser.finds("#generic-view > ul > li")]
    assert keys == list(drawn) and "position" in keys
    turns = play_to_end(browser, click_first_on_the_generic_board, max_turns=9)
    assert turns >= 3  # X moves at least three times before anyone can have three in a row
    summary = api(web_server.url, f"/api/matches/{match}")
    assert summary["status"] == "finished"
    record = api(web_server.url, f"/api/matches/{match}/record")
    assert len(record["moves"]) >= 5
