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
    VECTORS,
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
    other_faces = {(c, d) for i, (_, c, d) in enumerate(sceptres) if i != index}
    other_air = {step(c, d) for i, (_, c, d) in enumerate(sceptres) if i != index}
    all_faces = other_faces | {origin}
    tall = opts.tall

    def enterable(q: Cell, m: int) -> bool:
        value = cubes.get(q)
        if value is None or value >> m & 1:
            return False
        air = step(q, m)
        if air[2] < 1 or air in cubes or (q, m) == origin or (q, m) in other_faces:
            return False
        return tall or air not in other_air

    def can_stop(q: Cell, m: int) -> bool:
        if not tall or passing:
            return True
        air = step(q, m)
        far = step(air, m)
        if air in other_air or far[2] < 1 or far in cubes:
            return False
        return (step(far, m), OPPOSITE[m]) not in all_faces

    found: dict[Face, None] = {}
    for heading in PERPENDICULAR[n0]:
        _walk_lateral(opts, cubes, p0, n0, heading, enterable, can_stop, found)
    if opts.diagonal_moves:
        squeeze = opts.diagonal_squeeze == "all_planes" or (
            opts.diagonal_squeeze == "top_only" and n0 == ZP
        )
        for a, b in DIAGONALS[n0]:
            p = p0
            while True:
                q = step2(p, a, b)
                if not enterable(q, n0):
                    break
                if squeeze and step2(p, n0, a) in cubes and step2(p, n0, b) in cubes:
                    break
                if can_stop(q, n0):
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
    while True:
        ahead = step(p, h)
        if ahead[2] < 1:
            return
        corner = step(ahead, n)
        if corner in cubes:
            if not opts.concave_turns:
                return
            p, n, h = corner, OPPOSITE[h], n
        elif ahead in cubes:
            p = ahead
        else:
            n, h = h, OPPOSITE[n]
        if not enterable(p, n) or (p, n, h) in seen:
            return
        seen.add((p, n, h))
        if can_stop(p, n):
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


_DELTA_DIR: dict[Cell, int] = {v: d for d, v in enumerate(VECTORS)}


def cube_moves(
    opts: RuleOptions, cubes: Cubes, sceptres: list[Sceptre], color: int
) -> list[tuple[Cell, Cell, tuple[int, ...]]]:
    """Every legal cube move of ``color``, grouped as ``(source, target, masks)``.

    The fast twin of :func:`placement_problem` (same rules, no messages): target cells and
    their neighbour masks are computed once, then corrected for the lifted cube.
    """
    ctx = PlacementContext.build(opts, cubes, sceptres)
    sources = [
        c for c in sorted(cubes) if cubes[c] >> 6 == color and not source_problem(ctx, c, color)
    ]
    if not sources:
        return []
    blocked = ctx.air_cells | ctx.reach_cells
    targets = []
    for target in sorted({step(q, d) for q in cubes for d in ALL_DIRS} - cubes.keys()):
        if target[2] >= 1 and target not in blocked:
            touching, facing = neighbours(cubes, target)
            targets.append((target, touching, facing))
    overhang = opts.allow_overhang
    moves: list[tuple[Cell, Cell, tuple[int, ...]]] = []
    for source in sources:
        domes = popcount(cubes[source] & 63)
        sx, sy, sz = source
        others: Cubes | None = None
        for target, touching, facing in targets:
            x, y, z = target
            d = _DELTA_DIR.get((sx - x, sy - y, sz - z))
            if d is not None:
                touching &= ~(1 << d)
                facing &= ~(1 << d)
            if not touching or (touching >> ZP & 1):
                continue
            if not overhang and z > 1 and not touching >> ZM & 1:
                continue
            fits = fitting_masks(opts, domes, target, touching, facing)
            if not fits:
                continue
            if opts.require_connected:
                if others is None:
                    others = {c: v for c, v in cubes.items() if c != source}
                if connection_problem(ctx, others, target):
                    continue
            moves.append((source, target, fits))
    return moves


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
