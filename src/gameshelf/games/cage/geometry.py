"""Fixed geometry of the Rubik's Cage: cells, lines, twists and flips as precomputed tables.

Cells are ``i = 8*z + r``: ring position ``r`` 0..7 counter-clockwise seen from above starting at
the front-left corner (even = corners, odd = edge-middles), layer ``z`` 0 (bottom) .. 2 (top).
"""

from __future__ import annotations

RING = 8
LAYERS = 3
CELLS = RING * LAYERS

COLOURS = "WYROBG"
COLOUR_NAMES = ("white", "yellow", "red", "orange", "blue", "green")


def cell(r: int, z: int) -> int:
    """The cell index of ring position ``r`` in layer ``z``."""
    return RING * z + r


def face_columns(k: int) -> tuple[int, int, int]:
    """Columns shown by side face ``k`` (0 front, 1 right, 2 back, 3 left), left to right."""
    return ((2 * k) % RING, (2 * k + 1) % RING, (2 * k + 2) % RING)


def _face_lines(k: int) -> list[tuple[int, int, int]]:
    a, b, c = face_columns(k)
    rows = [(cell(a, z), cell(b, z), cell(c, z)) for z in range(LAYERS)]
    columns = [(cell(col, 0), cell(col, 1), cell(col, 2)) for col in (a, b, c)]
    diagonals = [(cell(a, 0), cell(b, 1), cell(c, 2)), (cell(a, 2), cell(b, 1), cell(c, 0))]
    return rows + columns + diagonals


def _all_lines() -> tuple[tuple[int, int, int], ...]:
    seen: dict[frozenset[int], tuple[int, int, int]] = {}
    for k in range(4):
        for line in _face_lines(k):
            seen.setdefault(frozenset(line), line)
    return tuple(seen.values())


LINES: tuple[tuple[int, int, int], ...] = _all_lines()
"""The 28 distinct lines (12 horizontal, 8 vertical, 8 diagonal) as cell triples."""

LINES_THROUGH: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(tuple(other for other in line if other != i) for line in LINES if i in line)  # type: ignore[misc]
    for i in range(CELLS)
)
"""For each cell, the other two cells of every line through it."""


def twist_source(z: int, direction: int) -> tuple[int, ...]:
    """Permutation for a quarter turn of layer ``z``: ``new[i] = old[source[i]]`` (before settling).

    Turn ``(z, +1)`` carries the cubie at ``(r, z)`` to ``((r + 2) mod 8, z)``.
    """
    source = list(range(CELLS))
    for r in range(RING):
        source[cell((r + 2 * direction) % RING, z)] = cell(r, z)
    return tuple(source)


TWISTS: tuple[tuple[int, int], ...] = tuple((z, d) for z in range(LAYERS) for d in (1, -1))
"""Twist moves in action order: (0,+), (0,-), (1,+), (1,-), (2,+), (2,-)."""

TWIST_SOURCES: tuple[tuple[int, ...], ...] = tuple(twist_source(z, d) for z, d in TWISTS)

FLIP_COLUMN: tuple[int, ...] = tuple((6 - r) % RING for r in range(RING))
"""A flip carries column ``r`` to column ``(6 - r) mod 8`` with its contents reversed."""
