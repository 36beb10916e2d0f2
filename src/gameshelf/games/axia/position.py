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
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_SCORE_PICK,
    PHASE_TURN,
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


def load_position(state: AxiaState, text: object) -> None:
    """Read a position string into ``state``, a fresh initial state of its game.

    Every field is checked against its type and range (card ids against the game's card set,
    seats, dice, spaces, effect codes), the progress counters (``round``, ``start``, ``cur``,
    ``count``, ``batch``, ``turn``) and the commitments must be the ones the engine holds in
    that phase (:func:`_check_progress`), every card is where at most one place says, and a
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
        _check_progress(state)
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
    if state.boost and not state.item_done:
        # the boost is an item's effect: only playing that item this turn turns it on
        raise ValueError("boost is true but item_done is false: the boost comes from an item")
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


def _check_progress(state: AxiaState) -> None:
    """The counters agree with the phase, with each other and with the cards laid so far.

    What the rules module does with them, phase by phase (``n`` players, ``L`` turns a round,
    ``picks`` and ``batches`` of the scoring setup, ``done`` = ``batches``, or 0 in a first
    game, whose scoring cards are dealt at random and never picked):

    - scoring setup (never in a first game): round 0, start 0, turn 0, batch below ``batches``,
      ``count`` = picks left to the seat ``cur`` (1..picks); every seat before ``cur`` has
      filled ``(batch + 1) * picks`` slots, ``cur`` ``batch * picks + picks - count``, the
      seats after it ``batch * picks``;
    - explore-regions redraw (only with that variant): round 0, start 0, turn 0, count 0,
      batch ``done``;
    - place (round 0..8) and refill (round 1..8): ``count`` seats done (0..n-1) and ``cur``
      = ``(start + count) % n``; in the place step exactly those ``count`` seats have a
      placement pending; turn 0 up to round 1, then ``L`` (left by the last hit step);
    - hit (round 1..8): count ``n``, turn 0..L-1 and ``cur`` = ``(start + order[turn]) % n``;
      each seat has taken (``used``) one die for each of its turns before ``turn``, ``cur``
      one more once ``hit_done``; no die is taken outside the hit step;
    - over: round 8, count ``n``, turn ``L``;
    - everywhere ``start`` = ``(round - 1) % n`` (0 in round 0; ``8 % n`` once over), batch
      ``done`` after the setup, no placement pending outside the place step, and every grid
      holds ``round`` cards (one more from the refill step on, all 9 once over).
    """
    g = state.game
    n = g.n
    phase, rnd, count, turn = state.phase, state.round, state.count, state.turn
    _, picks, batches = state._score_params()  # the rules' own numbers for the options
    done = 0 if g.first_game else batches
    setup = phase in (PHASE_SCORE_PICK, PHASE_MULLIGAN)
    where = f"in the {PHASE_NAMES[phase]} step"
    if phase == PHASE_SCORE_PICK and g.first_game:
        raise ValueError("phase 0 (the scoring-setup step) never happens in a first game")
    if phase == PHASE_MULLIGAN and not g.explore:
        raise ValueError("phase 1 (the explore-regions step) happens only with explore_regions")
    if setup:
        low, high = 0, 0
    elif phase == PHASE_PLACE:
        low, high = 0, ROUNDS
    elif phase == PHASE_OVER:
        low, high = ROUNDS, ROUNDS
    else:
        low, high = 1, ROUNDS
    if not low <= rnd <= high:
        raise ValueError(f"round {rnd} {where} must be in {low}..{high}")
    start = ROUNDS % n if phase == PHASE_OVER else max(rnd - 1, 0) % n
    if state.start != start:
        raise ValueError(f"start {state.start} {where}, round {rnd} must be {start}")
    if phase == PHASE_SCORE_PICK:
        if state.batch >= batches:
            raise ValueError(f"batch {state.batch} {where} must be below {batches}")
    elif state.batch != done:
        raise ValueError(f"batch {state.batch} {where} must be {done}")
    if phase == PHASE_SCORE_PICK:
        counts: tuple[int, int] = (1, picks)
    elif phase in (PHASE_PLACE, PHASE_REFILL):
        counts = (0, n - 1)
    elif phase in (PHASE_TURN, PHASE_OVER):
        counts = (n, n)
    else:
        counts = (0, 0)
    if not counts[0] <= count <= counts[1]:
        raise ValueError(f"count {count} {where} must be in {counts[0]}..{counts[1]}")
    laps = len(g.order)
    if setup or (phase in (PHASE_PLACE, PHASE_REFILL) and rnd <= 1):
        turns = (0, 0)
    elif phase == PHASE_TURN:
        turns = (0, laps - 1)
    else:
        turns = (laps, laps)
    if not turns[0] <= turn <= turns[1]:
        raise ValueError(f"turn {turn} {where}, round {rnd} must be in {turns[0]}..{turns[1]}")
    if phase in (PHASE_PLACE, PHASE_REFILL):
        cur = (start + count) % n
    elif phase == PHASE_TURN:
        cur = (start + g.order[turn]) % n
    else:
        cur = state.cur  # the setup's seat (checked against the slots) or TERMINAL
    if state.cur != cur:
        raise ValueError(
            f"cur {state.cur} {where} must be {cur} (start {start}, count {count}, turn {turn})"
        )
    taken = [0] * n  # the dice each seat has taken this round: one a turn, so far
    if phase == PHASE_TURN:
        for i in range(turn):
            taken[(start + g.order[i]) % n] += 1
        if state.hit_done:
            taken[cur] += 1
    for p in range(n):
        dice = sum(seat == p for seat in state.used)
        if dice != taken[p]:
            raise ValueError(
                f"used: player {p} has taken {dice} dice, not {taken[p]}, {where} at turn {turn}"
            )
        committed = phase == PHASE_PLACE and (p - start) % n < count
        if (state.pending[p] >= 0) != committed:
            state_of = "a placement pending" if state.pending[p] >= 0 else "no placement pending"
            raise ValueError(f"pending: player {p} has {state_of} {where} with count {count}")
        laid = sum(card >= 0 for card in state.grid[p])
        cards = 9 if phase == PHASE_OVER else rnd + (phase in (PHASE_REFILL, PHASE_TURN))
        if laid != cards:
            raise ValueError(f"grid: player {p} has {laid} cards, not {cards}, in round {rnd}")
        if phase == PHASE_SCORE_PICK:
            filled = sum(card >= 0 for card in state.slots[p])
            left = picks if p < state.cur else picks - count if p == state.cur else 0
            want = state.batch * picks + left
            if filled != want:
                raise ValueError(
                    f"slots: player {p} has filled {filled}, not {want} (batch {state.batch}, "
                    f"cur {state.cur}, count {count})"
                )


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
