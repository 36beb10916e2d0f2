"""AXIA position strings: the full state, hidden parts included, as compact JSON.

A position names every field of the state (``FIELDS``); reading one back checks its shape and
ranges and raises :class:`InvalidPosition` naming the problem. The state module creates the
state that :func:`load_position` fills, so this module needs it only for type checking.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from gameshelf.core.errors import InvalidPosition
from gameshelf.core.game import TERMINAL

from .actions import PHASE_OVER, ROUNDS
from .board import CELL_SPACES

if TYPE_CHECKING:
    from .rules import AxiaState

FIELDS: tuple[str, ...] = (
    *("phase", "round", "start", "cur", "count", "batch", "chance", "grid", "marks"),
    *("hands", "items", "slots", "offers", "pending", "tdeck", "tdisc", "ideck", "sdeck"),
    *("faceup", "dice", "used", "took", "turn", "hit_done", "item_done", "boost", "stack"),
    "hist",
)
"""The state's fields, in the order a position lists them."""


def format_position(state: AxiaState) -> str:
    """The position string of ``state``."""
    data = {name: getattr(state, name) for name in FIELDS}
    return json.dumps(data, separators=(",", ":"))


def load_position(state: AxiaState, text: str) -> None:
    """Read a position string into ``state``, a fresh initial state of its game."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise InvalidPosition(f"an axia position must be JSON: {exc}") from None
    if not isinstance(data, dict) or set(data) != set(FIELDS):
        raise InvalidPosition(
            "an axia position must be an object with the fields " + ", ".join(FIELDS)
        )
    try:
        _load_fields(state, data)
    except (TypeError, ValueError, IndexError) as exc:
        raise InvalidPosition(f"malformed axia position: {exc}") from None


def _load_fields(state: AxiaState, data: dict[str, Any]) -> None:
    g = state.game
    n = g.n
    for name in ("phase", "round", "start", "cur", "count", "batch", "turn"):
        value = data[name]
        if not isinstance(value, int):
            raise ValueError(f"{name} must be an integer")
        setattr(state, name, value)
    if not 0 <= state.phase <= PHASE_OVER or not 0 <= state.round <= ROUNDS:
        raise ValueError("phase or round out of range")
    for name in ("took", "hit_done", "item_done", "boost"):
        setattr(state, name, bool(data[name]))
    state.chance = [(int(k), int(p), int(s)) for k, p, s in data["chance"]]
    state.stack = [(int(t), int(p)) for t, p in data["stack"]]
    for name, size in (("grid", 9), ("marks", 36), ("slots", 6)):
        rows = [[int(v) for v in row] for row in data[name]]
        if len(rows) != n or any(len(r) != size for r in rows):
            raise ValueError(f"{name} has the wrong shape")
        setattr(state, name, rows)
    for name in ("hands", "items", "offers"):
        rows = [[int(v) for v in row] for row in data[name]]
        if len(rows) != n:
            raise ValueError(f"{name} has the wrong shape")
        setattr(state, name, rows)
    for name in ("pending", "tdeck", "tdisc", "ideck", "sdeck", "faceup", "dice", "used", "hist"):
        setattr(state, name, [int(v) for v in data[name]])
    if len(state.dice) != g.num_dice or len(state.used) != g.num_dice or len(state.pending) != n:
        raise ValueError("dice or pending have the wrong length")
    for p in range(n):
        for cell in range(9):
            card = state.grid[p][cell]
            if not -1 <= card < len(g.cards.territory):
                raise ValueError(f"grid card {card} out of range")
            for local, space in enumerate(CELL_SPACES[cell]):
                state.spc[p][space] = -1 if card < 0 else card * 4 + local
    if state.phase == PHASE_OVER:
        state.cur = TERMINAL
