"""Helpers for AXIA scenario tests: hand-built positions in the hit step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gameshelf.core import load
from gameshelf.games.axia.actions import PHASE_TURN, parse_space
from gameshelf.games.axia.cards import REGIONS
from gameshelf.games.axia.rules import AxiaState

_ANY: Any = object()
#: Beasts without an immediate effect (safe targets for die hits; Rakya hits a beast).
QUIET = (
    "ariak",
    "ryde",
    "corvo",
    "king_forest",
    "king_desert",
    "king_mountain",
    "king_lake",
)


def make_turn_state(players: int = 1, dice: tuple[int, ...] = (), options: str = "") -> AxiaState:
    """A state in round 1's hit step, player 0 to move, empty territories, dice as given."""
    extra = f",{options}" if options else ""
    game = load(f"axia(players={players}{extra})")
    state = game.new_initial_state()
    assert isinstance(state, AxiaState)
    state.chance_queue = []
    state.phase = PHASE_TURN
    state.round = 1
    state.turn = 0
    state.current_seat = 0
    state.scoring_offers = [[] for _ in range(players)]
    state.hands = [[] for _ in range(players)]
    values = list(dice) + [1] * (game.num_dice - len(dice))
    state.dice = values[: game.num_dice]
    state.dice_taken_by = [-1] * game.num_dice
    return state


def put(
    state: AxiaState,
    space: str,
    beast: str | tuple[str, ...] | None = None,
    magic: bool | None = None,
    critical: Any = _ANY,
    region: str | None = None,
    player: int = 0,
    mark: int = 0,
) -> int:
    """Place a space with the wanted attributes (any card space of the data that has them).

    ``critical="miss"`` asks for a printed number that none of the state's dice shows.
    """
    t = state.game.tables
    used = set(state.card_spaces[player])
    for g in range(len(t.beast)):
        if g in used:
            continue
        if isinstance(beast, str) and t.beast[g] != beast:
            continue
        if isinstance(beast, tuple) and t.beast[g] not in beast:
            continue
        if magic is not None and t.magic[g] != magic:
            continue
        if critical == "miss":
            if not t.critical[g] or t.critical[g] in state.dice:
                continue
        elif critical is not _ANY and (t.critical[g] or None) != critical:
            continue
        if region is not None and REGIONS[t.region[g]] != region:
            continue
        s = parse_space(space)
        assert s is not None
        state.card_spaces[player][s] = g
        state.marks[player][s] = mark
        return g
    raise LookupError(f"no space with beast={beast} magic={magic} critical={critical} {region}")


@pytest.fixture
def turn_state() -> Callable[..., AxiaState]:
    """Factory of hit-step states (see :func:`make_turn_state`)."""
    return make_turn_state


@pytest.fixture
def place() -> Callable[..., int]:
    """The :func:`put` helper."""
    return put
