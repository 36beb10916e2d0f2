"""The solver against brute-force minimax on tiny Cage variants, and its known results."""

from __future__ import annotations

import random

import pytest

from gameshelf.agents.solver import (
    HorizonKeyed,
    Solver,
    generic_solver_key,
    solve,
    state_solver_key,
)
from gameshelf.core.game import State
from gameshelf.core.registry import load


def brute(state: State, me: int, plies: int) -> tuple[float, float]:
    """Interval minimax with no table and no pruning: the value for ``me`` lies in the pair."""
    if state.is_terminal():
        value = state.returns()[me]
        return value, value
    if plies == 0:
        return -1.0, 1.0
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(brute(child, me, plies - 1))
    pick = max if state.current_player() == me else min
    return pick(v[0] for v in values), pick(v[1] for v in values)


def expected(interval: tuple[float, float]) -> str:
    return {(1.0, 1.0): "win", (-1.0, -1.0): "loss", (0.0, 0.0): "draw"}.get(interval, "?")


def sample_positions(game_string: str, count: int, seed: int) -> list[State]:
    game = load(game_string)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 7)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize(
    "game_string",
    [
        "cage(players=2,stock=2:1,max_plies=7)",
        "cage(players=2,stock=3:1,continue_after_last_drop=true)",
        "cage(players=2,stock=2:2,max_plies=8,repetition_draw=2)",
        "cage(players=3,stock=2:1:1,max_plies=6)",
        "cage(players=2,stock=3:1,no_reverse=semantic,allow_noop_twists=false)",
    ],
)
def test_matches_brute_force(game_string: str) -> None:
    disagreements = []
    decided = 0
    for state in sample_positions(game_string, 6, seed=len(game_string)):
        me = state.current_player()
        for plies in range(1, 5):
            solver = Solver(state.game)
            solver.me = me
            got = solver.classify(state, plies)
            want = expected(brute(state, me, plies))
            decided += want != "?"
            if (got in ("win", "loss", "draw") or want != "?") and got != want:
                disagreements.append((state.position(), plies, got, want))
    assert disagreements == []
    assert decided > 0


def test_three_one_with_continuation_is_a_win_in_nine() -> None:
    game = load("cage(players=2,stock=3:1,continue_after_last_drop=true)")
    result = solve(game, 10)
    assert result.verdict == "win"
    assert result.plies == 9
    assert result.summary() == "win in 9 plies"
    assert result.best_moves == ["W0", "W2", "W4", "W6"]


def test_the_best_move_leaves_the_opponent_lost() -> None:
    game = load("cage(players=2,stock=3:1,continue_after_last_drop=true)")
    state = game.new_initial_state()
    state.play("W0")
    result = solve(game, 8, state)
    assert (result.verdict, result.plies) == ("loss", 8)


def test_short_cap_gives_a_proven_draw() -> None:
    result = solve(load("cage(players=2,stock=1:1,max_plies=4)"), 6)
    assert result.verdict == "draw"
    assert result.summary().startswith("draw")


def test_a_short_horizon_is_unknown() -> None:
    result = solve(load("cage"), 2)
    assert result.verdict == "unknown"
    assert result.summary() == "unknown within horizon (2 plies)"
    assert len(result.best_moves) == 31


def test_refuses_games_with_chance() -> None:
    with pytest.raises(ValueError, match="deterministic"):
        solve(load("axia"), 3)


def test_the_solver_keys_a_state_by_its_own_horizon_key() -> None:
    # The Cage's draw rules depend on history: its state says what its future depends on,
    # and the solver asks it instead of reading its fields.
    cage = load("cage(players=2,stock=2:2,max_plies=8,repetition_draw=2)")
    state = cage.new_initial_state()
    assert isinstance(state, HorizonKeyed)
    solver = Solver(cage)
    assert solver.key is state_solver_key
    assert solver.key(state, 3) == state.horizon_key(3)


def test_a_state_without_a_horizon_key_gets_the_generic_key() -> None:
    axiom = load("axiom")
    assert not isinstance(axiom.new_initial_state(), HorizonKeyed)
    assert Solver(axiom).key is generic_solver_key
    with pytest.raises(TypeError, match="horizon_key"):
        state_solver_key(axiom.new_initial_state(), 2)


def test_the_cage_horizon_key_sees_the_cap_only_within_reach() -> None:
    state = load("cage(players=2,stock=2:2,max_plies=8)").new_initial_state()
    state.play("W0")
    other = load("cage(players=2,stock=2:2,max_plies=8)").new_initial_state()
    other.play("W0")
    other.ply = 3  # the same board reached later: only a search that can reach the cap cares
    assert state.horizon_key(2) == other.horizon_key(2)
    assert state.horizon_key(7) != other.horizon_key(7)
