"""Axiom rules on a bare board: sceptre paths, cube placements, support and validation.

A board is a dict of cubes (cell → ``colour << 6 | dome mask``) plus a list of sceptres
(``(colour, cell, face)``). Functions here are pure; :mod:`.rules` wraps them in a game state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gameshelf.core import InvalidPosition

from .geometry import (
    ALL_DIRS,
    DIAGONALS,
    DIR_NAMES,
    OPPOSITE,
    PERPENDICULAR,
    PLACEMENT_INDEX,
    PLACEMENTS,
    ZM,
    ZP,
    Cell,
    format_cell,
    is_valid_mask,
    masks_for,
    popcount,
    step,
    step2,
)
from .notation import COLOR_NAMES, Cubes, Sceptre

Face = tuple[Cell, int]


@dataclass(frozen=True)
class RuleOptions:
    """The rule options of one configured game (see ``docs/games/axiom.md``)."""

    diagonal_moves: bool = True
    concave_turns: bool = True
    diagonal_squeeze: str = "all_planes"
    sceptre_clearance: str = "air"
    allow_overhang: bool = False
    forbid_recess_contact: bool = False
    require_connected: bool = False
    self_capture: str = "losing_move"
    no_move_result: str = "loss"
    repetition_draw: int = 3
    max_plies: int = 300

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> RuleOptions:
        """Build from resolved option values (unknown keys such as ``setup`` are ignored)."""
        fields = cls.__dataclass_fields__
        return cls(**{k: v for k, v in values.items() if k in fields})

    @property
    def tall(self) -> bool:
        """Whether sceptres are tall (reach two cells out)."""
        return self.sceptre_clearance == "tall"


# --- sceptres ---------------------------------------------------------------------------------


def sceptre_targets(
    opts: RuleOptions,
    cubes: Cubes,
    sceptres: list[Sceptre],
    index: int,
    passing: bool = False,
) -> list[Face]:
    """Every face sceptre ``index`` may stop on, lateral moves first, without duplicates.

    With ``passing`` every face it may pass over is listed (the ``tall`` stop rules ignored).
    """
    _, p0, n0 = sceptres[index]
    origin = (p0, n0)
    nbr = _NEIGHBOURS
    other_faces: set[Face] = set()
    other_air: set[Cell] = set()
    for i, (_, c, d) in enumerate(sceptres):
        if i != index:
            other_faces.add((c, d))
            other_air.add((nbr.get(c) or around(c))[d])
    all_faces = other_faces | {origin}
    tall = opts.tall

    def enterable(q: Cell, m: int) -> bool:
        value = cubes.get(q)
        if value is None or value >> m & 1:
            return False
        air = (nbr.get(q) or around(q))[m]
        if air[2] < 1 or air in cubes or (q, m) in all_faces:
            return False
        return tall or air not in other_air

    def can_stop(q: Cell, m: int) -> bool:
        air = step(q, m)
        far = step(air, m)
        if air in other_air or far[2] < 1 or far in cubes:
            return False
        return (step(far, m), OPPOSITE[m]) not in all_faces

    stop = None if not tall or passing else can_stop  # None: every face passed is a stop
    found: dict[Face, None] = {}
    for heading in PERPENDICULAR[n0]:
        _walk_lateral(opts, cubes, p0, n0, heading, enterable, stop, found)
    if opts.diagonal_moves:
        squeeze = opts.diagonal_squeeze == "all_planes" or (
            opts.diagonal_squeeze == "top_only" and n0 == ZP
        )
        for a, b in DIAGONALS[n0]:
            p = p0
            while True:
                beside = nbr.get(p) or around(p)
                side_a = beside[a]
                q = (nbr.get(side_a) or around(side_a))[b]
                if not enterable(q, n0):
                    break
                if squeeze:
                    up = beside[n0]
                    up_beside = nbr.get(up) or around(up)
                    if up_beside[a] in cubes and up_beside[b] in cubes:
                        break
                if stop is None or stop(q, n0):
                    found[(q, n0)] = None
                p = q
    return list(found)


def _walk_lateral(
    opts: RuleOptions,
    cubes: Cubes,
    p: Cell,
    n: int,
    h: int,
    enterable: Any,
    can_stop: Any,
    found: dict[Face, None],
) -> None:
    """Follow one lateral heading: inside corners, flat steps, outside corners."""
    seen: set[tuple[Cell, int, int]] = set()
    nbr = _NEIGHBOURS
    concave = opts.concave_turns
    while True:
        ahead = (nbr.get(p) or around(p))[h]
        if ahead[2] < 1:
            return
        corner = (nbr.get(ahead) or around(ahead))[n]
        if corner in cubes:
            if not concave:
                return
            p, n, h = corner, OPPOSITE[h], n
        elif ahead in cubes:
            p = ahead
        else:
            n, h = h, OPPOSITE[n]
        if not enterable(p, n) or (p, n, h) in seen:
            return
        seen.add((p, n, h))
        if can_stop is None or can_stop(p, n):
            found[(p, n)] = None


def tall_stop_problem(cubes: Cubes, sceptres: list[Sceptre], index: int, face: Face) -> str:
    """Why a tall sceptre (number ``index``) may pass over ``face`` but not stop on it."""
    cell, d = face
    air = step(cell, d)
    far = step(air, d)
    for i, (_, c, e) in enumerate(sceptres):
        if i != index and step(c, e) == air:
            return f"its air cell {format_cell(air)} is another sceptre's air cell"
    if far[2] < 1 or far in cubes:
        what = "the table" if far[2] < 1 else "a cube"
        return f"a tall sceptre there would reach {format_cell(far)}, where {what} is"
    return (
        f"a tall sceptre there would face the sceptre on {format_cell(step(far, d))}"
        f"{DIR_NAMES[OPPOSITE[d]]} with no gap"
    )


def sceptre_blocker(opts: RuleOptions, cubes: Cubes, sceptres: list[Sceptre], face: Face) -> str:
    """Why no sceptre can stand on ``face`` at all, or ``""`` when it could in principle."""
    cell, d = face
    value = cubes.get(cell)
    if value is None:
        return f"there is no cube at {format_cell(cell)}"
    if value >> d & 1:
        return f"face {DIR_NAMES[d]} of {format_cell(cell)} is a dome"
    air = step(cell, d)
    if air[2] < 1:
        return f"face {DIR_NAMES[d]} of {format_cell(cell)} lies on the table"
    if air in cubes:
        return (
            f"face {DIR_NAMES[d]} of {format_cell(cell)} is covered by the cube at "
            f"{format_cell(air)}"
        )
    for _, c, e in sceptres:
        if (c, e) == face:
            return f"a sceptre already stands on face {DIR_NAMES[d]} of {format_cell(cell)}"
    return ""


# --- cubes ------------------------------------------------------------------------------------


def interlocked(a: int, b: int, d: int) -> bool:
    """Whether cubes ``a`` and ``b`` (``b`` one step from ``a`` in direction ``d``) interlock."""
    return bool((a >> d | b >> OPPOSITE[d]) & 1)


def supported(cubes: Cubes) -> bool:
    """Whether every cube is joined by interlocks, through cubes, to a cube on the table."""
    stack = [c for c in cubes if c[2] == 1]
    reached = set(stack)
    while stack:
        cell = stack.pop()
        value = cubes[cell]
        for d in ALL_DIRS:
            q = step(cell, d)
            other = cubes.get(q)
            if other is not None and q not in reached and interlocked(value, other, d):
                reached.add(q)
                stack.append(q)
    return len(reached) == len(cubes)


def count_pieces(cells: Iterable[Cell]) -> int:
    """Number of face-connected groups of ``cells``."""
    left = set(cells)
    pieces = 0
    while left:
        pieces += 1
        stack = [left.pop()]
        while stack:
            cell = stack.pop()
            for d in ALL_DIRS:
                q = step(cell, d)
                if q in left:
                    left.remove(q)
                    stack.append(q)
    return pieces


@dataclass
class PlacementContext:
    """What every placement test of one board needs, computed once."""

    opts: RuleOptions
    cubes: Cubes
    sceptre_cubes: set[Cell]
    air_cells: set[Cell]
    reach_cells: set[Cell]
    pieces: int

    @classmethod
    def build(cls, opts: RuleOptions, cubes: Cubes, sceptres: list[Sceptre]) -> PlacementContext:
        """Precompute sceptre cells and the structure's piece count."""
        air = {step(c, d) for _, c, d in sceptres}
        reach = {step2(c, d, d) for _, c, d in sceptres} if opts.tall else set()
        pieces = count_pieces(cubes) if opts.require_connected else 0
        return cls(opts, cubes, {c for _, c, _ in sceptres}, air, reach, pieces)


def source_problem(ctx: PlacementContext, source: Cell, color: int) -> str:
    """Why the cube at ``source`` cannot be lifted by ``color`` (``""`` when it can)."""
    value = ctx.cubes.get(source)
    if value is None:
        return f"there is no cube at {format_cell(source)}"
    if value >> 6 != color:
        return (
            f"the cube at {format_cell(source)} is {COLOR_NAMES[value >> 6]}'s; "
            f"{COLOR_NAMES[color]} moves only own cubes"
        )
    if source in ctx.sceptre_cubes:
        return f"a sceptre stands on the cube at {format_cell(source)}"
    above = step(source, ZP)
    if above in ctx.cubes:
        return f"the cube at {format_cell(source)} is under the cube at {format_cell(above)}"
    if ctx.opts.allow_overhang:
        rest = dict(ctx.cubes)
        del rest[source]
        if not supported(rest):
            return (
                f"lifting the cube at {format_cell(source)} would leave other cubes hanging "
                "with no interlocked path to the table"
            )
    return ""


def neighbours(others: Cubes, cell: Cell) -> tuple[int, int]:
    """``(touching, domes_facing)`` masks: neighbour present / neighbour shows a dome to us."""
    touching = facing = 0
    x, y, z = cell
    get = others.get
    for d, q in enumerate(
        ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1))
    ):
        value = get(q)
        if value is not None:
            touching |= 1 << d
            if value >> (d ^ 1) & 1:
                facing |= 1 << d
    return touching, facing


def cell_problem(ctx: PlacementContext, others: Cubes, source: Cell, target: Cell) -> str:
    """Why no orientation of the lifted cube fits at ``target`` (``""`` when one might)."""
    x, y, z = target
    if target == source:
        return "a cube cannot be re-orientated in the same place"
    if z < 1:
        return f"{format_cell(target)} is below the table"
    if target in others:
        return f"{format_cell(target)} is occupied by a cube"
    if (x, y, z + 1) in others:
        return (
            f"a cube may not be placed under another cube ({format_cell(target)} is under "
            f"{format_cell((x, y, z + 1))})"
        )
    if target in ctx.air_cells:
        return f"{format_cell(target)} is the air cell of a sceptre"
    if target in ctx.reach_cells:
        return (
            f"{format_cell(target)} is within the reach of a tall sceptre "
            "(two cells out from its face)"
        )
    if not ctx.opts.allow_overhang and z > 1 and (x, y, z - 1) not in others:
        return f"{format_cell(target)} has no cube below it (gravity)"
    if not (
        (x + 1, y, z) in others
        or (x - 1, y, z) in others
        or (x, y + 1, z) in others
        or (x, y - 1, z) in others
        or (x, y, z - 1) in others
    ):
        return f"at {format_cell(target)} the cube would touch no other cube"
    return ""


def mask_problem(opts: RuleOptions, target: Cell, touching: int, facing: int, mask: int) -> str:
    """Why dome set ``mask`` does not fit at ``target`` given the neighbour masks."""
    if target[2] == 1 and mask >> ZM & 1:
        return "a dome may not face the table"
    if mask & facing:
        clash = next(d for d in ALL_DIRS if (mask & facing) >> d & 1)
        return (
            f"its {DIR_NAMES[clash]} dome would touch a dome of the cube at "
            f"{format_cell(step(target, clash))}"
        )
    locks = mask | facing
    if touching >> ZM & 1 and not locks >> ZM & 1:
        return f"it must interlock with the cube below at {format_cell(step(target, ZM))}"
    if not touching & locks:
        return "it interlocks with no cube (a dome must meet a recess)"
    if opts.forbid_recess_contact and touching & ~locks:
        return "it would put a recess against a recess (forbid_recess_contact)"
    return ""


def connection_problem(ctx: PlacementContext, others: Cubes, target: Cell) -> str:
    """Why the structure may not take this shape (``require_connected``), or ``""``."""
    if not ctx.opts.require_connected:
        return ""
    if count_pieces([*others, target]) > ctx.pieces:
        return "the structure would split into more pieces (require_connected)"
    return ""


_FIT_CACHE: dict[tuple[int, bool, int, int, bool], tuple[int, ...]] = {}


def fitting_masks(
    opts: RuleOptions, domes: int, target: Cell, touching: int, facing: int
) -> tuple[int, ...]:
    """The dome sets of a cube with ``domes`` domes that fit at ``target`` (memoised)."""
    key = (domes, target[2] == 1, touching, facing, opts.forbid_recess_contact)
    fits = _FIT_CACHE.get(key)
    if fits is None:
        fits = tuple(
            m for m in masks_for(domes) if not mask_problem(opts, target, touching, facing, m)
        )
        _FIT_CACHE[key] = fits
    return fits


_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {}


def around(cell: Cell) -> tuple[Cell, ...]:
    """The six neighbours of ``cell`` in direction order (memoised: cells repeat a lot)."""
    found = _NEIGHBOURS.get(cell)
    if found is None:
        if len(_NEIGHBOURS) > 1 << 17:
            _NEIGHBOURS.clear()
        x, y, z = cell
        found = (
            (x + 1, y, z),
            (x - 1, y, z),
            (x, y + 1, z),
            (x, y - 1, z),
            (x, y, z + 1),
            (x, y, z - 1),
        )
        _NEIGHBOURS[cell] = found
    return found


_TAKEN: list[Any] = []
"""Marks occupied and air cells among the targets of :func:`cube_move_ids`."""
_LINKS: dict[Cell, tuple[tuple[Cell, int, int, int], ...]] = {}


def _links(cell: Cell) -> tuple[tuple[Cell, int, int, int], ...]:
    """``(neighbour, bit of the direction back, bit of the direction, direction)`` for the
    neighbours of ``cell`` on or above the table (memoised)."""
    found = _LINKS.get(cell)
    if found is None:
        if len(_LINKS) > 1 << 17:
            _LINKS.clear()
        found = tuple((t, 1 << (e ^ 1), 1 << e, e) for e, t in enumerate(around(cell)) if t[2] >= 1)
        _LINKS[cell] = found
    return found


Fits = tuple[tuple[int, ...], tuple[int, ...]]
"""Dome sets that fit a cell and their indices in :data:`~.geometry.PLACEMENTS`."""

_NO_FITS: Fits = ((), ())
SCEPTRE_ACTIONS = 12 * 12 * 6
"""Sceptre-move ids come first; cube-move ids start here (see :mod:`.rules`)."""
WIDTH = len(PLACEMENTS)
FitsEntry = tuple[Fits, Fits, Fits, dict[int, tuple[tuple[int, ...], tuple[int, ...]]]]
_FITS_BY_DOMES: dict[int, FitsEntry] = {}


def _fits_key(touching: int, facing: int, ground: bool, overhang: bool, forbid: bool) -> int:
    """The memo key of :func:`_fits_by_domes` (an int: cheaper to hash than a tuple)."""
    return touching | facing << 6 | ground << 12 | overhang << 13 | forbid << 14


def _fits_by_domes(opts: RuleOptions, touching: int, facing: int, ground: bool) -> FitsEntry:
    """For 0 (unused), 1 and 2 domes: what fits an empty cell with these neighbour masks.

    Folds in the cell tests that depend only on the masks: some neighbour, nothing above, and
    (without overhang) a cube below unless on the table. Memoised per option pair; the last
    item memoises, per anchor code, the id offsets of both dome counts (see
    :func:`cube_move_ids`).
    """
    key = _fits_key(touching, facing, ground, opts.allow_overhang, opts.forbid_recess_contact)
    entry = _FITS_BY_DOMES.get(key)
    if entry is None:
        if (
            not touching
            or touching >> ZP & 1
            or (not opts.allow_overhang and not ground and not touching >> ZM & 1)
        ):
            entry = (_NO_FITS, _NO_FITS, _NO_FITS, {})
        else:
            z = 1 if ground else 2
            by_domes = []
            for domes in (1, 2):
                masks = fitting_masks(opts, domes, (0, 0, z), touching, facing)
                by_domes.append((masks, tuple(PLACEMENT_INDEX[m] for m in masks)))
            entry = (_NO_FITS, by_domes[0], by_domes[1], {})
        _FITS_BY_DOMES[key] = entry
    return entry


def _offsets(entry: FitsEntry, code: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Id offsets ``code * WIDTH + placement`` of the fits of one- and two-domed cubes."""
    found = entry[3].get(code)
    if found is None:
        start = code * WIDTH
        found = (
            tuple(start + p for p in entry[1][1]),
            tuple(start + p for p in entry[2][1]),
        )
        entry[3][code] = found
    return found


def cube_move_ids(
    opts: RuleOptions,
    cubes: Cubes,
    sceptres: list[Sceptre],
    color: int,
    cells: list[Cell] | None = None,
) -> list[int]:
    """The action ids of every legal cube move of ``color`` (unordered; ``cells`` sorted cubes).

    An id is ``SCEPTRE_ACTIONS + ((source_rank * 12 + anchor_rank) * 6 + anchor_dir) * 18 +
    placement`` where the anchor is the lowest-ranked other cube next to the target and
    ``anchor_dir`` the direction from it to the target.

    Target cells, their neighbour masks and their two best anchors are found once, from the
    cubes' side, and turned into id offsets for one- and two-domed cubes; a source then takes
    those offsets wholesale except at the (at most six) target cells next to it, which are
    recomputed without it.
    """
    if cells is None:
        cells = sorted(cubes)
    air: set[Cell] = set()
    holders: set[Cell] = set()
    for _, c, d in sceptres:
        holders.add(c)
        air.add(around(c)[d])
    if opts.tall:
        air.update(step2(c, d, d) for _, c, d in sceptres)
    # empty cells next to cubes: [touching, facing, first anchor code, its cube, second code]
    # (occupied cells and air cells are marked first, so that one lookup tells all three apart)
    info: dict[Cell, list[Any]] = dict.fromkeys(cubes, _TAKEN)
    info.update(dict.fromkeys(air, _TAKEN))
    sources: list[tuple[Cell, int, int]] = []
    for rank, cell in enumerate(cells):
        value = cubes[cell]
        r6 = rank * 6
        for t, back, bit, e in _LINKS.get(cell) or _links(cell):
            entry = info.get(t)
            if entry is None:
                info[t] = [back, back if value & bit else 0, r6 + e, cell, -1]
            elif entry is _TAKEN:
                continue
            else:
                entry[0] |= back
                if value & bit:
                    entry[1] |= back
                if entry[4] < 0:
                    entry[4] = r6 + e
        if (
            value >> 6 == color
            and cell not in holders
            and (_NEIGHBOURS.get(cell) or around(cell))[ZP] not in cubes
        ):
            mask = value & 63
            sources.append((cell, rank, 2 if mask & (mask - 1) else 1))
    if not sources:
        return []
    if opts.allow_overhang:
        ctx = PlacementContext.build(opts, cubes, sceptres)
        sources = [s for s in sources if not source_problem(ctx, s[0], color)]
    table = _fits_by_domes
    known = _FITS_BY_DOMES
    over, forbid = opts.allow_overhang, opts.forbid_recess_contact
    flat: tuple[list[int], list[int], list[int]] = ([], [], [])
    one, two = flat[1], flat[2]
    spans: dict[Cell, tuple[int, int, int, int, int]] = {}
    flags = _fits_key(0, 0, False, over, forbid)
    # where each source's own offsets must be cut out and recomputed
    beside = {t for source, _, _ in sources for t in _NEIGHBOURS.get(source) or around(source)}
    for t, entry in info.items():
        if entry is _TAKEN:
            continue
        touching, facing, code = entry[0], entry[1], entry[2]
        ground = t[2] == 1
        fits = known.get(touching | facing << 6 | ground << 12 | flags) or table(
            opts, touching, facing, ground
        )
        rel = fits[3].get(code) or _offsets(fits, code)
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
        near = _NEIGHBOURS.get(source) or around(source)
        for e in range(6):
            t = near[e]
            span = spans.get(t)
            if span is None:
                continue  # occupied, an air cell, or under the table
            cuts.append((span[2 * domes - 1], span[2 * domes]))
            touching, facing, code, anchor, second = info[t]
            gone = ~(1 << (e ^ 1))  # the source, seen from t
            offsets = table(opts, touching & gone, facing & gone, t[2] == 1)[domes][1]
            if offsets:
                start = row + (second if anchor == source else code) * WIDTH
                mine.extend([start + offset for offset in offsets])
        rest = flat[domes]
        cuts.sort()
        at = 0
        for begin, end in cuts:
            if begin > at:
                mine.extend([row + x for x in rest[at:begin]])
            at = end
        mine.extend([row + x for x in rest[at:]])
        if opts.require_connected:
            mine = _connected_only(cubes, cells, source, mine)
        ids.extend(mine)
    return ids


def _connected_only(cubes: Cubes, cells: list[Cell], source: Cell, ids: list[int]) -> list[int]:
    """``ids`` (cube moves of ``source``) that do not split the structure into more pieces."""
    pieces = count_pieces(cubes)
    others = [c for c in cubes if c != source]
    verdict: dict[Cell, bool] = {}
    kept = []
    for action in ids:
        code = (action - SCEPTRE_ACTIONS) // WIDTH % 72
        target = around(cells[code // 6])[code % 6]
        ok = verdict.get(target)
        if ok is None:
            ok = verdict[target] = count_pieces([*others, target]) <= pieces
        if ok:
            kept.append(action)
    return kept


def decode_cube_move(cells: list[Cell], action: int) -> tuple[Cell, Cell, int] | None:
    """``(source, target, mask)`` of a cube-move id, or ``None`` when a rank is out of range."""
    rest, placement = divmod(action - SCEPTRE_ACTIONS, WIDTH)
    rest, anchor_dir = divmod(rest, 6)
    source, anchor = divmod(rest, 12)
    if not 0 <= source < len(cells) or anchor >= len(cells):
        return None
    return cells[source], around(cells[anchor])[anchor_dir], PLACEMENTS[placement]


def cube_moves(
    opts: RuleOptions, cubes: Cubes, sceptres: list[Sceptre], color: int
) -> list[tuple[Cell, Cell, tuple[int, ...]]]:
    """Every legal cube move of ``color``, grouped as ``(source, target, masks)``.

    The fast twin of :func:`placement_problem` (same rules, no messages): the moves of
    :func:`cube_move_ids`, read back from their ids.
    """
    cells = sorted(cubes)
    grouped: dict[tuple[Cell, Cell], list[int]] = {}
    for action in sorted(cube_move_ids(opts, cubes, sceptres, color, cells)):
        move = decode_cube_move(cells, action)
        assert move is not None
        grouped.setdefault(move[:2], []).append(move[2])
    return [(source, target, tuple(masks)) for (source, target), masks in grouped.items()]


def placement_problem(
    opts: RuleOptions,
    cubes: Cubes,
    sceptres: list[Sceptre],
    color: int,
    source: Cell,
    target: Cell,
    mask: int,
) -> str:
    """Why cube move ``source → target`` with domes ``mask`` is illegal (``""`` if it is legal)."""
    ctx = PlacementContext.build(opts, cubes, sceptres)
    problem = source_problem(ctx, source, color)
    if problem:
        return problem
    others = dict(cubes)
    domes = popcount(others.pop(source) & 63)
    if popcount(mask) != domes or not is_valid_mask(mask):
        kind = "single-domed" if domes == 1 else "double-domed (two adjacent domes)"
        return f"the cube at {format_cell(source)} is {kind}; {popcount(mask)} dome(s) given"
    problem = cell_problem(ctx, others, source, target)
    if problem:
        return problem
    touching, facing = neighbours(others, target)
    return mask_problem(opts, target, touching, facing, mask) or connection_problem(
        ctx, others, target
    )


def eliminable(opts: RuleOptions, cubes: Cubes, sceptres: list[Sceptre], cell: Cell) -> bool:
    """Whether the cube at ``cell`` may be eliminated (nothing on top, no sceptre, support)."""
    if step(cell, ZP) in cubes or any(c == cell for _, c, _ in sceptres):
        return False
    if opts.allow_overhang:
        rest = dict(cubes)
        del rest[cell]
        return supported(rest)
    return True


# --- validation -------------------------------------------------------------------------------


def validate_board(
    opts: RuleOptions, cubes: Cubes, sceptres: list[Sceptre], finished: bool
) -> None:
    """Raise :class:`InvalidPosition` naming the first thing that makes the board impossible."""
    counts = [[0, 0], [0, 0]]
    for cell, value in sorted(cubes.items()):
        where = format_cell(cell)
        mask = value & 63
        if not is_valid_mask(mask):
            raise InvalidPosition(f"the cube at {where} has domes on opposite faces")
        counts[value >> 6][popcount(mask) - 1] += 1
        if cell[2] < 1:
            raise InvalidPosition(f"the cube at {where} is below the table (z must be >= 1)")
        if cell[2] == 1 and mask >> ZM & 1:
            raise InvalidPosition(f"the cube at {where} has a dome facing the table")
        for d in (0, 2, 4):
            other = cubes.get(step(cell, d))
            if other is not None and value >> d & 1 and other >> OPPOSITE[d] & 1:
                raise InvalidPosition(
                    f"the cubes at {where} and {format_cell(step(cell, d))} touch dome to dome"
                )
        if not opts.allow_overhang and cell[2] > 1 and step(cell, ZM) not in cubes:
            raise InvalidPosition(f"the cube at {where} floats: no cube below it (gravity)")
    for color in (0, 1):
        for kind, name in ((0, "single"), (1, "double")):
            if counts[color][kind] > 3:
                raise InvalidPosition(
                    f"{COLOR_NAMES[color]} has {counts[color][kind]} {name}-domed cubes (at most 3)"
                )
    if opts.allow_overhang and not supported(cubes):
        raise InvalidPosition("some cube has no interlocked path to a cube on the table")
    _validate_sceptres(opts, cubes, sceptres, finished)


def _validate_sceptres(
    opts: RuleOptions, cubes: Cubes, sceptres: list[Sceptre], finished: bool
) -> None:
    for color in (0, 1):
        number = sum(1 for s in sceptres if s[0] == color)
        if number > 2:
            raise InvalidPosition(f"{COLOR_NAMES[color]} has {number} sceptres (at most 2)")
    for index, (color, cell, d) in enumerate(sceptres):
        face = (cell, d)
        problem = sceptre_blocker(opts, cubes, sceptres[:index], face)
        if problem:
            raise InvalidPosition(
                f"the {COLOR_NAMES[color]} sceptre on {format_cell(cell)}{DIR_NAMES[d]}: {problem}"
            )
        for _, c, e in sceptres[:index]:
            if not opts.tall and step(c, e) == step(cell, d):
                raise InvalidPosition(
                    f"sceptres on {format_cell(c)}{DIR_NAMES[e]} and "
                    f"{format_cell(cell)}{DIR_NAMES[d]} "
                    "share one air cell"
                )
            if c == cell and not finished:
                raise InvalidPosition(
                    f"two sceptres stand on the cube at {format_cell(cell)}: the game would be over"
                )
