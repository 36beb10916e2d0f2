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


# Target-cell entries of :func:`cube_ids` are ints: bits 0-5 the directions to neighbouring
# cubes, 6-11 those of them that show a dome to the cell, 12-18 the lowest anchor code + 1,
# 19 "on the table", 20-26 the second-lowest anchor code + 1 (0: none yet).
_KEY = (1 << 20) - 1
_GROUND = 1 << 19


def _link_table() -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Per ``(dome mask, z class, rank)`` of a cube: one ``(packed offset, neighbour bits,
    new entry, second anchor)`` per neighbour cell on or above the table (z class 0: the cube
    is on the table, 1: one above it, 2: higher)."""
    rows = []
    for mask in range(64):
        for zclass in range(3):
            for rank in range(12):
                row = []
                for e in range(6):
                    if zclass == 0 and e == 5:
                        continue
                    back = 1 << (e ^ 1)
                    bits = back | (back << 6 if mask >> e & 1 else 0)
                    ground = (zclass == 0 and e < 4) or (zclass == 1 and e == 5)
                    code = rank * 6 + e + 1
                    row.append((STEP[e], bits, bits | code << 12 | ground << 19, code << 20))
                rows.append(tuple(row))
    return tuple(rows)


_LINKS = _link_table()
_COUNT_KEY = 4095 | _GROUND
"""The part of an entry that decides how many dome sets fit (not the anchor)."""

Offsets = tuple[tuple[int, ...], tuple[int, ...]]


class _Tables:
    """Memo tables of one option set (dome-set fits depend on two options only)."""

    def __init__(self, opts: RuleOptions) -> None:
        self.opts = opts
        outer = self

        class Rels(dict[int, Offsets]):
            def __missing__(self, key: int) -> Offsets:
                code = (key >> 12 & 127) - 1
                fits = outer.fits(key)
                self[key] = found = _offsets(fits, code) if code >= 0 else ((), ())
                return found

        class Counts(dict[int, int]):
            def __missing__(self, key: int) -> int:
                fits = outer.fits(key)
                self[key] = found = len(fits[1][0]) | len(fits[2][0]) << 16
                return found

        self.rels: dict[int, Offsets] = Rels()
        """Entry (``& _KEY``) → id offsets ``code * WIDTH + placement`` of one- and two-domed
        cubes that fit there."""
        self.counts: dict[int, int] = Counts()
        """Entry (``& _COUNT_KEY``) → how many dome sets fit, one-domed + two-domed << 16
        (an occupied cell's -1 gives 0)."""

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
        for heading in PERPENDICULAR[n0]:
            p, n, h = p0, n0, heading
            seen: set[int] = set()
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


def targets(
    cubes: Packed, cells: list[int], sceptres: list[PSceptre], color: int
) -> tuple[dict[int, int], list[Source]]:
    """Entries of the cells next to cubes (see ``_KEY``; -1: a cube or an air cell) and the
    cubes ``color`` may lift, in rank order."""
    info: dict[int, int] = dict.fromkeys(cubes, -1)
    holders = set()
    for _, c, d in sceptres:
        holders.add(c)
        info[c + STEP[d]] = -1
    links = _LINKS
    get = info.get
    sources: list[Source] = []
    for rank, cell in enumerate(cells):
        value = cubes[cell]
        z = cell & ZMASK
        for off, bits, new, second in links[
            (value & 63) * 36 + (0 if z == 1 else 12 if z == 2 else 24) + rank
        ]:
            t = cell + off
            entry = get(t, 0)
            if entry > 0:
                info[t] = entry | bits if entry >> 20 else entry | bits | second
            elif not entry:
                info[t] = new
        if value >> 6 == color and cell + 1 not in cubes and cell not in holders:
            mask = value & 63
            sources.append((cell, rank, 2 if mask & (mask - 1) else 1))
    return info, sources


def _without(entry: int, rank: int, e: int) -> int:
    """The entry of a target cell reached in direction ``e`` from the cube of rank ``rank``,
    with that cube lifted (``& _KEY``)."""
    if ((entry >> 12 & 127) - 1) // 6 == rank:
        # the lifted cube was the anchor: the second-lowest code takes its place
        entry = entry & ~(127 << 12) | (entry >> 20 & 127) << 12
    gone = 1 << (e ^ 1)  # the lifted cube, seen from the target
    return entry & _KEY & ~(gone | gone << 6)


def cube_ids(
    opts: RuleOptions,
    cubes: Packed,
    cells: list[int],
    sceptres: list[PSceptre],
    color: int,
) -> list[int]:
    """Cube-move ids of ``color``, unsorted: :func:`.board.cube_move_ids` on packed cells.

    ``cells`` are the packed cells in ascending order (their index is the cube's rank).
    """
    info, sources = targets(cubes, cells, sceptres, color)
    if not sources:
        return []
    rels = tables(opts).rels
    one: list[int] = []
    two: list[int] = []
    flat = (one, one, two)
    spans: dict[int, tuple[int, int, int, int, int]] = {}
    beside: set[int] = set()
    for source, _, _ in sources:
        beside.update(
            (
                source + STEP[0],
                source + STEP[1],
                source + STEP[2],
                source + STEP[3],
                source + 1,
                source - 1,
            )
        )
    for t, entry in info.items():
        if entry < 0:
            continue
        rel = rels[entry & _KEY]
        if t in beside:
            a1, a2 = len(one), len(two)
            one += rel[0]
            two += rel[1]
            spans[t] = (0, a1, len(one), a2, len(two))
        else:
            one += rel[0]
            two += rel[1]
    ids: list[int] = []
    for source, rank, domes in sources:
        row = SCEPTRE_ACTIONS + rank * 72 * WIDTH
        mine: list[int] = []
        cuts: list[tuple[int, int]] = []
        for e in range(6):
            t = source + STEP[e]
            span = spans.get(t)
            if span is None:
                continue  # occupied, an air cell, or under the table
            cuts.append((span[2 * domes - 1], span[2 * domes]))
            offsets = rels[_without(info[t], rank, e)][domes - 1]
            if offsets:
                mine.extend([row + offset for offset in offsets])
        rest = flat[domes]
        cuts.sort()
        at = 0
        for begin, end in cuts:
            if begin > at:
                mine.extend([row + x for x in rest[at:begin]])
            at = end
        mine.extend([row + x for x in rest[at:]])
        ids.extend(mine)
    return ids


def cube_counts(opts: RuleOptions, info: dict[int, int], sources: list[Source]) -> list[int]:
    """How many cube moves each source has (what :func:`cube_ids` would list for it)."""
    counts = tables(opts).counts
    total = sum([counts[entry & _COUNT_KEY] for entry in info.values()])
    found = []
    get = info.get
    for source, rank, domes in sources:
        c = total
        for e in range(6):
            entry = get(source + STEP[e], -1)
            if entry >= 0:
                c += counts[_without(entry, rank, e) & _COUNT_KEY] - counts[entry & _COUNT_KEY]
        found.append(c & 0xFFFF if domes == 1 else c >> 16)
    return found


def cube_offsets(opts: RuleOptions, info: dict[int, int], source: Source) -> list[int]:
    """The cube moves of one source as ascending id offsets from its row
    (``SCEPTRE_ACTIONS + rank * 72 * WIDTH``): ``code * WIDTH + placement``."""
    rels = tables(opts).rels
    cell, rank, domes = source
    near = {cell + STEP[e]: e for e in range(6)}
    side = domes - 1
    found: list[int] = []
    for t, entry in info.items():
        if entry < 0:
            continue
        e = near.get(t)
        found += rels[entry & _KEY if e is None else _without(entry, rank, e)][side]
    found.sort()
    return found
