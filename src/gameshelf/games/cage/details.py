"""The Cage's moves as structures: what a table chooses a move by, next to its notation.

A drop names its colour letter and column, a twist its layer and direction, the flip nothing
more. An action id means the same move in every state, so :func:`describe` needs no state.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from gameshelf.core.game import State

from .actions import DROP_ACTIONS, FLIP, TURNS, TWIST_BASE
from .geometry import COLOURS, RING, TWISTS
from .notation import action_to_text


class CageDrop(TypedDict):
    """Drop a cubie of ``colour`` (a letter of ``WYROBG``) into ``column`` (0-7)."""

    move: str
    kind: Literal["drop"]
    colour: str
    column: int


class CageTwist(TypedDict):
    """Turn ``layer`` (0 bottom .. 2 top) a quarter: ``+`` counter-clockwise seen from above."""

    move: str
    kind: Literal["twist"]
    layer: int
    direction: Literal["+", "-"]


class CageFlip(TypedDict):
    """Turn the whole cage upside down."""

    move: str
    kind: Literal["flip"]


CageMove = CageDrop | CageTwist | CageFlip
"""One move, told apart by ``kind``."""


def describe(action: int) -> CageMove:
    """The structure of action id ``action`` (the same in every state)."""
    text = action_to_text(action)
    if action < DROP_ACTIONS:
        colour, column = divmod(action, RING)
        return {"move": text, "kind": "drop", "colour": COLOURS[colour], "column": column}
    if action == FLIP:
        return {"move": text, "kind": "flip"}
    layer, direction = TWISTS[action - TWIST_BASE]
    return {
        "move": text,
        "kind": "twist",
        "layer": layer,
        "direction": "+" if direction == 1 else "-",
    }


def every_turn() -> list[CageMove]:
    """Every twist and the flip, legal or not (a table shows them all, the illegal ones off)."""
    return [describe(action) for action in TURNS]


def legal_move_details(state: State) -> list[CageMove]:
    """Every legal move of ``state`` as a structure, in the order of ``legal_actions()``."""
    return [describe(action) for action in state.legal_actions()]
