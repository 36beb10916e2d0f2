"""AXIA determinisation: a full state consistent with what one seat may know, drawn at random.

Every card the observer cannot see is pooled and dealt again at random into the same hidden
places (opponents' hands, items and face-down placements, the decks, the discard), with the
same counts, so two states that differ only in hidden cards give the same samples.
"""

from __future__ import annotations

import random

from gameshelf.core.game import State
from gameshelf.games.axia.actions import (
    C_FACEUP,
    C_ROLL,
    C_SLOT,
    PHASE_MULLIGAN,
    PHASE_PLACE,
    PHASE_SCORE_PICK,
)
from gameshelf.games.axia.rules import AxiaState


def _deal(rng: random.Random, pool: list[int], sizes: list[int]) -> list[list[int]]:
    cards = sorted(pool)
    rng.shuffle(cards)
    out = []
    start = 0
    for size in sizes:
        out.append(cards[start : start + size])
        start += size
    return out


def axia_determinize(state: State, observer: int, rng: random.Random) -> State:
    """A random AXIA world consistent with seat ``observer``'s knowledge.

    Public: grids, marks, dice, face-up cards, deck and hand sizes, scoring cards after the
    set-up, the effect stack. Private to ``observer``: its hand, items, offer, pending placement
    and (during the set-up) its scoring cards. Everything else is redealt.
    """
    if not isinstance(state, AxiaState):
        raise TypeError("axia_determinize needs an AXIA state")
    world = state.clone()
    world.actions_played = []  # the real history holds other seats' draws
    others = [q for q in range(state.game.players) if q != observer]
    _redeal_territory(state, world, observer, others, rng)
    _redeal_items(state, world, observer, others, rng)
    if state.phase == PHASE_SCORE_PICK:
        _redeal_scoring(state, world, observer, others, rng)
    else:
        seen = {c for q in range(state.game.players) for c in state.scoring_slots[q] if c >= 0}
        unknown = [c for c in range(len(state.game.cards.scoring)) if c not in seen]
        world.scoring_deck = sorted(_deal(rng, unknown, [len(state.scoring_deck)])[0])
    return world


def _redeal_territory(
    state: AxiaState, world: AxiaState, observer: int, others: list[int], rng: random.Random
) -> None:
    s, w = state, world
    total = len(s.game.cards.territory)
    known = {c for grid in s.grid for c in grid if c >= 0}
    known |= {c for c in s.face_up if c >= 0}
    known |= set(s.hands[observer])
    if s.placements[observer] >= 0:
        known.add(s.placements[observer] // 9)
    unknown = [c for c in range(total) if c not in known]
    pending_others = [q for q in others if s.placements[q] >= 0]
    sizes = [len(s.hands[q]) for q in others]
    sizes += [1] * len(pending_others) + [len(s.territory_deck), len(s.territory_discard)]
    dealt = _deal(rng, unknown, sizes)
    for index, q in enumerate(others):
        w.hands[q] = sorted(dealt[index])
    offset = len(others)
    for index, q in enumerate(pending_others):
        free = [cell for cell in range(9) if s.grid[q][cell] < 0]
        w.placements[q] = dealt[offset + index][0] * 9 + rng.choice(free)
    w.territory_deck = sorted(dealt[-2])
    w.territory_discard = sorted(dealt[-1])


def _redeal_items(
    state: AxiaState, world: AxiaState, observer: int, others: list[int], rng: random.Random
) -> None:
    s, w = state, world
    total = len(s.game.cards.items)
    mine = set(s.items[observer])
    unknown = [c for c in range(total) if c not in mine]
    sizes = [len(s.items[q]) for q in others] + [len(s.item_deck)]
    dealt = _deal(rng, unknown, sizes)
    for index, q in enumerate(others):
        w.items[q] = dealt[index]
    w.item_deck = sorted(dealt[-1])


def _redeal_scoring(
    state: AxiaState, world: AxiaState, observer: int, others: list[int], rng: random.Random
) -> None:
    """During the set-up the other seats' offers and chosen scoring cards are hidden."""
    s, w = state, world
    total = len(s.game.cards.scoring)
    known = set(s.scoring_offers[observer]) | {c for c in s.scoring_slots[observer] if c >= 0}
    unknown = [c for c in range(total) if c not in known]
    sizes = [len(s.scoring_offers[q]) for q in others]
    filled = {q: sum(1 for c in s.scoring_slots[q] if c >= 0) for q in others}
    sizes += [filled[q] for q in others] + [len(s.scoring_deck)]
    dealt = _deal(rng, unknown, sizes)
    for index, q in enumerate(others):
        w.scoring_offers[q] = dealt[index]
        chosen = dealt[len(others) + index]
        slots = [-1] * 6
        for card, slot in zip(chosen, rng.sample(range(6), len(chosen)), strict=True):
            slots[slot] = card
        w.scoring_slots[q] = slots
    w.scoring_deck = sorted(dealt[-1])


def axia_visible(state: State, observer: int, action: int) -> bool:
    """Whether ``observer`` sees which ``action`` is taken in ``state`` (a move or a draw)."""
    if not isinstance(state, AxiaState):
        raise TypeError("axia_visible needs an AXIA state")
    if state.is_chance_node():
        kind, player, _ = state.chance_queue[0]
        return kind in (C_ROLL, C_FACEUP, C_SLOT) or player == observer
    if state.current_player() == observer:
        return True
    return state.phase not in (PHASE_SCORE_PICK, PHASE_MULLIGAN, PHASE_PLACE)
