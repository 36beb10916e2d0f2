"""Item cards: when each may be played, why it may not, and what playing it does.

One item a turn, at any time of the mover's turn (while a beast's effect waits too). Each
effect is written once below: :func:`item_problem` answers ``""`` when the item can be played
now and otherwise the reason it cannot, which both the legal moves and the explanation of an
illegal move read; :func:`play_item` applies it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .actions import ITEM
from .cards import REGIONS, ItemCard
from .effects import (
    ITEM_CHANGE_DIE,
    ITEM_DEFEAT_NONMAGICAL,
    ITEM_DEFEAT_REGION,
    ITEM_HIT_DIAGONAL,
    effect_targets,
)
from .hits import diagonal_pairs

if TYPE_CHECKING:
    from .rules import AxiaState

PHYSICAL_AS_MAGIC: Final = -1
"""The one item with no effect to resolve: it changes the turn's dice instead."""
ITEM_EFFECT_OF: dict[str, int] = {
    "physical_as_magic": PHYSICAL_AS_MAGIC,
    "change_die": ITEM_CHANGE_DIE,
    "hit_diagonal": ITEM_HIT_DIAGONAL,
    "defeat_nonmagical": ITEM_DEFEAT_NONMAGICAL,
    "defeat_region": ITEM_DEFEAT_REGION,
}
"""The effect code an item card's ``effect`` text plays (see :mod:`.effects`)."""


def item_effect(card: ItemCard) -> tuple[int, int]:
    """``(effect code, param)`` an item card plays: its region for ``defeat_region``."""
    code = ITEM_EFFECT_OF[card.effect]
    return code, REGIONS.index(card.region) if code == ITEM_DEFEAT_REGION and card.region else 0


def item_problem(state: AxiaState, item: int) -> str:
    """Why the mover cannot play item ``item`` now, or ``""`` when they can."""
    if state.item_played:
        return "you already played an item this turn"
    if item not in state.items[state.current_seat]:
        return "that item is not in your hand"
    use = use_problem(state, item)
    return f"that item has no legal use now ({use})" if use else ""


def use_problem(state: AxiaState, item: int) -> str:
    """Why item ``item``, in the mover's hand, has no use now, or ``""``."""
    effect, param = state.game.item_effects[item]
    if effect == PHYSICAL_AS_MAGIC:
        if state.die_taken:
            return "you already took this turn's die"
        if state.physical_as_magic:
            return "your Physical dice already count as Magic this turn"
        physical = range(state.game.num_physical)
        if all(state.dice_taken_by[d] >= 0 for d in physical):
            return "no Physical die is left to take"
        return ""
    if effect == ITEM_CHANGE_DIE:
        return "" if any(t < 0 for t in state.dice_taken_by) else "no die is left unused"
    if effect == ITEM_HIT_DIAGONAL:
        if diagonal_pairs(state):
            return ""
        return "no two live non-magical beasts are diagonally adjacent"
    if effect_targets(state, effect, param):
        return ""
    if effect == ITEM_DEFEAT_NONMAGICAL:
        return "no live non-magical beast is left to defeat"
    return f"no live beast of the {REGIONS[param]} is left to defeat"


def item_actions(state: AxiaState) -> list[int]:
    """The items the mover can play now, ascending ids."""
    if state.item_played:
        return []
    held = state.items[state.current_seat]
    if not held:
        return []
    return [ITEM + i for i in sorted(set(held)) if not use_problem(state, i)]


def play_item(state: AxiaState, item: int) -> None:
    """Play item ``item`` (playable): it leaves the hand, and its effect starts."""
    state.items[state.current_seat].remove(item)
    state.item_played = True
    effect, param = state.game.item_effects[item]
    if effect == PHYSICAL_AS_MAGIC:
        state.physical_as_magic = True
    else:
        state.effect_stack.append((effect, param))
