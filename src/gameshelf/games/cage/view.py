"""The Cage's structured view: the whole position (nothing is hidden), shaped for clients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from .actions import TURNS, TWIST_BASE
from .board import winning_lines
from .details import CageMove, describe, every_turn
from .geometry import COLOURS, RING
from .notation import action_to_text

if TYPE_CHECKING:
    from .rules import CageState


class CageView(TypedDict):
    """What every seat and spectator sees of a Cage position."""

    game: str
    position: str
    players: int
    colours: list[list[str]]
    """Each seat's colour letters."""
    columns: list[list[str]]
    """Each column's colour letters, bottom to top."""
    left: dict[str, int]
    """Cubies left in the stock, by colour letter."""
    to_move: int
    ply: int
    last_move: str | None
    last: CageMove | None
    """The last move as a structure (what a table animates)."""
    turns: list[CageMove]
    """Every twist and the flip, legal now or not (a table's controls)."""
    forbidden: list[str]
    """Notation of the twists and flip that would reverse the last move (forbidden now)."""
    winning_cells: list[list[int]]
    """``[column, layer]`` of every cubie in a winning line."""
    returns: list[float] | None


def make_view(state: CageState) -> dict[str, Any]:
    """The view of ``state`` for every seat and for spectators alike, as the protocol's JSON
    object (:func:`typed_view` gives the same data typed)."""
    return dict(typed_view(state))


def typed_view(state: CageState) -> CageView:
    """The view of ``state`` as a :class:`CageView`."""
    config = state.game.config
    columns = [
        [COLOURS[state.board[RING * z + r] - 1] for z in range(state.heights[r])]
        for r in range(RING)
    ]
    forbidden = []
    if state.outcome is None and state.last >= TWIST_BASE and config.no_reverse != "off":
        forbidden = [action_to_text(a) for a in sorted(state.forbidden_moves(list(TURNS)))]
    return {
        "game": state.game.game_string,
        "position": state.position(),
        "players": config.players,
        "colours": [[COLOURS[c] for c in owned] for owned in config.colours],
        "columns": columns,
        "left": {COLOURS[c]: state.left[c] for c in config.colours_in_play},
        "to_move": state.current_player(),
        "ply": state.ply,
        "last_move": action_to_text(state.last) if state.last >= 0 else None,
        "last": describe(state.last) if state.last >= 0 else None,
        "turns": every_turn(),
        "forbidden": forbidden,
        "winning_cells": sorted(
            [i % RING, i // RING] for line in winning_lines(state.board) for i in line
        ),
        "returns": state.outcome,
    }
