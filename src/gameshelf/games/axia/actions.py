"""Action-id layout, the tagged moves the ids decode to, the phase and chance constants, and
the names of grid places.

Player actions share one id space (``NUM_ACTIONS`` ids), laid out below kind after kind; each id
decodes once, through :func:`decode`, to a small tagged move (``Hit(die, space)``,
``Place(card, cell)``, ...) on which the state dispatches. Chance actions are card indexes
(draws) or die faces 0..5 (rolls). Spaces of the 6×6 grid (see :mod:`.board`) are ``a1``..``f6``
(column letter, row digit, row 1 at the top); the nine card cells are ``A1``..``C3`` (card
column letter, card row digit).
"""

from __future__ import annotations

from typing import Final, final

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


# ---------------------------------------------------------------------------- tagged moves
class Decision:
    """A player's move as its parts: what ``decode`` makes of an action id."""


@final
class PickScoring(Decision):
    """Put Scoring card ``card`` (offered to the mover) in slot ``slot``."""

    def __init__(self, card: int, slot: int) -> None:
        self.card = card
        self.slot = slot


@final
class Redraw(Decision):
    """Explore regions: discard the cards of the sorted hand whose bit is set in ``mask``."""

    def __init__(self, mask: int) -> None:
        self.mask = mask


@final
class Place(Decision):
    """Commit Territory card ``card`` to card cell ``cell`` (revealed when all have)."""

    def __init__(self, card: int, cell: int) -> None:
        self.card = card
        self.cell = cell


@final
class TakeFaceUp(Decision):
    """Refill from face-up place ``index`` (0..2)."""

    def __init__(self, index: int) -> None:
        self.index = index


@final
class DrawFromDeck(Decision):
    """Refill from the Territory deck."""


@final
class Hit(Decision):
    """Take die ``die`` and hit the beast on ``space`` with it."""

    def __init__(self, die: int, space: int) -> None:
        self.die = die
        self.space = space


@final
class Waste(Decision):
    """Take die ``die`` without a hit (it can hit nothing)."""

    def __init__(self, die: int) -> None:
        self.die = die


@final
class Target(Decision):
    """The target ``space`` of the effect waiting on top of the stack."""

    def __init__(self, space: int) -> None:
        self.space = space


@final
class ZorakHit(Decision):
    """Zorak's effect: hit ``space`` as an unused die ``die`` would, leaving the die unused."""

    def __init__(self, die: int, space: int) -> None:
        self.die = die
        self.space = space


@final
class HitPair(Decision):
    """Hit two beasts, ``first`` < ``second`` (Foga, or the diagonal item)."""

    def __init__(self, first: int, second: int) -> None:
        self.first = first
        self.second = second


@final
class PlayItem(Decision):
    """Play Item card ``item`` from the mover's hand."""

    def __init__(self, item: int) -> None:
        self.item = item


@final
class ChangeDie(Decision):
    """The change-a-die item: unused die ``die`` shows ``value`` (1..6)."""

    def __init__(self, die: int, value: int) -> None:
        self.die = die
        self.value = value


@final
class EndTurn(Decision):
    """End the turn."""


@final
class Decline(Decision):
    """Decline the beast effect waiting for a target."""


def _decoded(action: int) -> Decision:
    """The move of one id, by the layout above (read once, into :data:`DECISIONS`)."""
    if action < MULLIGAN:
        return PickScoring(*divmod(action - SCORE_PLACE, 6))
    if action < PLACE:
        return Redraw(action - MULLIGAN)
    if action < REFILL:
        return Place(*divmod(action - PLACE, 9))
    if action < DECK:
        return TakeFaceUp(action - REFILL)
    if action == DECK:
        return DrawFromDeck()
    if action < WASTE:
        return Hit(*divmod(action - DIE_HIT, SPACES))
    if action < TARGET:
        return Waste(action - WASTE)
    if action < ZORAK:
        return Target(action - TARGET)
    if action < PAIR:
        return ZorakHit(*divmod(action - ZORAK, SPACES))
    if action < ITEM:
        return HitPair(*divmod(action - PAIR, SPACES))
    if action < CHANGE:
        return PlayItem(action - ITEM)
    if action < END:
        die, face = divmod(action - CHANGE, 6)
        return ChangeDie(die, face + 1)
    return EndTurn() if action == END else Decline()


DECISIONS: Final[tuple[Decision, ...]] = tuple(_decoded(a) for a in range(NUM_ACTIONS))
"""The tagged move of every player action id, decoded once."""


def decode(action: int) -> Decision:
    """The tagged move of player action id ``action`` (``IndexError`` outside the id space)."""
    if not 0 <= action < NUM_ACTIONS:
        raise IndexError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
    return DECISIONS[action]
