"""The hit step's core: which dice can hit what, and what a hit or a defeat does.

A hit wounds an untouched beast and defeats a wounded one; a die showing the space's printed
critical number (or any die on a space with none) defeats at once. A defeat queues the beast's
immediate effect, if it has one, on the effect stack (see :mod:`.effects`). Functions take the
state and change it in place; the player concerned is always the one to move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import DIE_HIT, WASTE
from .board import DIAGONAL_PAIRS, SPACES
from .scoring import DEFEATED, WOUNDED

if TYPE_CHECKING:
    from .rules import AxiaState


def alive(state: AxiaState) -> list[int]:
    """The mover's spaces holding a beast not yet defeated, ascending."""
    marks, card_spaces = state.marks[state.current_seat], state.card_spaces[state.current_seat]
    return [s for s in range(SPACES) if card_spaces[s] >= 0 and marks[s] != DEFEATED]


def die_targets(state: AxiaState, die: int) -> list[int]:
    """The spaces die ``die`` may hit: all live beasts for a Magic die, the non-magical ones
    for a Physical die ("magical beasts can only be wounded by magic hits")."""
    if state.game.is_magic_die(die):
        return alive(state)
    return live_nonmagical(state)


def live_nonmagical(state: AxiaState) -> list[int]:
    """The mover's live non-magical beasts, ascending."""
    magic, card_spaces = state.game.tables.magic, state.card_spaces[state.current_seat]
    return [s for s in alive(state) if not magic[card_spaces[s]]]


def hit_actions(state: AxiaState) -> list[int]:
    """Die hits in ascending id order (die, then space), then the dice taken to waste.

    The live spaces are found once: a Magic die (or any die under the physical-as-magic
    boost) hits every one of them, a Physical die only the non-magical ones. A die that can
    hit nothing may be taken to waste, but with ``must_hit_if_possible`` only when no die can
    hit.
    """
    game = state.game
    taken_by = state.dice_taken_by
    card_spaces = state.card_spaces[state.current_seat]
    live = alive(state)
    plain: list[int] | None = None
    every = state.physical_as_magic
    physical = game.num_physical
    out: list[int] = []
    useless = []
    for die in range(game.num_dice):
        if taken_by[die] >= 0:
            continue
        if every or die >= physical:
            targets = live
        else:
            if plain is None:
                magic = game.tables.magic
                plain = [s for s in live if not magic[card_spaces[s]]]
            targets = plain
        if targets:
            base = DIE_HIT + die * SPACES
            out += [base + s for s in targets]
        else:
            useless.append(die)
    if not out or not game.must_hit_if_possible:
        out += [WASTE + die for die in useless]
    return out


def hit(state: AxiaState, space: int, critical: bool) -> None:
    """One hit on ``space`` of the mover: a wound, or a defeat when critical or wounded."""
    marks = state.marks[state.current_seat]
    if marks[space] == WOUNDED or critical:
        defeat(state, space)
    else:
        marks[space] = WOUNDED


def defeat(state: AxiaState, space: int) -> None:
    """Defeat the beast on ``space`` and queue its immediate effect (if any)."""
    seat = state.current_seat
    state.marks[seat][space] = DEFEATED
    effect, param = state.game.effect_of_space[state.card_spaces[seat][space]]
    if effect >= 0:
        state.effect_stack.append((effect, space if param < 0 else param))


def die_hit(state: AxiaState, value: int, space: int) -> None:
    """A hit by a die showing ``value``: critical on the printed number, or on any number
    where none is printed."""
    printed = state.game.tables.critical[state.card_spaces[state.current_seat][space]]
    hit(state, space, printed == 0 or printed == value)


def hits_in_order(state: AxiaState, spaces: list[int], defeats: bool) -> None:
    """Hit (or defeat) several spaces; their effects then resolve in the order given."""
    before = len(state.effect_stack)
    for space in spaces:
        if defeats:
            defeat(state, space)
        else:
            hit(state, space, False)
    state.effect_stack[before:] = reversed(state.effect_stack[before:])


def diagonal_pairs(state: AxiaState) -> list[tuple[int, int]]:
    """Diagonal pairs of live non-magical beasts: the item does not say it hits magical
    beasts, and those "can only be wounded by magic hits"."""
    live = set(live_nonmagical(state))
    return [(a, b) for a, b in DIAGONAL_PAIRS if a in live and b in live]
