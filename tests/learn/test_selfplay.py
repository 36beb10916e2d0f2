"""Self-play on the JAX Cage: legal games in the real engine and the right targets."""

from __future__ import annotations

import jax
import numpy as np

from gameshelf.core.registry import load
from gameshelf.learn.cage.selfplay import GameCollector, Plies, SelfPlay
from gameshelf.learn.cage.sizes import FEATURES, NUM_ACTIONS
from gameshelf.learn.network import NetConfig, init_network
from gameshelf.learn.settings import SearchConfig


def test_self_play_games_are_legal_and_their_targets_match_their_results() -> None:
    selfplay = SelfPlay(batch=8, plies=12, search=SearchConfig(simulations=8, considered=4))
    net = init_network(NetConfig(2, 16, 1), 0, FEATURES, (NUM_ACTIONS,))
    collector = GameCollector(8)
    states = selfplay.initial()
    games: list[list[int]] = []
    targets: list[np.ndarray] = []
    for call in range(4):
        states, plies = selfplay.run(net, states, jax.random.PRNGKey(call))
        samples, finished = collector.add(Plies(*(np.asarray(x) for x in plies)))
        assert len(samples.value) == sum(len(moves) for moves in finished)
        # The policy target is a distribution over the legal canonical actions.
        assert np.allclose(samples.policy.sum(axis=1), 1.0, atol=1e-4)
        assert not np.any(samples.policy[~samples.mask] > 0)
        games += finished
        start = 0
        for moves in finished:
            targets.append(samples.value[start : start + len(moves)])
            start += len(moves)
    assert len(games) >= 8
    game = load("cage")
    for moves, values in zip(games, targets, strict=True):
        state = game.new_initial_state()
        for action in moves:
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.is_terminal()
        result = state.returns()
        # Each position's value target is the final result for the player who moved there.
        assert list(values[:, 0]) == [result[ply % 2] for ply in range(len(moves))]
