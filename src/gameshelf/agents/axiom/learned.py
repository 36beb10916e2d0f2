"""Axiom knowledge for the search: what a move does, a repetition-aware position key, and a
static evaluation of a position for the side to move.

Everything here reads only the public face of an Axiom state (``cubes``, ``sceptres``,
``to_move``, ``legal_actions()``, ``moves_of(player)`` and ``action_info(action)``); the rules
themselves stay in :mod:`gameshelf.games.axiom`.

Scores are integers in "centi-cubes" from the point of view of the player to move: losing one
cube of material is about -100. Wins are scored far outside that range by the search.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ..weights_file import check_terms, read_weights_file

Cell = tuple[int, int, int]

SCEPTRE_ACTIONS = 864
"""Action ids below this are sceptre moves (the id layout documented in the Axiom rules)."""
_STEPS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
"""Unit steps of the directions x+ x- y+ y- z+ z-, in the rules' order."""


class MoveFacts(NamedTuple):
    """What one legal move does, as the search needs it."""

    sceptre: bool
    source: Cell
    target: Cell
    captures: bool
    self_capture: bool
    eliminates: bool


@dataclass(frozen=True)
class Weights:
    """Weights of the evaluation terms (centi-cubes per unit of each of :func:`eval_terms`;
    ``cube_mobility`` per four cube moves). These defaults are the hand-written evaluation;
    the levels play with the weights learned from self-play (:func:`learned_weights`)."""

    cube: int = 100
    sceptre_mobility: int = 5
    cube_mobility: int = 1
    pressure: int = 12
    elimination: int = 25
    pin: int = 12
    trapped: int = 40
    threatened: int = 60
    double_threat: int = 400
    tempo: int = 10


DEFAULT_WEIGHTS = Weights()
"""The hand-written weights."""
TERMS = tuple(f.name for f in fields(Weights))
"""The evaluation's terms, in the order of :func:`eval_terms` and of the weights."""
LEARNED_PATH = Path(__file__).resolve().parents[1] / "data" / "axiom_weights.json"
"""The weights learned from self-play (``python -m tools.learn.axiom train`` writes them)."""


def _read_weights_file(path: Path) -> Any:
    """The JSON of a weights file; ``ValueError`` naming the file if it cannot be read."""
    return read_weights_file(path, "Axiom weights file")


def load_weights(path: Path = LEARNED_PATH) -> Weights:
    """The :class:`Weights` of a weights file (``{"weights": {term: integer, ...}, ...}``);
    ``ValueError`` naming what is wrong with a broken file."""
    data = _read_weights_file(path)
    values = data.get("weights") if isinstance(data, dict) else None
    values = check_terms(values, TERMS, f"Axiom weights file {path}")
    bad = [t for t in TERMS if isinstance(values[t], bool) or not isinstance(values[t], int)]
    if bad:
        raise ValueError(f"Axiom weights file {path}: {bad[0]} must be an integer")
    return Weights(**{term: values[term] for term in TERMS})


@lru_cache(maxsize=1)
def learned_weights() -> Weights:
    """The shipped weights learned from self-play (read once)."""
    return load_weights(LEARNED_PATH)


def load_value_scale(path: Path = LEARNED_PATH) -> float:
    """How a score of a weights file's weights becomes a winning chance: the centi-cubes per
    logistic unit that its fit measured on the self-play results (``trained``
    ``centi_cubes_per_logistic_unit``); ``ValueError`` naming what is wrong otherwise."""
    data = _read_weights_file(path)
    trained = data.get("trained") if isinstance(data, dict) else None
    scale = trained.get("centi_cubes_per_logistic_unit") if isinstance(trained, dict) else None
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not scale > 0:
        raise ValueError(
            f"Axiom weights file {path}: trained.centi_cubes_per_logistic_unit must be a "
            f"positive number, got {scale!r}"
        )
    return float(scale)


@lru_cache(maxsize=1)
def learned_value_scale() -> float:
    """The winning-chance scale of the shipped learned weights (read once)."""
    return load_value_scale(LEARNED_PATH)


def move_facts(state: Any, action: int) -> MoveFacts:
    """What ``action`` (legal for its mover in ``state``) does.

    Uses ``state.action_info`` where the engine has it and reads the documented id layout
    otherwise; whether the move eliminates a cube is worked out from the board either way.
    """
    info = getattr(state, "action_info", None)
    cubes = state.cubes
    sceptres = state.sceptres
    if info is not None:
        facts = info(action)
        sceptre = facts.kind == "sceptre"
        source, target = facts.source, facts.target
        if not sceptre:
            return MoveFacts(False, source, target, False, False, False)
        captures, self_capture = bool(facts.captures), bool(facts.self_capture)
        mover = next(s for s, c, _ in sceptres if c == source)
    else:
        if action >= SCEPTRE_ACTIONS:
            cells = sorted(cubes)
            rest = (action - SCEPTRE_ACTIONS) // 18
            (x, y, z), (dx, dy, dz) = cells[rest // 6 % 12], _STEPS[rest % 6]
            target = (x + dx, y + dy, z + dz)
            return MoveFacts(False, cells[rest // 72], target, False, False, False)
        cells = sorted(cubes)
        source, target = cells[action // 72], cells[action // 6 % 12]
        mover = next(s for s, c, _ in sceptres if c == source)
        captures = any(s != mover and c == target for s, c, _ in sceptres)
        self_capture = (
            not captures
            and target != source
            and any(s == mover and c == target for s, c, _ in sceptres)
        )
    eliminates = (
        target != source
        and cubes[source] >> 6 != mover
        and cubes[target] >> 6 == mover
        and (source[0], source[1], source[2] + 1) not in cubes
        and sum(1 for _, c, _ in sceptres if c == source) == 1
    )
    return MoveFacts(True, source, target, captures, self_capture, eliminates)


def sceptre_facts(state: Any, actions: list[int]) -> dict[int, MoveFacts]:
    """The sceptre moves among ``actions`` (legal for their mover in ``state``), each with what
    it does: :func:`move_facts` for many moves at once, decoding the documented id layout
    against the board once (the search's hot path; a test pins it to ``action_info``)."""
    cubes = state.cubes
    cells = sorted(cubes)
    holders: dict[Cell, list[int]] = {}
    for s, c, _ in state.sceptres:
        holders.setdefault(c, []).append(s)
    out: dict[int, MoveFacts] = {}
    for action in actions:
        if action >= SCEPTRE_ACTIONS:
            continue
        source, target = cells[action // 72], cells[action // 6 % 12]
        mover = holders[source][0]
        there = holders.get(target)
        captures = self_capture = eliminates = False
        if target != source:
            if there is not None:  # a capture wins even where the mover's other sceptre is
                captures = (1 - mover) in there
                self_capture = not captures and mover in there
            eliminates = (
                cubes[source] >> 6 != mover
                and cubes[target] >> 6 == mover
                and (source[0], source[1], source[2] + 1) not in cubes
                and len(holders[source]) == 1
            )
        out[action] = MoveFacts(True, source, target, captures, self_capture, eliminates)
    return out


def moves_of(state: Any, player: int) -> list[int]:
    """The moves ``player`` would have in ``state`` if it were their turn."""
    if player == state.to_move:
        return list(state.legal_actions())
    return list(state.moves_of(player))


def position_key(state: Any) -> tuple[Any, ...]:
    """The position up to translation in x and y (the repetition rule's notion), with the side
    to move: two states with equal keys are the same position for the rules."""
    cubes = state.cubes
    if cubes:
        cells = sorted(cubes)
        mx = cells[0][0]
        my = min(c[1] for c in cells)
    else:
        cells, mx, my = [], 0, 0
    return (
        state.to_move,
        tuple((x - mx, y - my, z, cubes[x, y, z]) for x, y, z in cells),
        tuple(sorted((s, x - mx, y - my, z, d) for s, (x, y, z), d in state.sceptres)),
    )


class Side(NamedTuple):
    """One player's sceptre activity in a position."""

    sceptre_moves: int
    cube_moves: int
    captures: frozenset[Cell]
    pressure: int
    eliminations: int
    trapped: int


def position_hash(state: Any) -> int:
    """A 64-bit digest of the position up to translation, with the side to move (what the
    search's tables keep: a few bytes instead of the whole position). The engine's own
    repetition key where the state has one (``position_key()``, compiled with the rules: the
    rule's notion, several times cheaper), else :func:`position_key`. Equal positions hash
    equally within a process."""
    own = getattr(state, "position_key", None)
    if own is not None:
        return hash(own())
    return hash(position_key(state))


def side_facts(state: Any, player: int, actions: list[int], facts: dict[int, MoveFacts]) -> Side:
    """Summarise ``player``'s moves ``actions`` (``facts``: their sceptre moves, from
    :func:`sceptre_facts`): how many, which cubes holding enemy sceptres they capture on, how
    many land next to such a cube (pressure), how many enemy cubes they could eliminate, and
    how many of the player's sceptres have no safe move at all."""
    enemy = [c for s, c, _ in state.sceptres if s != player]
    own = [c for s, c, _ in state.sceptres if s == player]
    captures: set[Cell] = set()
    pressure = 0
    eliminated: set[Cell] = set()
    movers: set[Cell] = set()
    for f in facts.values():
        if f.self_capture:
            continue
        movers.add(f.source)
        if f.captures:
            captures.add(f.target)
            continue
        if f.eliminates:
            eliminated.add(f.source)
        target = f.target
        for e in enemy:
            if abs(target[0] - e[0]) + abs(target[1] - e[1]) + abs(target[2] - e[2]) <= 1:
                pressure += 1
                break
    trapped = sum(1 for c in own if c not in movers)
    count = len(facts)
    return Side(
        count, len(actions) - count, frozenset(captures), pressure, len(eliminated), trapped
    )


class Board(NamedTuple):
    """What decoding many moves of one position needs, read from the state once."""

    cubes: dict[Cell, int]
    cells: list[Cell]
    holders: dict[Cell, list[int]]


def board_of(state: Any) -> Board:
    """The cubes, their cells in id order, and who holds a sceptre on each cube."""
    cubes = state.cubes
    holders: dict[Cell, list[int]] = {}
    for s, c, _ in state.sceptres:
        holders.setdefault(c, []).append(s)
    return Board(cubes, sorted(cubes), holders)


def _eliminating_sources(board: Board, player: int) -> set[Cell]:
    """The cubes a sceptre of ``player`` would eliminate by stepping off them onto one of the
    player's own cubes: an enemy cube with nothing on top that holds this sceptre alone."""
    cubes, holders = board.cubes, board.holders
    return {
        (x, y, z)
        for (x, y, z), owners in holders.items()
        if len(owners) == 1
        and owners[0] == player
        and cubes[x, y, z] >> 6 != player
        and (x, y, z + 1) not in cubes
    }


@lru_cache(maxsize=4096)
def _around(cell: Cell) -> tuple[Cell, ...]:
    """``cell`` and its six neighbours."""
    x, y, z = cell
    return (cell, *((x + dx, y + dy, z + dz) for dx, dy, dz in _STEPS))


def classify(board: Board, player: int, actions: list[int]) -> tuple[bool, set[int], set[int]]:
    """``player``'s moves ``actions`` (ascending, legal for them): whether one captures an enemy
    sceptre (a win), and which capture the player's own (losses) and which eliminate a cube.
    What a search node needs to order its moves, without a :class:`MoveFacts` per move."""
    cubes, cells, holders = board
    sources = _eliminating_sources(board, player)
    losing: set[int] = set()
    eliminating: set[int] = set()
    enemy = 1 - player
    for action in actions:
        if action >= SCEPTRE_ACTIONS:
            break  # ids ascend: the cube moves follow the sceptre moves
        source, target = cells[action // 72], cells[action // 6 % 12]
        if target == source:
            continue
        there = holders.get(target)
        if there is not None:
            if enemy in there:
                return True, losing, eliminating
            if player in there:
                losing.add(action)
                continue
        if source in sources and cubes[target] >> 6 == player:
            eliminating.add(action)
    return False, losing, eliminating


def summarise(board: Board, player: int, actions: list[int]) -> Side:
    """:func:`side_facts` of ``player``'s moves ``actions`` (ascending, legal for them) in one
    pass over the ids, with no :class:`MoveFacts` made (the evaluation's hot path; a test pins
    the two together)."""
    cubes, cells, holders = board
    enemy = 1 - player
    near: set[Cell] = set()  # cells next to (or under) an enemy sceptre: pressure
    own: list[Cell] = []
    for cell, owners in holders.items():
        for s in owners:
            if s == player:
                own.append(cell)
        if enemy in owners:
            near.update(_around(cell))
    sources = _eliminating_sources(board, player)
    captures: set[Cell] = set()
    eliminated: set[Cell] = set()
    movers: set[Cell] = set()
    pressure = count = 0
    for action in actions:
        if action >= SCEPTRE_ACTIONS:
            break  # ids ascend: the cube moves follow the sceptre moves
        count += 1
        source, target = cells[action // 72], cells[action // 6 % 12]
        if target != source:
            there = holders.get(target)
            if there is not None:
                if enemy in there:  # a capture (it wins even beside one's own sceptre)
                    movers.add(source)
                    captures.add(target)
                    continue
                if player in there:
                    continue  # a self-capture is no move to count on
            if source in sources and cubes[target] >> 6 == player:
                eliminated.add(source)
        movers.add(source)
        if target in near:
            pressure += 1
    trapped = sum(1 for c in own if c not in movers)
    cube_moves = len(actions) - count
    return Side(count, cube_moves, frozenset(captures), pressure, len(eliminated), trapped)


def eval_terms(
    state: Any, mine: list[int], theirs: list[int], sides: tuple[Side, Side] | None = None
) -> tuple[int, ...]:
    """The evaluation's terms for the player to move, in the order of :data:`TERMS`; each
    counts for the mover, against the opponent (``mine`` and ``theirs`` as for
    :func:`evaluate`).

    Material (cubes), sceptre and cube mobility, pressure (sceptre moves landing next to a cube
    holding an enemy sceptre), eliminations on offer, sceptres standing on enemy cubes (which
    pins those cubes), sceptres with no safe move (self-capture traps, counted against), a
    capture threat against the mover (one, or on two cubes: -1 each when present) and the
    tempo of the move (always 1).
    """
    me = state.to_move
    material = 0
    for value in state.cubes.values():
        material += 1 if value >> 6 == me else -1
    cubes = state.cubes
    pins = 0
    for s, c, _ in state.sceptres:
        if cubes[c] >> 6 != s:
            pins += 1 if s == me else -1
    if sides is None:
        board = board_of(state)
        sides = summarise(board, me, mine), summarise(board, 1 - me, theirs)
    a, b = sides
    threats = len(b.captures)
    return (
        material,
        a.sceptre_moves - b.sceptre_moves,
        a.cube_moves - b.cube_moves,
        a.pressure - b.pressure,
        a.eliminations - b.eliminations,
        pins,
        b.trapped - a.trapped,
        -1 if threats == 1 else 0,
        -1 if threats >= 2 else 0,
        1,
    )


def score_terms(terms: tuple[int, ...], weights: Weights) -> int:
    """The score of :func:`eval_terms` under ``weights`` (cube mobility per four moves)."""
    w = weights
    cube, sceptre_moves, cube_moves, pressure, eliminations, pins, trapped, one, two, tempo = terms
    return (
        w.cube * cube
        + w.sceptre_mobility * sceptre_moves
        + w.cube_mobility * cube_moves // 4
        + w.pressure * pressure
        + w.elimination * eliminations
        + w.pin * pins
        + w.trapped * trapped
        + w.threatened * one
        + w.double_threat * two
        + w.tempo * tempo
    )


def evaluate(
    state: Any,
    mine: list[int],
    theirs: list[int],
    weights: Weights = DEFAULT_WEIGHTS,
    sides: tuple[Side, Side] | None = None,
) -> int:
    """Static score of ``state`` for the player to move, whose moves are ``mine`` (the
    opponent's, as if it were their turn, are ``theirs``; ``sides`` their
    :func:`summarise` summaries, mover first, computed here when not given): the terms of
    :func:`eval_terms` weighed by ``weights``. One capture threat costs a tempo, threats on
    two cubes usually lose.
    """
    return score_terms(eval_terms(state, mine, theirs, sides), weights)
