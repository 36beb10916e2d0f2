"""Chance nodes: what each queued draw, deal or roll draws from, and what its outcome does.

Every random step is an entry ``(kind, seat, slot)`` of the state's chance queue; its outcomes
are the cards left in the deck it draws from (uniformly) or the six die faces, so the state
holds no hidden deck order.
"""

from __future__ import annotations

import random
from bisect import bisect
from itertools import accumulate
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


_UNIFORM_CUMULATIVE: dict[int, list[float]] = {}


def _uniform_cumulative(n: int) -> list[float]:
    """The running sums ``Random.choices`` forms from ``n`` weights of ``1.0 / n`` (memoised)."""
    cumulative = _UNIFORM_CUMULATIVE.get(n)
    if cumulative is None:
        cumulative = _UNIFORM_CUMULATIVE[n] = list(accumulate([1.0 / n] * n))
    return cumulative


def draw_outcome(state: AxiaState, rng: random.Random) -> int:
    """The next chance step's outcome drawn from ``rng`` as ``State.sample_chance`` draws it
    (``Random.choices`` over the sorted outcomes with their uniform weights)."""
    pool = chance_pool(state, state.chance_queue[0][0])
    n = len(pool)
    cumulative = _uniform_cumulative(n)
    index = bisect(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, n - 1)
    return sorted(pool)[index]


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
