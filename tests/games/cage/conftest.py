"""Helpers for the Cage tests: build games and states from game strings and move lists."""

from __future__ import annotations

import pytest

import gameshelf
from gameshelf.games.cage.rules import CageState


def cage_state(game_string: str = "cage", moves: str = "") -> CageState:
    """A state of ``game_string`` after the space-separated ``moves`` (each checked)."""
    state = gameshelf.load(game_string).new_initial_state()
    assert isinstance(state, CageState)
    for move in moves.split():
        state.play(move)
    return state


def from_position(game_string: str, position: str) -> CageState:
    """A state read from a position string."""
    state = gameshelf.load(game_string).state_from_position(position)
    assert isinstance(state, CageState)
    return state


@pytest.fixture
def empty2() -> CageState:
    return cage_state("cage(players=2)")
