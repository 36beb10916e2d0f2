"""The features and the seat renumbering: the engine side and the JAX side agree."""

from __future__ import annotations

import random

import jax
import numpy as np
import pytest

from gameshelf.core.registry import load
from gameshelf.games.cage.geometry import CELLS, LINES
from gameshelf.games.cage.rules import CageState
from gameshelf.learn.cage.features import encode, seat_tables
from gameshelf.learn.cage.selfplay import jax_features
from gameshelf.learn.cage.sizes import FEATURES, NUM_ACTIONS
from gameshelf.rl.jax.cage import CageEnv


def engine_features(state: CageState) -> np.ndarray:
    tables = seat_tables(state.game.players)
    return encode(
        np,
        tables.order[state.player],
        np.asarray(state.board),
        np.asarray(state.left),
        np.asarray(state.last),
        np.asarray(state.ply),
        state.game.max_plies,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_tables_are_permutations_and_inverses(players: int) -> None:
    tables = seat_tables(players)
    for mover in range(players):
        assert sorted(tables.order[mover]) == list(range(6))
        assert sorted(tables.real_action[mover]) == list(range(NUM_ACTIONS))
        assert list(tables.canonical_action[mover][tables.real_action[mover]]) == list(
            range(NUM_ACTIONS)
        )


def test_the_second_seat_sees_its_own_colours_first() -> None:
    tables = seat_tables(2)
    assert list(tables.order[1]) == [3, 4, 5, 0, 1, 2]
    # Canonical drop of slot 0 into column 5 is seat 1's first colour (3) there: id 29.
    assert tables.real_action[1, 5] == 3 * 8 + 5
    assert tables.real_action[1, 50] == 50  # a twist keeps its id


def test_a_position_and_its_colour_swap_look_the_same_to_their_movers() -> None:
    game = load("cage")
    first = game.new_initial_state()
    first.apply_action(0 * 8 + 2)  # seat 0 drops colour 0 in column 2
    second = game.new_initial_state()
    second.apply_action(0 * 8 + 6)
    second.apply_action(3 * 8 + 2)  # seat 1 drops its first colour in column 2
    a, b = engine_features(first), engine_features(second)
    assert a.shape == (FEATURES,)
    # Seen by its mover, each board holds the opponent's first colour (slot 3) in column 2;
    # the second also the mover's own first colour (slot 0) in column 6.
    assert a[2 * 6 + 3] == 1.0 and b[2 * 6 + 3] == 1.0
    assert b[6 * 6 + 0] == 1.0
    assert a[:144].sum() == 1 and b[:144].sum() == 2
    # Cubies left, the mover's colours first (a quarter of a colour's four per cubie played).
    assert list(a[144:150]) == [1, 1, 1, 0.75, 1, 1]
    assert list(b[144:150]) == [0.75, 1, 1, 0.75, 1, 1]


def test_engine_and_jax_features_agree_along_random_games() -> None:
    env = CageEnv(players=2)
    tables = seat_tables(2)
    game = load("cage")
    rng = random.Random(3)
    step = jax.jit(env.step)
    features = jax.jit(lambda s: jax_features(env, tables, jax.tree.map(lambda x: x[None], s))[0])
    compared = 0
    for _ in range(6):
        state = game.new_initial_state()
        assert isinstance(state, CageState)
        mirror = env.init()
        while not state.is_terminal():
            seen, expected = np.asarray(features(mirror)), engine_features(state)
            # The one-hot parts exactly; the fractions to the last bit or so, since XLA may
            # divide by multiplying with the reciprocal.
            assert np.array_equal(seen[: CELLS * 6], expected[: CELLS * 6])
            assert np.allclose(seen, expected, rtol=0, atol=1e-6)
            compared += 1
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            mirror = step(mirror, action)
    assert compared > 30


def test_a_threat_shows_in_its_line() -> None:
    game = load("cage")
    state = game.new_initial_state()
    for action in (0 * 8 + 0, 3 * 8 + 6, 0 * 8 + 1):  # W0, O6, W1: white threatens W2
        state.apply_action(action)
    assert isinstance(state, CageState)
    features = engine_features(state)
    line = LINES.index((0, 1, 2))
    base = CELLS * 6 + 6 + 8 + 1
    # Seen by seat 1 (to move), white is the opponent's first colour: canonical slot 3.
    shares = features[base + 6 * line : base + 6 * line + 6]
    assert list(shares) == pytest.approx([0, 0, 0, 2 / 3, 0, 0])
    empty = features[base + 6 * len(LINES) + line]
    playable = features[base + 7 * len(LINES) + line]
    assert empty == pytest.approx(1 / 3) and playable == pytest.approx(1 / 3)
    # The row above (cells 8, 9, 10) is all empty, but none of it can be filled yet but 8 and 9.
    above = LINES.index((8, 9, 10))
    assert features[base + 6 * len(LINES) + above] == pytest.approx(1)
    assert features[base + 7 * len(LINES) + above] == pytest.approx(2 / 3)
