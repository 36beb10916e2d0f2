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

from .actions import (
    C_FACEUP,
    C_ROLL,
    C_SLOT,
    NUM_ACTIONS,
    PHASE_MULLIGAN,
    PHASE_OVER,
    ROUNDS,
    TASK_NAMES,
)
from .board import CELL_SPACES, SPACES
from .scoring import DEFEATED

#: The most cards a hand may hold when its owner redraws (the redraw mask has 4 bits).
MAX_REDRAW_HAND = 4

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
    """Read a position string into ``state``, a fresh initial state of its game.

    Every field is checked against its type and range (card ids against the game's card set,
    seats, dice, spaces, effect codes), every card is where at most one place says, and a
    position in play must offer a move: a position that passes can be played on without
    failing later (:class:`InvalidPosition` names the first problem otherwise).
    """
    if not isinstance(text, str):
        raise InvalidPosition(f"an axia position must be text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InvalidPosition(f"an axia position must be JSON: {exc}") from None
    if not isinstance(data, dict) or set(data) != set(FIELDS):
        raise InvalidPosition(
            "an axia position must be an object with the fields " + ", ".join(FIELDS)
        )
    try:
        _load_fields(state, data)
        _check_cards(state)
    except ValueError as exc:
        raise InvalidPosition(f"malformed axia position: {exc}") from None
    _check_playable(state)


def _int(value: Any, name: str, low: int, high: int) -> int:
    """``value`` as an integer in ``low..high`` (JSON true/false and 1.0 are not integers)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, not {json.dumps(value)[:40]}")
    if not low <= value <= high:
        raise ValueError(f"{name} {value} is outside {low}..{high}")
    return value


def _ints(value: Any, name: str, low: int, high: int, size: int | None = None) -> list[int]:
    """A list of integers in ``low..high`` (of length ``size``, when given)."""
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list")
    if size is not None and len(value) != size:
        raise ValueError(f"{name} must have {size} entries, not {len(value)}")
    return [_int(v, f"{name}[{i}]", low, high) for i, v in enumerate(value)]


def _rows(value: Any, name: str, n: int, low: int, high: int, size: int | None) -> list[list[int]]:
    """One list of integers per player."""
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"{name} must hold one list per player ({n})")
    return [_ints(row, f"{name}[{p}]", low, high, size) for p, row in enumerate(value)]


def _load_fields(state: AxiaState, data: dict[str, Any]) -> None:
    g = state.game
    n = g.n
    territory, scoring, items = len(g.cards.territory), len(g.cards.scoring), len(g.cards.items)
    state.phase = _int(data["phase"], "phase", 0, PHASE_OVER)
    state.round = _int(data["round"], "round", 0, ROUNDS)
    state.start = _int(data["start"], "start", 0, n - 1)
    over = state.phase == PHASE_OVER
    state.cur = _int(data["cur"], "cur", TERMINAL if over else 0, TERMINAL if over else n - 1)
    state.count = _int(data["count"], "count", 0, 16)
    state.batch = _int(data["batch"], "batch", 0, 6)
    state.turn = _int(data["turn"], "turn", 0, len(g.order))  # len: every turn of the round taken
    for name in ("took", "hit_done", "item_done", "boost"):
        if not isinstance(data[name], bool):
            raise ValueError(f"{name} must be true or false")
        setattr(state, name, data[name])
    chance_slots = {C_ROLL: g.num_dice, C_SLOT: 6, C_FACEUP: g.faceup_size}
    chance = []
    for i, entry in enumerate(_pairs(data["chance"], "chance", 3)):
        kind = _int(entry[0], f"chance[{i}] kind", 0, C_ROLL)
        player = _int(entry[1], f"chance[{i}] player", 0, n - 1)
        slot = _int(entry[2], f"chance[{i}] slot", 0, chance_slots.get(kind, 1) - 1)
        chance.append((kind, player, slot))
    state.chance = chance
    stack = []
    for i, entry in enumerate(_pairs(data["stack"], "stack", 2)):
        task = _int(entry[0], f"stack[{i}] task", 0, len(TASK_NAMES) - 1)
        stack.append((task, _int(entry[1], f"stack[{i}] parameter", 0, SPACES - 1)))
    state.stack = stack
    state.grid = _rows(data["grid"], "grid", n, -1, territory - 1, 9)
    state.marks = _rows(data["marks"], "marks", n, 0, DEFEATED, SPACES)
    state.slots = _rows(data["slots"], "slots", n, -1, scoring - 1, 6)
    state.hands = _rows(data["hands"], "hands", n, 0, territory - 1, None)
    state.items = _rows(data["items"], "items", n, 0, items - 1, None)
    state.offers = _rows(data["offers"], "offers", n, 0, scoring - 1, None)
    state.pending = _ints(data["pending"], "pending", -1, territory * 9 - 1, n)
    state.tdeck = _ints(data["tdeck"], "tdeck", 0, territory - 1)
    state.tdisc = _ints(data["tdisc"], "tdisc", 0, territory - 1)
    state.ideck = _ints(data["ideck"], "ideck", 0, items - 1)
    state.sdeck = _ints(data["sdeck"], "sdeck", 0, scoring - 1)
    state.faceup = _ints(data["faceup"], "faceup", -1, territory - 1, g.faceup_size)
    state.dice = _ints(data["dice"], "dice", 0, 6, g.num_dice)
    state.used = _ints(data["used"], "used", -1, n - 1, g.num_dice)
    state.hist = _ints(data["hist"], "hist", 0, NUM_ACTIONS - 1)
    if state.phase == PHASE_MULLIGAN and len(state.hands[state.cur]) > MAX_REDRAW_HAND:
        raise ValueError(f"a hand to redraw from holds at most {MAX_REDRAW_HAND} cards")
    for p in range(n):
        for cell in range(9):
            card = state.grid[p][cell]
            for local, space in enumerate(CELL_SPACES[cell]):
                state.spc[p][space] = -1 if card < 0 else card * 4 + local
                if card < 0 and state.marks[p][space]:
                    raise ValueError(f"player {p} has a mark on an empty space")


def _pairs(value: Any, name: str, size: int) -> list[list[Any]]:
    """A list of ``size``-long lists (the chance queue, the effect stack)."""
    if not isinstance(value, list) or not all(
        isinstance(entry, list) and len(entry) == size for entry in value
    ):
        raise ValueError(f"{name} must be a list of {size}-entry lists")
    return value


def _check_cards(state: AxiaState) -> None:
    """Every Territory card is in exactly one place; Scoring and Item cards in at most one
    (those discarded from the setup or played leave the game)."""
    places: dict[str, list[int]] = {
        "grids": [c for row in state.grid for c in row if c >= 0],
        "hands": [c for row in state.hands for c in row],
        "placements": [code // 9 for code in state.pending if code >= 0],
        "face-up row": [c for c in state.faceup if c >= 0],
        "territory deck": state.tdeck,
        "territory discard pile": state.tdisc,
    }
    _once(places, "Territory", len(state.game.cards.territory), exactly=True)
    scoring = {
        "slots": [c for row in state.slots for c in row if c >= 0],
        "offers": [c for row in state.offers for c in row],
        "scoring deck": state.sdeck,
    }
    _once(scoring, "Scoring", len(state.game.cards.scoring), exactly=False)
    items = {"item hands": [c for row in state.items for c in row], "item deck": state.ideck}
    _once(items, "Item", len(state.game.cards.items), exactly=False)


def _once(places: dict[str, list[int]], kind: str, total: int, exactly: bool) -> None:
    seen: dict[int, str] = {}
    for where, cards in places.items():
        for card in cards:
            if card in seen:
                raise ValueError(f"{kind} card #{card} is both in the {seen[card]} and the {where}")
            seen[card] = where
    if exactly and len(seen) != total:
        missing = min(set(range(total)) - set(seen))
        raise ValueError(f"{kind} card #{missing} is nowhere (in no grid, hand, row or pile)")


def _check_playable(state: AxiaState) -> None:
    """A position in play offers a move or a chance outcome."""
    if state.phase == PHASE_OVER:
        return
    try:
        moves = state.legal_actions()  # at a chance node: the cards left to draw
    except (IndexError, KeyError, ValueError) as exc:
        raise InvalidPosition(f"inconsistent axia position: {exc}") from None
    if not moves:
        raise InvalidPosition(
            "inconsistent axia position: the game is not over but nobody can move"
        )
