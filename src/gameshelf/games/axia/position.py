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
)
from .board import CELL_SPACES, SPACES
from .effects import EFFECT_NAMES
from .scoring import DEFEATED
from .setup_phase import scoring_plan

#: The most cards a hand may hold when its owner redraws (the redraw mask has 4 bits).
MAX_REDRAW_HAND = 4

if TYPE_CHECKING:
    from .rules import AxiaState

KEYS: dict[str, str] = {
    "phase": "phase", "round": "round", "start": "starting_seat", "cur": "current_seat",
    "count": "",  # picks_left in the scoring setup, seats_done elsewhere: see _count
    "batch": "scoring_batch", "chance": "chance_queue", "grid": "grid", "marks": "marks",
    "hands": "hands", "items": "items", "slots": "scoring_slots", "offers": "scoring_offers",
    "pending": "placements", "tdeck": "territory_deck", "tdisc": "territory_discard",
    "ideck": "item_deck", "sdeck": "scoring_deck", "faceup": "face_up", "dice": "dice",
    "used": "dice_taken_by", "took": "took_face_up", "turn": "turn", "hit_done": "die_taken",
    "item_done": "item_played", "boost": "physical_as_magic", "stack": "effect_stack",
    "hist": "actions_played",
}  # fmt: skip
"""Each key of a position (the public format: short names, in this order) and the state field
it holds."""
FIELDS: tuple[str, ...] = tuple(KEYS)
"""The keys of a position, in the order it lists them."""


def _count(state: AxiaState) -> int:
    """The position's ``count``: picks left in the scoring setup, seats done elsewhere."""
    return state.picks_left if state.phase == PHASE_SCORE_PICK else state.seats_done


def format_position(state: AxiaState) -> str:
    """The position string of ``state``."""
    data = {key: getattr(state, name) if name else _count(state) for key, name in KEYS.items()}
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
    n = g.players
    territory, scoring, items = len(g.cards.territory), len(g.cards.scoring), len(g.cards.items)
    state.phase = _int(data["phase"], "phase", 0, PHASE_OVER)
    state.round = _int(data["round"], "round", 0, ROUNDS)
    state.starting_seat = _int(data["start"], "start", 0, n - 1)
    over = state.phase == PHASE_OVER
    state.current_seat = _int(
        data["cur"], "cur", TERMINAL if over else 0, TERMINAL if over else n - 1
    )
    count = _int(data["count"], "count", 0, 16)
    if state.phase == PHASE_SCORE_PICK:
        state.picks_left = count
    else:
        state.seats_done = count
    state.scoring_batch = _int(data["batch"], "batch", 0, 6)
    state.turn = _int(
        data["turn"], "turn", 0, len(g.turn_order)
    )  # len: every turn of the round taken
    for key in ("took", "hit_done", "item_done", "boost"):
        if not isinstance(data[key], bool):
            raise ValueError(f"{key} must be true or false")
        setattr(state, KEYS[key], data[key])
    if state.physical_as_magic and not state.item_played:
        # the boost is an item's effect: only playing that item this turn turns it on
        raise ValueError("boost is true but item_done is false: the boost comes from an item")
    chance_slots = {C_ROLL: g.num_dice, C_SLOT: 6, C_FACEUP: g.face_up_size}
    chance = []
    for i, entry in enumerate(_pairs(data["chance"], "chance", 3)):
        kind = _int(entry[0], f"chance[{i}] kind", 0, C_ROLL)
        player = _int(entry[1], f"chance[{i}] player", 0, n - 1)
        slot = _int(entry[2], f"chance[{i}] slot", 0, chance_slots.get(kind, 1) - 1)
        chance.append((kind, player, slot))
    state.chance_queue = chance
    stack = []
    for i, entry in enumerate(_pairs(data["stack"], "stack", 2)):
        task = _int(entry[0], f"stack[{i}] task", 0, len(EFFECT_NAMES) - 1)
        stack.append((task, _int(entry[1], f"stack[{i}] parameter", 0, SPACES - 1)))
    state.effect_stack = stack
    state.grid = _rows(data["grid"], "grid", n, -1, territory - 1, 9)
    state.marks = _rows(data["marks"], "marks", n, 0, DEFEATED, SPACES)
    state.scoring_slots = _rows(data["slots"], "slots", n, -1, scoring - 1, 6)
    state.hands = _rows(data["hands"], "hands", n, 0, territory - 1, None)
    state.items = _rows(data["items"], "items", n, 0, items - 1, None)
    state.scoring_offers = _rows(data["offers"], "offers", n, 0, scoring - 1, None)
    state.placements = _ints(data["pending"], "pending", -1, territory * 9 - 1, n)
    state.territory_deck = _ints(data["tdeck"], "tdeck", 0, territory - 1)
    state.territory_discard = _ints(data["tdisc"], "tdisc", 0, territory - 1)
    state.item_deck = _ints(data["ideck"], "ideck", 0, items - 1)
    state.scoring_deck = _ints(data["sdeck"], "sdeck", 0, scoring - 1)
    state.face_up = _ints(data["faceup"], "faceup", -1, territory - 1, g.face_up_size)
    state.dice = _ints(data["dice"], "dice", 0, 6, g.num_dice)
    state.dice_taken_by = _ints(data["used"], "used", -1, n - 1, g.num_dice)
    state.actions_played = _ints(data["hist"], "hist", 0, NUM_ACTIONS - 1)
    if state.phase == PHASE_MULLIGAN and len(state.hands[state.current_seat]) > MAX_REDRAW_HAND:
        raise ValueError(f"a hand to redraw from holds at most {MAX_REDRAW_HAND} cards")
    for p in range(n):
        for cell in range(9):
            card = state.grid[p][cell]
            for local, space in enumerate(CELL_SPACES[cell]):
                state.card_spaces[p][space] = -1 if card < 0 else card * 4 + local
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
    _check_phase_allowed(state)
    _check_round_and_start(state)
    _check_count_and_turn(state)
    _check_current_seat(state)
    for p in range(state.game.players):
        _check_seat(state, p)


def _where(state: AxiaState) -> str:
    return f"in the {PHASE_NAMES[state.phase]} step"


def _start_of(state: AxiaState) -> int:
    """The starting Slayer the round (and phase) imply."""
    n = state.game.players
    return ROUNDS % n if state.phase == PHASE_OVER else max(state.round - 1, 0) % n


def _check_phase_allowed(state: AxiaState) -> None:
    """The setup steps happen only under their options."""
    if state.phase == PHASE_SCORE_PICK and state.game.first_game:
        raise ValueError("phase 0 (the scoring-setup step) never happens in a first game")
    if state.phase == PHASE_MULLIGAN and not state.game.explore_regions:
        raise ValueError("phase 1 (the explore-regions step) happens only with explore_regions")


def _check_round_and_start(state: AxiaState) -> None:
    """The round fits the phase; the starting Slayer and the setup batch fit the round."""
    phase, rnd, where = state.phase, state.round, _where(state)
    if phase in (PHASE_SCORE_PICK, PHASE_MULLIGAN):
        low, high = 0, 0
    elif phase == PHASE_PLACE:
        low, high = 0, ROUNDS
    elif phase == PHASE_OVER:
        low, high = ROUNDS, ROUNDS
    else:
        low, high = 1, ROUNDS
    if not low <= rnd <= high:
        raise ValueError(f"round {rnd} {where} must be in {low}..{high}")
    start = _start_of(state)
    if state.starting_seat != start:
        raise ValueError(f"start {state.starting_seat} {where}, round {rnd} must be {start}")
    _, _, batches = scoring_plan(state)
    if phase == PHASE_SCORE_PICK:
        if state.scoring_batch >= batches:
            raise ValueError(f"batch {state.scoring_batch} {where} must be below {batches}")
        return
    done = 0 if state.game.first_game else batches
    if state.scoring_batch != done:
        raise ValueError(f"batch {state.scoring_batch} {where} must be {done}")


def _check_count_and_turn(state: AxiaState) -> None:
    """``count`` and ``turn`` are in the range the phase allows."""
    phase, count, turn, where = state.phase, _count(state), state.turn, _where(state)
    n = state.game.players
    if phase == PHASE_SCORE_PICK:
        counts: tuple[int, int] = (1, scoring_plan(state)[1])
    elif phase in (PHASE_PLACE, PHASE_REFILL):
        counts = (0, n - 1)
    elif phase in (PHASE_TURN, PHASE_OVER):
        counts = (n, n)
    else:
        counts = (0, 0)
    if not counts[0] <= count <= counts[1]:
        raise ValueError(f"count {count} {where} must be in {counts[0]}..{counts[1]}")
    laps = len(state.game.turn_order)
    setup = phase in (PHASE_SCORE_PICK, PHASE_MULLIGAN)
    if setup or (phase in (PHASE_PLACE, PHASE_REFILL) and state.round <= 1):
        turns = (0, 0)
    elif phase == PHASE_TURN:
        turns = (0, laps - 1)
    else:
        turns = (laps, laps)
    if not turns[0] <= turn <= turns[1]:
        raise ValueError(
            f"turn {turn} {where}, round {state.round} must be in {turns[0]}..{turns[1]}"
        )


def _expected_seat(state: AxiaState) -> int:
    """The seat to move that the counters imply (the setup's own seat, or TERMINAL)."""
    game, start = state.game, _start_of(state)
    if state.phase in (PHASE_PLACE, PHASE_REFILL):
        return (start + state.seats_done) % game.players
    if state.phase == PHASE_TURN:
        return (start + game.turn_order[state.turn]) % game.players
    return state.current_seat  # checked against the slots, or TERMINAL


def _check_current_seat(state: AxiaState) -> None:
    cur = _expected_seat(state)
    if state.current_seat != cur:
        raise ValueError(
            f"cur {state.current_seat} {_where(state)} must be {cur} (start {_start_of(state)}, "
            f"count {_count(state)}, turn {state.turn})"
        )


def _dice_taken(state: AxiaState, p: int) -> int:
    """The dice seat ``p`` has taken this round so far: one a turn, in the hit step only."""
    if state.phase != PHASE_TURN:
        return 0
    game, start = state.game, _start_of(state)
    taken = sum((start + game.turn_order[i]) % game.players == p for i in range(state.turn))
    return taken + (state.die_taken and p == state.current_seat)


def _check_seat(state: AxiaState, p: int) -> None:
    """Seat ``p``'s dice, placement, grid and Scoring slots agree with the counters."""
    phase, rnd, count, where = state.phase, state.round, _count(state), _where(state)
    dice, taken = sum(seat == p for seat in state.dice_taken_by), _dice_taken(state, p)
    if dice != taken:
        raise ValueError(
            f"used: player {p} has taken {dice} dice, not {taken}, {where} at turn {state.turn}"
        )
    n, start = state.game.players, _start_of(state)
    committed = phase == PHASE_PLACE and (p - start) % n < count
    if (state.placements[p] >= 0) != committed:
        state_of = "a placement pending" if state.placements[p] >= 0 else "no placement pending"
        raise ValueError(f"pending: player {p} has {state_of} {where} with count {count}")
    laid = sum(card >= 0 for card in state.grid[p])
    cards = 9 if phase == PHASE_OVER else rnd + (phase in (PHASE_REFILL, PHASE_TURN))
    if laid != cards:
        raise ValueError(f"grid: player {p} has {laid} cards, not {cards}, in round {rnd}")
    if phase == PHASE_SCORE_PICK:
        _check_slots(state, p)


def _check_slots(state: AxiaState, p: int) -> None:
    """In the scoring setup, seat ``p`` has filled the slots its picks so far fill."""
    _, picks, _ = scoring_plan(state)
    cur, count, batch = state.current_seat, state.picks_left, state.scoring_batch
    filled = sum(card >= 0 for card in state.scoring_slots[p])
    left = picks if p < cur else picks - count if p == cur else 0
    want = batch * picks + left
    if filled != want:
        raise ValueError(
            f"slots: player {p} has filled {filled}, not {want} (batch {batch}, "
            f"cur {cur}, count {count})"
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
        "placements": [code // 9 for code in state.placements if code >= 0],
        "face-up row": [c for c in state.face_up if c >= 0],
        "territory deck": state.territory_deck,
        "territory discard pile": state.territory_discard,
    }
    _once(places, "Territory", len(state.game.cards.territory), exactly=True)
    scoring = {
        "slots": [c for row in state.scoring_slots for c in row if c >= 0],
        "offers": [c for row in state.scoring_offers for c in row],
        "scoring deck": state.scoring_deck,
    }
    _once(scoring, "Scoring", len(state.game.cards.scoring), exactly=False)
    items = {"item hands": [c for row in state.items for c in row], "item deck": state.item_deck}
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
