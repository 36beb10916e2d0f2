"""The JAX Cage against the reference engine: identical boards, masks, results, step by step."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import gameshelf
from gameshelf.games.cage.rules import CageState
from gameshelf.rl.jax.cage import CageEnv, random_legal_actions


def _rollout(env: CageEnv, batch: int, steps: int, seed: int) -> tuple[np.ndarray, ...]:
    """Random legal play of ``batch`` games for ``steps`` steps; every intermediate state."""

    def one_step(carry: tuple, _: None) -> tuple:
        states, key = carry
        key, sub = jax.random.split(key)
        actions = random_legal_actions(sub, states.legal_action_mask)
        nxt = jax.vmap(env.step)(states, actions)
        out = (
            actions,
            states.terminated,
            nxt.board,
            nxt.legal_action_mask,
            nxt.terminated,
            nxt.rewards,
            nxt.current_player,
        )
        return (nxt, key), out

    states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(seed), batch))
    run = jax.jit(lambda s, k: jax.lax.scan(one_step, (s, k), None, length=steps))
    _, outputs = run(states, jax.random.PRNGKey(seed + 1))
    return tuple(np.asarray(x) for x in outputs)


def _mask_of(state: CageState) -> np.ndarray:
    mask = np.zeros(55, dtype=bool)
    mask[state.legal_actions()] = True
    return mask


@pytest.mark.parametrize(("players", "batch"), [(2, 256), (3, 160), (4, 160)])
def test_jax_cage_matches_the_reference_engine_step_by_step(players: int, batch: int) -> None:
    env = CageEnv(players=players)
    actions, was_done, boards, masks, done, rewards, to_move = _rollout(env, batch, 120, players)
    game = gameshelf.load(f"cage(players={players})")
    compared = 0
    for b in range(batch):
        state = game.new_initial_state()
        assert isinstance(state, CageState)
        for t in range(actions.shape[0]):
            if was_done[t, b]:
                break
            action = int(actions[t, b])
            assert action in state.legal_actions(), (b, t)
            state.apply_action(action)
            assert list(boards[t, b]) == state.board, (b, t)
            assert np.array_equal(masks[t, b], _mask_of(state)), (b, t)
            assert bool(done[t, b]) == state.is_terminal(), (b, t)
            expected = state.returns() if state.is_terminal() else [0.0] * players
            assert list(rewards[t, b]) == expected, (b, t)
            if not state.is_terminal():
                assert int(to_move[t, b]) == state.current_player()
            compared += 1
    assert compared >= 3_400  # three player counts: over 10,000 compared steps in all


def test_repetition_and_ply_cap_end_the_jax_game_like_the_engine() -> None:
    env = CageEnv(players=2)
    state = env.init()
    for action in [48, 50, 48, 50]:  # T0+ T1+ T0+ T1+ on the empty cage
        state = env.step(state, jnp.int32(action))
        assert not bool(state.terminated)
    state = env.step(state, jnp.int32(48))
    assert bool(state.terminated) and list(np.asarray(state.rewards)) == [0.0, 0.0]
    short = CageEnv(players=2, max_plies=3, repetition_draw=0)
    state = short.init()
    for action in [48, 50, 52]:
        state = short.step(state, jnp.int32(action))
    assert bool(state.terminated)


def test_a_finished_game_stays_finished_and_observations_mark_own_colours() -> None:
    env = CageEnv(players=2)
    state = env.init()
    for action in [0, 25, 0, 25, 0]:  # W0 O1 W0 O1 W0: a white column
        state = env.step(state, jnp.int32(action))
    assert bool(state.terminated) and list(np.asarray(state.rewards)) == [1.0, -1.0]
    after = env.step(state, jnp.int32(1))
    assert np.array_equal(np.asarray(after.board), np.asarray(state.board))
    assert not np.asarray(after.rewards).any() and not np.asarray(after.legal_action_mask).any()
    obs = np.asarray(env.observe(state, 0))
    assert obs.shape == (3, 8, 7)
    assert obs[:, 0, 0].all() and obs[:, 0, 6].all()  # white column, and it is player 0's
    assert not np.asarray(env.observe(state, 1))[:, 0, 6].any()


def test_bad_player_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        CageEnv(players=5)
