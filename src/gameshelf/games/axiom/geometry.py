"""Axiom geometry: cells, the six directions, faces, dome placements and their tables.

A cell is an ``(x, y, z)`` tuple of ints (``z = 1`` is the layer on the table). A direction is an
index ``0..5`` into :data:`DIR_NAMES` (``x+ x- y+ y- z+ z-``); a set of directions (the domes of a
cube) is a 6-bit mask with bit ``d`` for direction ``d``. A face is ``(cell, direction)``; its
*air cell* is ``cell + direction``. Everything here is precomputed once at import.
"""

from __future__ import annotations

Cell = tuple[int, int, int]

BLACK, WHITE = 0, 1
COLOR_NAMES: tuple[str, str] = ("black", "white")

Cubes = dict[Cell, int]
"""Cubes by cell; the value is ``colour << 6 | dome mask``."""
Sceptre = tuple[int, Cell, int]
"""A sceptre: ``(colour, cell of its cube, face direction)``."""

XP, XM, YP, YM, ZP, ZM = range(6)
DIR_NAMES: tuple[str, ...] = ("x+", "x-", "y+", "y-", "z+", "z-")
DIR_INDEX: dict[str, int] = {name: index for index, name in enumerate(DIR_NAMES)}
VECTORS: tuple[Cell, ...] = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
OPPOSITE: tuple[int, ...] = (XM, XP, YM, YP, ZM, ZP)
ALL_DIRS: tuple[int, ...] = (XP, XM, YP, YM, ZP, ZM)

#: The four directions perpendicular to each direction (the lateral travel headings).
PERPENDICULAR: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in ALL_DIRS if t // 2 != n // 2) for n in ALL_DIRS
)

#: For each face normal, the four diagonals of its plane as ``(a, b)`` direction pairs, one
#: direction on each in-plane axis; the diagonal step is the vector sum ``a + b``.
DIAGONALS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((a, b) for a in PERPENDICULAR[n] for b in PERPENDICULAR[n] if a // 2 < b // 2)
    for n in ALL_DIRS
)

#: Every distinct dome set: the 6 single-dome masks, then the 12 adjacent-pair masks.
SINGLE_MASKS: tuple[int, ...] = tuple(1 << d for d in ALL_DIRS)
DOUBLE_MASKS: tuple[int, ...] = tuple(
    (1 << a) | (1 << b) for a in ALL_DIRS for b in ALL_DIRS if a < b and a // 2 != b // 2
)
PLACEMENTS: tuple[int, ...] = SINGLE_MASKS + DOUBLE_MASKS
PLACEMENT_INDEX: dict[int, int] = {mask: index for index, mask in enumerate(PLACEMENTS)}

#: Mirror of a direction under the half-turn (x, y, z) -> (-x, 1 - y, z) that maps Black's half
#: of a symmetric setup onto White's.
MIRROR_DIR: tuple[int, ...] = (XM, XP, YM, YP, ZP, ZM)


def step(cell: Cell, direction: int) -> Cell:
    """The neighbouring cell of ``cell`` in ``direction``."""
    dx, dy, dz = VECTORS[direction]
    return (cell[0] + dx, cell[1] + dy, cell[2] + dz)


def step2(cell: Cell, a: int, b: int) -> Cell:
    """``cell`` moved one unit along ``a`` and one along ``b`` (a diagonal or a double step)."""
    ax, ay, az = VECTORS[a]
    bx, by, bz = VECTORS[b]
    return (cell[0] + ax + bx, cell[1] + ay + by, cell[2] + az + bz)


def popcount(mask: int) -> int:
    """Number of set bits (domes) of a 6-bit mask."""
    return bin(mask).count("1")


def masks_for(domes: int) -> tuple[int, ...]:
    """The distinct placements of a cube with ``domes`` domes (1 → 6 masks, 2 → 12 masks)."""
    return SINGLE_MASKS if domes == 1 else DOUBLE_MASKS


def is_valid_mask(mask: int) -> bool:
    """Whether ``mask`` is a dome set some Axiom cube can show (one dome, or two adjacent)."""
    return mask in PLACEMENT_INDEX


def mask_names(mask: int) -> str:
    """Dome directions of ``mask`` in canonical order, space separated (``"x- z+"``)."""
    return " ".join(DIR_NAMES[d] for d in ALL_DIRS if mask >> d & 1)


def mirror_cell(cell: Cell) -> Cell:
    """The half-turn about the vertical axis that maps Black's half onto White's."""
    return (-cell[0], 1 - cell[1], cell[2])


def mirror_mask(mask: int) -> int:
    """A dome set seen through :func:`mirror_cell`."""
    out = 0
    for d in ALL_DIRS:
        if mask >> d & 1:
            out |= 1 << MIRROR_DIR[d]
    return out


def format_cell(cell: Cell) -> str:
    """``(x,y,z)`` exactly as the play-by-email notation writes it."""
    return f"({cell[0]},{cell[1]},{cell[2]})"
