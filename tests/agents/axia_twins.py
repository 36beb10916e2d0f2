"""AXIA positions with hidden cards, and their twins: copies that differ only in what one seat
cannot see (shared by the hidden-information and analysis tests)."""

from __future__ import annotations

import random

from gameshelf.core.registry import load
from gameshelf.games.axia.rules import AxiaState


def advance_to(game_string: str, phase: int, seed: int, skip: int = 0) -> AxiaState:
    """Random play (seeded) until a decision in ``phase`` (after ``skip`` such decisions)."""
    game = load(game_string)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        assert isinstance(state, AxiaState)
        if state.phase == phase:
            if seen == skip:
                return state
            seen += 1
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("the game ended before the phase was reached")


def hidden_twin(state: AxiaState, me: int) -> AxiaState:
    """A copy where another seat's hand card and item trade places with the decks' cards."""
    twin = state.clone()
    other = (me + 1) % state.game.players
    changed = False
    if twin.hands[other] and twin.territory_deck:
        a, b = twin.hands[other][0], twin.territory_deck[-1]
        twin.hands[other][0], twin.territory_deck[-1] = b, a
        twin.hands[other].sort()
        changed = True
    if twin.items[other] and twin.item_deck:
        a, b = twin.items[other][0], twin.item_deck[0]
        twin.items[other][0], twin.item_deck[0] = b, a
        changed = True
    if twin.placements[other] >= 0 and twin.territory_deck:
        card, cell = divmod(twin.placements[other], 9)
        twin.placements[other], twin.territory_deck[0] = twin.territory_deck[0] * 9 + cell, card
        changed = True
    assert changed, "the position has no hidden card to swap"
    return twin
