"""The Cage's structured view: the whole position (nothing is hidden), shaped for clients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import TURNS, TWIST_BASE
from .board import winning_lines
from .geometry import COLOURS, RING
from .notation import action_to_text

if TYPE_CHECKING:
    from .rules import CageState


def make_view(state: CageState) -> dict[str, Any]:
    """The view of ``state`` for every seat and for spectators alike.

    ``columns[r]`` lists colour letters bottom to top; ``winning_cells`` are ``[r, z]`` pairs.
    """
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
        "forbidden": forbidden,
        "winning_cells": sorted(
            [i % RING, i // RING] for line in winning_lines(state.board) for i in line
        ),
        "returns": state.outcome,
    }
