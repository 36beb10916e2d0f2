"""Cage notation: action id <-> text.

Drop ``R3`` (a red cubie into column 3), twist ``T1+`` / ``T1-`` (layer 1, direction), flip ``F``.
The ids themselves are laid out in :mod:`.actions`.
"""

from __future__ import annotations

import re

from gameshelf.core.errors import InvalidMove

from .actions import DROP_ACTIONS, FLIP, NUM_ACTIONS, TWIST_BASE, drop_action, twist_action
from .geometry import COLOURS, RING, TWISTS

_MOVE_RE = re.compile(r"^(?:([WYROBG])([0-7])|T([0-2])([+-])|(F))$")


def action_to_text(action: object) -> str:
    """Notation of an action id (ids are the same in every state); :class:`InvalidMove` for
    a bool, a non-int or an id outside ``0..NUM_ACTIONS-1``."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise InvalidMove(f"{action!r} is not a Cage action id (an int)")
    if not 0 <= action < NUM_ACTIONS:
        raise InvalidMove(f"{action} is not a Cage action id (0..{NUM_ACTIONS - 1})")
    if action < DROP_ACTIONS:
        return f"{COLOURS[action // RING]}{action % RING}"
    if action == FLIP:
        return "F"
    layer, direction = TWISTS[action - TWIST_BASE]
    return f"T{layer}{'+' if direction == 1 else '-'}"


def text_to_action(text: object) -> int:
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
