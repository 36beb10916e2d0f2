"""Action-id layout and the names of spaces, cells, slots and dice.

Player actions share one id space (``NUM_ACTIONS`` ids); chance actions are card indexes (draws)
or die faces 0..5 (rolls). Spaces of the 6×6 grid are ``a1``..``f6`` (column letter, row digit,
row 1 at the top); the nine card cells are ``A1``..``C3`` (card column letter, card row digit).
"""

from __future__ import annotations

MAX_DICE = 9
SPACES = 36

SCORE_PLACE = 0  # scoring card (32) × slot (6)
MULLIGAN = SCORE_PLACE + 32 * 6  # discard mask over the sorted hand (16)
PLACE = MULLIGAN + 16  # territory card (60) × cell (9)
REFILL = PLACE + 60 * 9  # take face-up 0..2, or 3 = deck
DECK = REFILL + 3
DIE_HIT = REFILL + 4  # die (9) × space (36)
WASTE = DIE_HIT + MAX_DICE * SPACES  # take a die without a hit (9)
TARGET = WASTE + MAX_DICE  # effect target space (36)
ZORAK = TARGET + SPACES  # copied die (9) × space (36)
PAIR = ZORAK + MAX_DICE * SPACES  # two spaces a < b (36 × 36)
ITEM = PAIR + SPACES * SPACES  # play item card (24)
CHANGE = ITEM + 24  # die (9) × new value (6)
END = CHANGE + MAX_DICE * 6  # end the turn
DECLINE = END + 1  # decline the beast effect waiting for a target (effects are optional)
NUM_ACTIONS = DECLINE + 1

COLS = "abcdef"


def space_name(space: int) -> str:
    """``a1``-style name of a space index ``row * 6 + col``."""
    return f"{COLS[space % 6]}{space // 6 + 1}"


def parse_space(text: str) -> int | None:
    """Space index of ``a1``-style text, or ``None``."""
    if len(text) != 2 or text[0] not in COLS or text[1] not in "123456":
        return None
    return (int(text[1]) - 1) * 6 + COLS.index(text[0])


def cell_name(cell: int) -> str:
    """``A1``-style name of card cell ``crow * 3 + ccol``."""
    return f"{'ABC'[cell % 3]}{cell // 3 + 1}"


def parse_cell(text: str) -> int | None:
    """Cell index of ``A1``-style text, or ``None``."""
    if len(text) != 2 or text[0] not in "ABC" or text[1] not in "123":
        return None
    return (int(text[1]) - 1) * 3 + "ABC".index(text[0])


def slot_name(slot: int) -> str:
    """``R1``..``R3`` for row slots 0..2 and ``C1``..``C3`` for column slots 3..5."""
    return f"R{slot + 1}" if slot < 3 else f"C{slot - 2}"


def parse_slot(text: str) -> int | None:
    """Slot index of ``R1``/``C2``-style text, or ``None``."""
    if len(text) != 2 or text[0] not in "RC" or text[1] not in "123":
        return None
    return int(text[1]) - 1 + (0 if text[0] == "R" else 3)


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
