"""Cage notation and action ids.

Drop ``R3`` (a red cubie into column 3), twist ``T1+`` / ``T1-`` (layer 1, direction), flip ``F``.
Action ids: drop of colour ``c`` into column ``col`` is ``8*c + col`` (0..47); twist ``(z, d)``
is ``48 + 2*z + (0 if d == +1 else 1)`` (48..53); flip is 54.
"""

from __future__ import annotations

import re

from gameshelf.core.errors import InvalidMove

from .geometry import COLOURS, RING, TWISTS

DROP_ACTIONS = len(COLOURS) * RING
TWIST_BASE = DROP_ACTIONS
FLIP = TWIST_BASE + len(TWISTS)
NUM_ACTIONS = FLIP + 1

_MOVE_RE = re.compile(r"^(?:([WYROBG])([0-7])|T([0-2])([+-])|(F))$")


def drop_action(colour: int, column: int) -> int:
    """Action id of dropping ``colour`` into ``column``."""
    return RING * colour + column


def twist_action(layer: int, direction: int) -> int:
    """Action id of a quarter turn of ``layer`` in ``direction`` (+1 or -1)."""
    return TWIST_BASE + 2 * layer + (0 if direction == 1 else 1)


def inverse_action(action: int) -> int:
    """The move that syntactically reverses ``action`` (``-1`` for a drop: nothing)."""
    if action < TWIST_BASE:
        return -1
    if action == FLIP:
        return FLIP
    return action ^ 1  # TWIST_BASE is even: (z, +) and (z, -) differ in the lowest bit


def action_to_text(action: int) -> str:
    """Notation of an action id."""
    if not 0 <= action < NUM_ACTIONS:
        raise InvalidMove(f"{action} is not a Cage action id (0..{NUM_ACTIONS - 1})")
    if action < DROP_ACTIONS:
        return f"{COLOURS[action // RING]}{action % RING}"
    if action == FLIP:
        return "F"
    layer, direction = TWISTS[action - TWIST_BASE]
    return f"T{layer}{'+' if direction == 1 else '-'}"


def text_to_action(text: str) -> int:
    """Action id of notation ``text`` (case-insensitive, surrounding spaces ignored)."""
    if not isinstance(text, str):
        raise InvalidMove(f"a move must be text, not {type(text).__name__}")
    match = _MOVE_RE.match(text.strip().upper())
    if match is None:
        raise InvalidMove(
            f"{text!r} is not Cage notation: expected a drop such as R3 (colour W Y R O B G, "
            "column 0-7), a twist such as T1+ or T1- (layer 0-2), or F for a flip"
        )
    colour, column, layer, sign, _flip = match.groups()
    if colour is not None:
        return drop_action(COLOURS.index(colour), int(column))
    if layer is not None:
        return twist_action(int(layer), 1 if sign == "+" else -1)
    return FLIP
