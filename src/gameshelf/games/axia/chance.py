"""Chance nodes: what each queued draw, deal or roll draws from, and what its outcome does.

Every random step is an entry ``(kind, seat, slot)`` of the state's chance queue; its outcomes
are the cards left in the deck it draws from (uniformly) or the six die faces, so the state
holds no hidden deck order.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .actions import C_HAND, C_ITEM, C_ROLL, C_SCORE, C_SLOT

if TYPE_CHECKING:
    from .rules import AxiaState

FACES: tuple[int, ...] = tuple(range(6))
"""A roll's outcomes: the faces 1..6 as 0..5."""


def chance_pool(state: AxiaState, kind: int) -> list[int] | tuple[int, ...]:
    """The outcomes of a chance step of ``kind`` (the deck itself for a draw: not a copy)."""
    if kind == C_ROLL:
        return FACES
    if kind in (C_SCORE, C_SLOT):
        return state.scoring_deck
    if kind == C_ITEM:
        return state.item_deck
    return state.territory_deck


def draw_outcome(state: AxiaState, rng: random.Random) -> int:
    """The next chance step's outcome, drawn from ``rng``.

    Every chance step of AXIA is uniform (a fact of its protocol: each outcome has
    probability ``1 / n``), so an outcome is drawn the way a decision is drawn:
    ``rng.choice`` over the sorted outcomes. ``sample_chance`` and the fast rollout both
    call this, so they consume ``rng`` alike by construction.
    """
    return rng.choice(sorted(chance_pool(state, state.chance_queue[0][0])))


def apply_chance(state: AxiaState, outcome: int) -> None:
    """Apply ``outcome`` to the chance step at the head of the queue."""
    kind, seat, slot = state.chance_queue.pop(0)
    if kind == C_ROLL:
        state.dice[slot] = outcome + 1
    elif kind == C_SCORE:
        state.scoring_deck.remove(outcome)
        state.scoring_offers[seat].append(outcome)
    elif kind == C_SLOT:
        state.scoring_deck.remove(outcome)
        state.scoring_slots[seat][slot] = outcome
    elif kind == C_ITEM:
        state.item_deck.remove(outcome)
        state.items[seat].append(outcome)
    elif kind == C_HAND:
        state.territory_deck.remove(outcome)
        state.hands[seat].append(outcome)
        state.hands[seat].sort()
    else:
        state.territory_deck.remove(outcome)
        state.face_up[slot] = outcome
