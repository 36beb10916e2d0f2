"""Axiom's action ids and the legal-move generator that lists them.

Action ids are state-relative and bounded: cubes are ranked by their cell in sorted order
(0..11).

* sceptre move: ``source_rank * 72 + target_rank * 6 + face`` (< 864);
* cube move: ``864 + ((source_rank * 12 + anchor_rank) * 6 + anchor_dir) * 18 + placement``,
  where the anchor is the lowest-ranked other cube next to the target cell, ``anchor_dir`` the
  direction from it to the target, and ``placement`` the index of the dome set in
  :data:`~.geometry.PLACEMENTS`.

The notation, not the id, is what records and people use; ids only need to be a bijection
within one state, which the conformance checks verify. The generator asks the rules of
:mod:`.board` and memoises what depends only on a target cell's neighbourhood.
"""

from __future__ import annotations

from itertools import chain

from .board import (
    STEP,
    Board,
    closed_cells,
    connection_problem,
    entry_without,
    fitting_masks,
    holders,
    landing,
    lift_problem,
    sceptre_faces,
    splitting,
)
from .geometry import PLACEMENT_INDEX, PLACEMENTS
from .options import AxiomOptions

SCEPTRE_ACTIONS = 12 * 12 * 6
"""Sceptre-move ids come first; cube-move ids start here."""
WIDTH = len(PLACEMENTS)
CUBE_ACTIONS = 12 * 12 * 6 * WIDTH
NUM_ACTIONS = SCEPTRE_ACTIONS + CUBE_ACTIONS

Move = tuple[int, int, int, int]
"""A decoded move on packed cells: ``(0, source, target, face)`` for a sceptre,
``(1, source, target, dome mask)`` for a cube."""
SCEPTRE, CUBE = 0, 1


def decode(board: Board, action: int) -> Move | None:
    """The move an id names on ``board``, or ``None`` when a rank is out of range."""
    cells = board.cells
    count = len(cells)
    if 0 <= action < SCEPTRE_ACTIONS:
        s, t = action // 72, action // 6 % 12
        if s >= count or t >= count:
            return None
        return (SCEPTRE, cells[s], cells[t], action % 6)
    rest = action - SCEPTRE_ACTIONS
    if not 0 <= rest < CUBE_ACTIONS:
        return None
    rest, placement = divmod(rest, WIDTH)
    rest, anchor_dir = divmod(rest, 6)
    source, anchor = divmod(rest, 12)
    if source >= count or anchor >= count:
        return None
    return (CUBE, cells[source], cells[anchor] + STEP[anchor_dir], PLACEMENTS[placement])


def anchor_code(board: Board, source: int, target: int) -> int:
    """``anchor_rank * 6 + anchor_dir`` of a cube move's target cell (-1: no neighbour)."""
    rank = board.rank
    best = -1
    for d, offset in enumerate(STEP):
        q = target + offset
        r = rank.get(q)
        if r is not None and q != source:
            code = r * 6 + (d ^ 1)
            if best < 0 or code < best:
                best = code
    return best


def encode(board: Board, move: Move) -> int:
    """The id of a move (a cube move's target must touch another cube, see
    :func:`anchor_code`)."""
    kind, source, target, extra = move
    rank = board.rank
    if kind == SCEPTRE:
        return rank[source] * 72 + rank[target] * 6 + extra
    code = anchor_code(board, source, target)
    return SCEPTRE_ACTIONS + (rank[source] * 72 + code) * WIDTH + PLACEMENT_INDEX[extra]


# --- the generator ----------------------------------------------------------------------------

# Ranks follow packed-cell order, and the neighbours of a cell in ascending order lie x-, y-,
# z-, z+, y+, x+ of it: the anchor (lowest-ranked neighbour) is the first of those present.
_FIRST: tuple[int, ...] = tuple(
    next((d for d in (1, 3, 5, 4, 2, 0) if touching >> d & 1), -1) for touching in range(64)
)


class _Ids(dict[int, tuple[int, ...]]):
    """Target key → the ids of one lifted cube's moves to a cell with that key (memo).

    A key is a target entry (13 bits, see :mod:`.board`) plus the anchor code + 1 from bit 13.
    """

    def __init__(self, opts: AxiomOptions, row: int, domes: int) -> None:
        super().__init__()
        self.opts, self.row, self.domes = opts, row, domes

    def __missing__(self, key: int) -> tuple[int, ...]:
        if len(self) > 100_000:
            self.clear()  # a bound on memory (a few thousand entries are typical)
        code = (key >> 13) - 1
        if code < 0:
            found: tuple[int, ...] = ()
        else:
            start = self.row + code * WIDTH
            masks = fitting_masks(self.opts, key)[self.domes - 1]
            found = tuple([start + PLACEMENT_INDEX[m] for m in masks])
        self[key] = found
        return found


_TABLES: dict[tuple[bool, bool], list[_Ids]] = {}


def _tables(opts: AxiomOptions) -> list[_Ids]:
    """Per ``rank * 2 + domes - 1`` of the lifted cube, its :class:`_Ids` (the fits depend on
    two options only)."""
    flags = (opts.allow_overhang, opts.forbid_recess_contact)
    found = _TABLES.get(flags)
    if found is None:
        found = _TABLES[flags] = [
            _Ids(opts, SCEPTRE_ACTIONS + rank * 72 * WIDTH, domes)
            for rank in range(12)
            for domes in (1, 2)
        ]
    return found


def _key(t: int, entry: int, rank: dict[int, int]) -> int:
    """The key of target cell ``t``: its entry and anchor code + 1 (0: no neighbour)."""
    d = _FIRST[entry & 63]
    if d < 0:
        return entry
    return entry | (rank[t + STEP[d]] * 6 + (d ^ 1) + 1) << 13


_DIRECTION = {offset: e for e, offset in enumerate(STEP)}


def cube_ids(opts: AxiomOptions, board: Board, me: int) -> list[int]:
    """The ids of ``me``'s cube moves, unsorted.

    Every lifted cube of one kind shares the keys of the target cells not next to any lifted
    cube; only the cells next to it are keyed again without it.
    """
    cells, rank, cubes = board.cells, board.rank, board.cubes
    held = holders(board)
    sources = []
    for r, cell in enumerate(cells):
        value = cubes[cell]
        # (the colour test first only to skip the call: lift_problem makes it too)
        if value >> 6 == me and not lift_problem(opts, board, cell, me, held):
            mask = value & 63
            sources.append((cell, r, 2 if mask & (mask - 1) else 1))
    if not sources:
        return []
    by_row = _tables(opts)
    closed = closed_cells(opts, board)
    beside = {source + offset for source, _, _ in sources for offset in STEP}
    far_cells = []
    far = []
    near = []
    one, two = by_row[0], by_row[1]  # (what fits does not depend on the lifted cube's rank)
    first, step = _FIRST, STEP
    for t, entry in board.entries.items():
        if t in closed:
            continue
        if t in beside:
            near.append((t, entry))
            continue
        d = first[entry & 63]  # the anchor, inlined from _key (every entry has a neighbour)
        key = entry | (rank[t + step[d]] * 6 + (d ^ 1) + 1) << 13
        if one[key] or two[key]:  # a cell where nothing fits adds no ids
            far_cells.append(t)
            far.append(key)
    direction = _DIRECTION.get
    ids: list[int] = []
    for source, r, domes in sources:
        table = by_row[r * 2 + domes - 1]
        split = splitting(board, source) if opts.require_connected else None
        if split is None:
            ids += chain.from_iterable(map(table.__getitem__, far))
        else:
            ids += chain.from_iterable(
                [
                    table[key]
                    for t, key in zip(far_cells, far, strict=True)
                    if not connection_problem(split, t)
                ]
            )
        for t, entry in near:
            if split is not None and connection_problem(split, t):
                continue
            e = direction(t - source)
            if e is not None:
                entry = entry_without(entry, e ^ 1)  # the lifted cube, seen from t
            ids += table[_key(t, entry, rank)]
    return ids


def legal_ids(opts: AxiomOptions, board: Board, me: int) -> list[int]:
    """Every legal action id of ``me`` on ``board``, ascending (the game not yet over).

    With ``self_capture=only_if_forced`` a move onto the cube of the mover's other sceptre
    is listed only when there is no other move.
    """
    rank = board.rank
    forced = opts.forced_self_capture
    ids: list[int] = []
    risky: list[int] = []
    for index, (owner, cell, _) in enumerate(board.sceptres):
        if owner != me:
            continue
        base = rank[cell] * 72
        faces = sceptre_faces(opts, board, index)
        if forced:
            for face in faces:
                target = face >> 3
                action = base + rank[target] * 6 + (face & 7)
                outcome = landing(board, index, target)
                if outcome is not None and outcome[1] == "self-capture":
                    risky.append(action)
                else:
                    ids.append(action)
        else:
            ids += [base + rank[face >> 3] * 6 + (face & 7) for face in faces]
    ids += cube_ids(opts, board, me)
    if risky and not ids:
        ids = risky
    ids.sort()
    return ids
