"""Action-id layout, the phase, chance and effect constants, and the names of grid places.

Player actions share one id space (``NUM_ACTIONS`` ids); chance actions are card indexes (draws)
or die faces 0..5 (rolls). Spaces of the 6×6 grid (see :mod:`.board`) are ``a1``..``f6``
(column letter, row digit, row 1 at the top); the nine card cells are ``A1``..``C3`` (card
column letter, card row digit).
"""

from __future__ import annotations

from .board import SPACES

MAX_DICE = 9

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


ROUNDS = 8
"""Rounds in a game."""

# Phases of play (``AxiaState.phase``), named apart from the action-id bases above.
PHASE_SCORE_PICK, PHASE_MULLIGAN, PHASE_PLACE, PHASE_REFILL, PHASE_TURN, PHASE_OVER = range(6)
PHASE_NAMES = ("scoring-setup", "explore-regions", "place", "refill", "hit", "over")
"""The name of each phase, as views and explanations print it."""

# Chance kinds: entries of the chance queue are ``(kind, player, slot)``.
C_SCORE, C_SLOT, C_HAND, C_FACEUP, C_ITEM, C_ROLL = range(6)

# Effect tasks: entries of the effect stack are ``(task, param)``.
T_SENTINEL, T_ZORAK, T_RUT, T_FOGA, T_CADRA, T_TEMPLE, T_TORCHA = range(7)
T_I_NONMAG, T_I_REGION, T_I_CHANGE, T_I_DIAG = range(7, 11)
T_RAKYA = 11
TASK_NAMES = (
    "sentinel",
    "zorak",
    "rut",
    "foga",
    "cadra",
    "temple sentinel",
    "torcha",
    "item: defeat a non-magical beast",
    "item: defeat a beast in a region",
    "item: change a die",
    "item: hit two diagonal beasts",
    "rakya",
)
"""The name of each effect task, as views and explanations print it."""
DEFEAT_TASKS = frozenset({T_CADRA, T_TEMPLE, T_I_NONMAG, T_I_REGION})
"""Tasks whose target is defeated outright (the others hit it)."""
#: Immediate effects of beasts: optional ("you may hit two beasts", "you may defeat one of the
#: magical beasts"), so the player may decline them, and an item may be played while they wait.
BEAST_TASKS = frozenset({T_SENTINEL, T_ZORAK, T_FOGA, T_CADRA, T_TEMPLE, T_TORCHA, T_RAKYA})
