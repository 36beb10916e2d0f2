"""Shared helpers for the adapter tests: seeded random play of gameshelf states."""

from __future__ import annotations

import random
from collections.abc import Iterator

from gameshelf.core.game import State
from gameshelf.core.registry import load


def random_states(game_string: str, seed: int, limit: int = 10_000) -> Iterator[State]:
    """Every decision state of one seeded random game (chance resolved by its probabilities)."""
    game = load(game_string)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    steps = 0
    while not state.is_terminal() and steps < limit:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        yield state
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    yield state
