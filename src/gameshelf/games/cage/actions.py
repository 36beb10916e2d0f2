"""The Cage's action-id layout and the tables the move generator reads by id.

Drop of colour ``c`` into column ``col`` is ``8*c + col`` (0..47); twist ``(z, d)`` is
``48 + 2*z + (0 if d == +1 else 1)`` (48..53); the flip is 54. The text form of an id lives in
:mod:`.notation`.
"""

from __future__ import annotations

from .board import Board, flipped, twisted
from .geometry import COLOURS, RING, TWISTS

DROP_ACTIONS = len(COLOURS) * RING
TWIST_BASE = DROP_ACTIONS
FLIP = TWIST_BASE + len(TWISTS)
NUM_ACTIONS = FLIP + 1
NO_MOVE = -1
"""``last`` before any move has been played."""

TURNS: tuple[int, ...] = (*range(TWIST_BASE, FLIP), FLIP)
"""The six twists and the flip, in id order."""


def drop_action(colour: int, column: int) -> int:
    """Action id of dropping ``colour`` into ``column``."""
    return RING * colour + column


def twist_action(layer: int, direction: int) -> int:
    """Action id of a quarter turn of ``layer`` in ``direction`` (+1 or -1)."""
    return TWIST_BASE + 2 * layer + (0 if direction == 1 else 1)


def inverse_action(action: int) -> int:
    """The move that syntactically reverses ``action`` (``-1`` for a drop: nothing)."""
    if action < TWIST_BASE:
        return NO_MOVE
    if action == FLIP:
        return FLIP
    return action ^ 1  # TWIST_BASE is even: (z, +) and (z, -) differ in the lowest bit


INVERSE: tuple[int, ...] = tuple(inverse_action(a) for a in range(NUM_ACTIONS))
"""``inverse_action`` of every action id, looked up."""

DROPS_BY_MASK: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(RING * colour + r for r in range(RING) if mask >> r & 1) for mask in range(256))
    for colour in range(len(COLOURS))
)
"""Drop actions of each colour for each set of open columns (bit r = column r open)."""


def result_of(board: Board, heights: list[int], action: int) -> Board:
    """The settled board that the twist or flip ``action`` would produce (no state change)."""
    if action == FLIP:
        return flipped(board, heights)[0]
    return twisted(board, action - TWIST_BASE)[0]
