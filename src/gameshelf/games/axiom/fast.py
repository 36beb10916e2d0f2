"""The fast path of the Axiom engine: the same rules as :mod:`.board` on bit-packed cells.

A cell ``(x, y, z)`` is packed into one int, ``(x + 2**20) << 26 | (y + 2**20) << 5 | z``, so a
neighbour is one addition (:data:`STEP`), int order is tuple order (cube ranks come from sorting
ints) and hashing is free. Packed cells stay distinct while ``|x|, |y| < 2**20`` and
``0 <= z < 32``; :func:`packable` admits a start only with a wide margin (a cube move shifts
the structure's extent by at most one cell, and gravity keeps ``z <= 12``).

The fast path covers every option except ``sceptre_clearance=tall``, ``allow_overhang`` and
``require_connected``, which keep the tuple-based generator of :mod:`.board` (see
:func:`supports`). ``tests/games/axiom/test_fast_rollout.py`` checks both generators against
each other, and :func:`.board.placement_problem` checks the tuple one rule by rule.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from .board import (
    SCEPTRE_ACTIONS,
    WIDTH,
    RuleOptions,
    _fits_by_domes,
    _fits_key,
    _offsets,
)
from .geometry import DIAGONALS, PERPENDICULAR, ZP, Cell

XSHIFT = 26
YSHIFT = 5
HALF = 1 << 20
YMASK = (1 << 21) - 1
ZMASK = 31
BIAS = (HALF << XSHIFT) + (HALF << YSHIFT)
LIMIT = 1 << 18
"""Largest ``|x|``, ``|y|`` admitted at the start of a fast state."""

STEP: tuple[int, ...] = (1 << XSHIFT, -(1 << XSHIFT), 1 << YSHIFT, -(1 << YSHIFT), 1, -1)
"""The packed offset of each direction ``x+ x- y+ y- z+ z-``."""

Packed = dict[int, int]
PSceptre = tuple[int, int, int]


def pack(cell: Cell) -> int:
    """The packed int of a cell."""
    return (cell[0] << XSHIFT) + (cell[1] << YSHIFT) + cell[2] + BIAS


def unpack(code: int) -> Cell:
    """The cell of a packed int."""
    return ((code >> XSHIFT) - HALF, (code >> YSHIFT & YMASK) - HALF, code & ZMASK)


def supports(opts: RuleOptions, max_plies: int) -> bool:
    """Whether the fast path implements these options (the others use :mod:`.board`)."""
    return (
        not opts.tall
        and not opts.allow_overhang
        and not opts.require_connected
        and max_plies <= 100_000
    )


def packable(cells: Any) -> bool:
    """Whether every cell lies well inside the packed range (see the module docstring)."""
    return all(-LIMIT < x < LIMIT and -LIMIT < y < LIMIT and 1 <= z <= 12 for x, y, z in cells)


# The target cells: every empty cell on or above the table next to a cube has an entry, an int
# kept up to date move by move (:func:`lift`, :func:`place`): bits 0-5 the directions to
# neighbouring cubes, 6-11 those of them that show a dome to the cell, 12 "on the table".
# A key adds the cell's anchor code + 1 from bit 13 (see :func:`_key`).
_GROUND = 1 << 12
_COUNT_KEY = (1 << 13) - 1
"""The part of a key that decides how many dome sets fit (not the anchor)."""

# Ranks follow packed-cell order, and the neighbours of a cell in ascending order lie x-, y-,
# z-, z+, y+, x+ of it: the anchor (lowest-ranked neighbour) is the first of those present.
_FIRST: tuple[int, ...] = tuple(
    next((d for d in (1, 3, 5, 4, 2, 0) if touching >> d & 1), -1) for touching in range(64)
)


def build_entries(cubes: Packed) -> dict[int, int]:
    """The entries of every target cell of ``cubes`` (see above)."""
    entries: dict[int, int] = {}
    for cell, value in cubes.items():
        place(cubes, entries, cell, value)
    return entries


def place(cubes: Packed, entries: dict[int, int], cell: int, value: int) -> None:
    """Update ``entries`` for a cube ``value`` now in ``cubes`` at ``cell``."""
    entries.pop(cell, None)
    for e in range(6):
        t = cell + STEP[e]
        if not t & ZMASK or t in cubes:
            continue
        back = 1 << (e ^ 1)  # from t to the cube
        old = entries.get(t)
        if old is None:
            old = _GROUND if t & ZMASK == 1 else 0
        entries[t] = old | back | (back << 6 if value >> e & 1 else 0)


def lift(cubes: Packed, entries: dict[int, int], cell: int) -> None:
    """Update ``entries`` for the cube at ``cell``, already taken out of ``cubes``."""
    entry = 0
    for e in range(6):
        t = cell + STEP[e]
        value = cubes.get(t)
        if value is not None:
            entry |= 1 << e | (1 << e << 6 if value >> (e ^ 1) & 1 else 0)
            continue
        old = entries.get(t)
        if old is not None:
            back = 1 << (e ^ 1)
            old &= ~(back | back << 6)
            if old & 63:
                entries[t] = old
            else:
                del entries[t]
    if entry:
        entries[cell] = entry | (_GROUND if cell & ZMASK == 1 else 0)


Offsets = tuple[tuple[int, ...], tuple[int, ...]]


class _Tables:
    """Memo tables of one option set (dome-set fits depend on two options only)."""

    def __init__(self, opts: RuleOptions) -> None:
        self.opts = opts
        outer = self

        class Rels(dict[int, Offsets]):
            def __missing__(self, key: int) -> Offsets:
                code = (key >> 13) - 1
                fits = outer.fits(key)
                self[key] = found = _offsets(fits, code) if code >= 0 else ((), ())
                return found

        class Counts(dict[int, int]):
            def __missing__(self, key: int) -> int:
                fits = outer.fits(key)
                self[key] = found = len(fits[1][0]) | len(fits[2][0]) << 16
                return found

        self.rels: dict[int, Offsets] = Rels()
        """Key → id offsets ``code * WIDTH + placement`` of one- and two-domed cubes that fit
        a target cell with that key."""

        class Ids(dict[int, tuple[int, ...]]):
            def __init__(self, row: int, side: int) -> None:
                super().__init__()
                self.row, self.side = row, side

            def __missing__(self, key: int) -> tuple[int, ...]:
                if len(self) > 100_000:
                    self.clear()  # a bound on memory (a few thousand entries are typical)
                row = self.row
                self[key] = found = tuple([row + x for x in outer.rels[key][self.side]])
                return found

        self.ids: list[dict[int, tuple[int, ...]]] = [
            Ids(SCEPTRE_ACTIONS + rank * 72 * WIDTH, side) for rank in range(12) for side in (0, 1)
        ]
        """Per ``rank * 2 + domes - 1`` of the lifted cube: key → the ids of its moves to a
        target cell with that key."""
        self.counts: dict[int, int] = Counts()
        """Key (``& _COUNT_KEY``) → how many dome sets fit, one-domed + two-domed << 16."""

    def fits(self, key: int) -> Any:
        return _fits_by_domes(self.opts, key & 63, key >> 6 & 63, bool(key & _GROUND))


_TABLES: dict[int, _Tables] = {}


def tables(opts: RuleOptions) -> _Tables:
    """The memo tables for ``opts``."""
    flags = _fits_key(0, 0, False, opts.allow_overhang, opts.forbid_recess_contact)
    found = _TABLES.get(flags)
    if found is None:
        found = _TABLES[flags] = _Tables(opts)
    return found


def sceptre_ids(
    opts: RuleOptions,
    cubes: Packed,
    sceptres: list[PSceptre],
    me: int,
    rank: dict[int, int],
) -> tuple[list[int], list[int]]:
    """Sceptre-move ids of ``me``: ``(ordinary, self-capturing)``, unsorted, no duplicates.

    Self-capturing moves are split off only under ``self_capture=only_if_forced``.
    Same rules as :func:`.board.sceptre_targets` with ``sceptre_clearance=air``.
    """
    concave = opts.concave_turns
    diagonal = opts.diagonal_moves
    squeeze_mode = opts.diagonal_squeeze
    forced = opts.self_capture == "only_if_forced"
    step = STEP
    get = cubes.get
    ids: list[int] = []
    risky: list[int] = []
    for index, (color, p0, n0) in enumerate(sceptres):
        if color != me:
            continue
        other_air = {c + step[d] for i, (_, c, d) in enumerate(sceptres) if i != index}
        found: set[int] = set()
        # (face, heading) states of long walks, shared by the four headings: from a state
        # reached before, a walk goes on exactly as it did then
        seen: set[int] = set()
        for heading in PERPENDICULAR[n0]:
            p, n, h = p0, n0, heading
            steps = 0
            while True:
                ahead = p + step[h]
                if not ahead & ZMASK:
                    break
                corner = ahead + step[n]
                if corner in cubes:
                    if not concave:
                        break
                    p, n, h = corner, h ^ 1, n
                elif ahead in cubes:
                    p = ahead
                else:
                    n, h = h, n ^ 1
                if cubes[p] >> n & 1:
                    break
                air = p + step[n]
                if not air & ZMASK or air in cubes or air in other_air or (p == p0 and n == n0):
                    break
                steps += 1
                if steps > 12:
                    # a path that runs on goes round in a loop: stop when (face, heading)
                    # repeats (walks are short: the faces of the first 12 steps are found
                    # again on the loop, so checking from here on finds the same faces)
                    key = p << 6 | n << 3 | h
                    if key in seen:
                        break
                    seen.add(key)
                found.add(p << 3 | n)
        if diagonal:
            squeeze = squeeze_mode == "all_planes" or (squeeze_mode == "top_only" and n0 == ZP)
            up = step[n0]
            for a, b in DIAGONALS[n0]:
                da, db = step[a], step[b]
                diag = da + db
                p = p0
                while True:
                    q = p + diag
                    value = get(q)
                    if value is None or value >> n0 & 1:
                        break
                    air = q + up
                    if not air & ZMASK or air in cubes or air in other_air or q == p0:
                        break
                    if squeeze:
                        over = p + up
                        if over + da in cubes and over + db in cubes:
                            break
                    found.add(q << 3 | n0)
                    p = q
        base = rank[p0] * 72
        if forced:
            own = {c for s, c, _ in sceptres if s == me}
            for face in found:
                target = face >> 3
                action = base + rank[target] * 6 + (face & 7)
                if target in own and target != p0:
                    risky.append(action)
                else:
                    ids.append(action)
        else:
            ids.extend([base + rank[face >> 3] * 6 + (face & 7) for face in found])
    return ids, risky


Source = tuple[int, int, int]
"""A movable cube: ``(packed cell, rank, number of domes)``."""


def movable(
    cubes: Packed, cells: list[int], sceptres: list[PSceptre], color: int
) -> tuple[list[Source], set[int]]:
    """The cubes ``color`` may lift, in rank order, and the sceptres' air cells."""
    air = set()
    holders = set()
    for _, c, d in sceptres:
        holders.add(c)
        air.add(c + STEP[d])
    sources = []
    for rank, cell in enumerate(cells):
        value = cubes[cell]
        if value >> 6 == color and cell + 1 not in cubes and cell not in holders:
            mask = value & 63
            sources.append((cell, rank, 2 if mask & (mask - 1) else 1))
    return sources, air


def _key(t: int, entry: int, rank: dict[int, int]) -> int:
    """The key of target cell ``t``: its entry and anchor code + 1 (0: no neighbour)."""
    d = _FIRST[entry & 63]
    if d < 0:
        return entry
    return entry | (rank[t + STEP[d]] * 6 + (d ^ 1) + 1) << 13


def _without(t: int, entry: int, e: int, rank: dict[int, int]) -> int:
    """The key of target cell ``t``, reached in direction ``e`` from a lifted cube."""
    gone = 1 << (e ^ 1)  # the lifted cube, seen from t
    return _key(t, entry & ~(gone | gone << 6), rank)


_DIRECTION = {offset: e for e, offset in enumerate(STEP)}


def cube_ids(
    opts: RuleOptions,
    cubes: Packed,
    entries: dict[int, int],
    rank: dict[int, int],
    sources: list[Source],
    air: set[int],
) -> list[int]:
    """Cube-move ids of the ``sources`` (see :func:`movable`), unsorted: the moves of
    :func:`.board.cube_move_ids` on packed cells.

    The ids of a (lifted cube, target key) pair are memoised; every lifted cube of one kind
    shares the keys of the target cells not next to any lifted cube, and only the cells next
    to it are keyed again without it.
    """
    if not sources:
        return []
    by_row = tables(opts).ids
    beside = {source + offset for source, _, _ in sources for offset in STEP}
    far = []
    near = []
    for t, entry in entries.items():
        if t in air:
            continue
        if t in beside:
            near.append((t, entry))
        else:
            far.append(_key(t, entry, rank))
    direction = _DIRECTION.get
    ids: list[int] = []
    for source, r, domes in sources:
        table = by_row[r * 2 + domes - 1]
        ids += chain.from_iterable([table[key] for key in far])
        for t, entry in near:
            e = direction(t - source)
            ids += table[_key(t, entry, rank) if e is None else _without(t, entry, e, rank)]
    return ids


def cube_counts(
    opts: RuleOptions, entries: dict[int, int], sources: list[Source], air: set[int]
) -> list[int]:
    """How many cube moves each source has (what :func:`cube_ids` would list for it)."""
    counts = tables(opts).counts
    total = sum([counts[entry] for entry in entries.values()])
    total -= sum([counts[entries[t]] for t in air if t in entries])
    found = []
    get = entries.get
    for source, _, domes in sources:
        c = total
        for e in range(6):
            t = source + STEP[e]
            entry = get(t)
            if entry is not None and t not in air:
                gone = 1 << (e ^ 1)
                c += counts[entry & ~(gone | gone << 6)] - counts[entry]
        found.append(c & 0xFFFF if domes == 1 else c >> 16)
    return found


def source_ids(
    opts: RuleOptions,
    entries: dict[int, int],
    rank: dict[int, int],
    source: Source,
    air: set[int],
) -> list[int]:
    """The ids of one lifted cube's moves, ascending (:func:`cube_ids` for one source)."""
    cell, r, domes = source
    table = tables(opts).ids[r * 2 + domes - 1]
    near = {cell + STEP[e]: e for e in range(6)}
    found: list[int] = []
    for t, entry in entries.items():
        if t in air:
            continue
        e = near.get(t)
        found += table[_key(t, entry, rank) if e is None else _without(t, entry, e, rank)]
    found.sort()
    return found
