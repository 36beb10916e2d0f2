"""The AXIA territory grid: 6x6 spaces, nine card cells, six scoring slots, as fixed tables.

Spaces are ``row * 6 + col`` (row 0 at the top); card cell ``crow * 3 + ccol`` holds the 2x2
spaces of one Territory card. Pure data: no ids, no options, no state.
"""

from __future__ import annotations

SPACES = 36


def space_of(cell: int, local: int) -> int:
    """The grid space of local position ``local`` (0..3, reading order) of card cell ``cell``."""
    return (2 * (cell // 3) + local // 2) * 6 + 2 * (cell % 3) + local % 2


def orthogonal(space: int) -> list[int]:
    """Orthogonal neighbours of a space on the 6×6 grid."""
    row, col = divmod(space, 6)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < 6 and 0 <= c < 6:
            out.append(r * 6 + c)
    return out


def diagonal_pairs() -> list[tuple[int, int]]:
    """Every unordered pair ``(a, b)``, ``a < b``, of diagonally adjacent spaces."""
    pairs = []
    for row in range(5):
        for col in range(6):
            a = row * 6 + col
            for dc in (-1, 1):
                if 0 <= col + dc < 6:
                    b = (row + 1) * 6 + col + dc
                    pairs.append((a, b))
    return sorted(pairs)


ORTHOGONAL: tuple[tuple[int, ...], ...] = tuple(tuple(orthogonal(s)) for s in range(SPACES))
DIAGONAL_PAIRS: tuple[tuple[int, int], ...] = tuple(diagonal_pairs())
#: Spaces of each card cell.
CELL_SPACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(space_of(cell, local) for local in range(4)) for cell in range(9)
)
#: The two linked lines of each scoring slot (rows 2r, 2r+1 or columns 2c, 2c+1).
SLOT_SPACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * 6 + c for r in (2 * slot, 2 * slot + 1) for c in range(6))
    if slot < 3
    else tuple(r * 6 + c for c in (2 * (slot - 3), 2 * (slot - 3) + 1) for r in range(6))
    for slot in range(6)
)
#: The two lines of each slot as separate tuples (for activation).
SLOT_LINES: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (
        tuple(2 * slot * 6 + c for c in range(6)),
        tuple((2 * slot + 1) * 6 + c for c in range(6)),
    )
    if slot < 3
    else (
        tuple(r * 6 + 2 * (slot - 3) for r in range(6)),
        tuple(r * 6 + 2 * (slot - 3) + 1 for r in range(6)),
    )
    for slot in range(6)
)
