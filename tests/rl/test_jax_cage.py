"""The JAX Cage against the reference engine: identical boards, masks, results, step by step."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import gameshelf
from gameshelf.games.cage.board import line_colours
from gameshelf.games.cage.rules import CageState
from gameshelf.rl.jax.cage import CageEnv, cells, random_legal_actions


def _rollout(
    env: CageEnv, batch: int, steps: int, seed: int, drops: float = 1.0
) -> tuple[np.ndarray, ...]:
    """Random legal play of ``batch`` games for ``steps`` steps; every intermediate state.

    With ``drops`` < 1 a legal drop is offered only with that chance at each step, so that
    long runs of twists and flips (and repetition draws) come often.
    """

    def one_step(carry: tuple, _: None) -> tuple:
        states, key = carry
        key, sub, coin = jax.random.split(key, 3)
        mask = states.legal_action_mask
        offer = jax.random.uniform(coin, (batch, 1)) < drops
        mask = mask & (offer | (jnp.arange(55) >= 48))
        actions = random_legal_actions(
            sub, jnp.where(mask.any(-1, keepdims=True), mask, states.legal_action_mask)
        )
        nxt = jax.vmap(env.step)(states, actions)
        out = (
            actions,
            states.terminated,
            cells(nxt),
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


@pytest.mark.parametrize(
    ("players", "batch", "drops", "least"),
    [(2, 256, 1.0, 3_400), (3, 160, 1.0, 3_400), (4, 160, 1.0, 3_400), (2, 96, 0.15, 3_000),
     (3, 96, 0.15, 3_000), (4, 96, 0.15, 3_000)],
)  # fmt: skip
def test_jax_cage_matches_the_reference_engine_step_by_step(
    players: int, batch: int, drops: float, least: int
) -> None:
    env = CageEnv(players=players)
    actions, was_done, boards, masks, done, rewards, to_move = _rollout(
        env, batch, 120, players, drops
    )
    game = gameshelf.load(f"cage(players={players})")
    repetitions = 0
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
            elif action >= 48 and not line_colours(state.board) and state.ply < 200:
                repetitions += 1  # no line, no cap, not a drop: the repetition rule
            compared += 1
    assert compared >= least  # over 10,000 compared steps for each of the two kinds of play
    if drops < 1:
        assert repetitions >= 10, repetitions  # the repetition history is really exercised


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
    assert np.array_equal(np.asarray(cells(after)), np.asarray(cells(state)))
    assert not np.asarray(after.rewards).any() and not np.asarray(after.legal_action_mask).any()
    obs = np.asarray(env.observe(state, 0))
    assert obs.shape == (3, 8, 7)
    assert obs[:, 0, 0].all() and obs[:, 0, 6].all()  # white column, and it is player 0's
    assert not np.asarray(env.observe(state, 1))[:, 0, 6].any()


def test_bad_player_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        CageEnv(players=5)


def _bits(cells_set: set[int]) -> int:
    return sum(1 << i for i in cells_set)


def test_bitboard_lines_are_exactly_the_engine_lines() -> None:
    from gameshelf.games.cage.geometry import LINES
    from gameshelf.rl.jax.cage import _has_line

    lines = {frozenset(line) for line in LINES}
    assert len(lines) == 28
    for line in lines:  # each line alone, and each line less one cell
        assert bool(_has_line(jnp.uint32(_bits(set(line)))))
        for cell in line:
            assert not bool(_has_line(jnp.uint32(_bits(set(line) - {cell}))))
    rng = np.random.default_rng(7)
    for _ in range(300):  # random boards: a line is found exactly when one is there
        occupied = {int(i) for i in np.flatnonzero(rng.random(24) < 0.3)}
        expected = any(line <= occupied for line in lines)
        assert bool(_has_line(jnp.uint32(_bits(occupied)))) == expected


def test_bitboard_twists_flip_and_gravity_match_the_geometry_tables() -> None:
    from gameshelf.games.cage.board import flipped, settle, twisted
    from gameshelf.games.cage.geometry import TWIST_SOURCES
    from gameshelf.rl.jax.cage import TWIST_BASE

    env = CageEnv(players=2)
    rng = np.random.default_rng(11)
    assert len(TWIST_SOURCES) == 6
    for _ in range(60):
        board = [0] * 24
        for column in range(8):
            for z in range(int(rng.integers(0, 4))):
                board[8 * z + column] = int(rng.integers(1, 7))
        heights = settle(board[:])
        boards = np.zeros(4, dtype=np.uint32)  # bit planes of colour + 1, then occupancy
        for i, value in enumerate(board):
            for k in range(3):
                if value >> k & 1:
                    boards[k] |= np.uint32(1 << i)
            if value:
                boards[3] |= np.uint32(1 << i)
        state = env.init()._replace(boards=jnp.asarray(boards), last=jnp.int32(-1))
        for action in range(TWIST_BASE, 55):
            after = env.step(state, jnp.int32(action))
            if action == 54:
                expected = flipped(board, heights)[0]
            else:
                expected = twisted(board, action - TWIST_BASE)[0]
            assert list(np.asarray(cells(after))) == expected, action
            assert int(after.boards[3]) == _bits({i for i, v in enumerate(expected) if v})


def test_random_legal_actions_are_legal_and_uniform() -> None:
    rng = np.random.default_rng(3)
    for size in (7, 55, 70):
        mask = rng.random((500, size)) < rng.random((500, 1))
        mask[:3] = False
        actions = np.asarray(random_legal_actions(jax.random.PRNGKey(size), jnp.asarray(mask)))
        assert ((actions >= 0) & (actions < size)).all()
        assert (mask[np.arange(500), actions] | ~mask.any(axis=1)).all()
    row = np.zeros(55, dtype=bool)
    row[[1, 2, 30, 40, 54]] = True
    draws = np.asarray(
        random_legal_actions(jax.random.PRNGKey(0), jnp.asarray(np.tile(row, (50_000, 1))))
    )
    counts = np.bincount(draws, minlength=55)
    assert counts[~row].sum() == 0
    assert (np.abs(counts[row] - 10_000) < 500).all()  # 5 sigma is about 450
