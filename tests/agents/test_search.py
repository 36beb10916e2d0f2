"""Search agents on hand-built Cage and Axiom positions, plus budgets, seeds and reuse."""

from __future__ import annotations

import pytest

from gameshelf.agents import AlphaBetaAgent, GreedyAgent, ISMCTSAgent, MCTSAgent, make_agent
from gameshelf.agents.levels import build_level
from gameshelf.agents.solver import solve
from gameshelf.core.game import State
from gameshelf.core.registry import load


def cage_after(moves: str, game_string: str = "cage") -> State:
    state = load(game_string).new_initial_state()
    for move in moves.split():
        state.play(move)
    return state


WIN_IN_ONE = "W0 O1 W0 O1"  # player 0 completes the vertical line in column 0 with W0
MUST_DEFEND = "W0 O1 W0"  # player 1 must stop W0


def agents_for(game_string: str) -> list[object]:
    game = load(game_string)
    return [
        MCTSAgent(game, seed=1, iterations=400),
        AlphaBetaAgent(game, seed=1, max_depth=3, node_budget=20_000),
        GreedyAgent(game, seed=1),
    ]


@pytest.mark.parametrize("index", range(3))
def test_takes_a_win_in_one(index: int) -> None:
    state = cage_after(WIN_IN_ONE)
    agent = agents_for("cage")[index]
    action = agent.step(state)  # type: ignore[attr-defined]
    state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("index", range(3))
def test_stops_a_win_in_one(index: int) -> None:
    state = cage_after(MUST_DEFEND)
    agent = agents_for("cage")[index]
    state.apply_action(agent.step(state))  # type: ignore[attr-defined]
    assert not state.is_terminal()
    assert solve(state.game, 1, state).verdict != "win"


def test_alphabeta_finds_the_forced_win_the_solver_finds() -> None:
    game = load("cage(players=2,stock=3:1,continue_after_last_drop=true)")
    state = game.new_initial_state()
    agent = AlphaBetaAgent(game, seed=3, max_depth=9, node_budget=2_000_000)
    action = agent.step(state)
    assert state.action_to_string(action) in {"W0", "W2", "W4", "W6"}
    assert agent.last_value > 9_000  # a proven win, not a heuristic score


def test_mcts_solver_proves_a_win_in_one_at_the_root() -> None:
    state = cage_after(WIN_IN_ONE)
    agent = MCTSAgent(state.game, seed=2, iterations=2000)
    agent.step(state)
    assert agent.last_iterations < 2000  # the proven root stopped the search early


def test_mcts_reuses_its_tree() -> None:
    game = load("cage")
    state = game.new_initial_state()
    agent = MCTSAgent(game, seed=4, iterations=300)
    state.apply_action(agent.step(state))
    state.apply_action(make_agent("random", game, seed=5).step(state))
    agent.step(state)
    assert agent.reused_visits > 0


def test_same_seed_same_decisions() -> None:
    state = cage_after("W0 O1 Y3")
    # The levels in their fixed-budget mode: on the clock a move depends on machine load.
    for level in ("easy", "medium"):
        first = build_level(state.game, level, seed=8, fixed=True).step(state)
        assert build_level(state.game, level, seed=8, fixed=True).step(state) == first
    first = make_agent("greedy", state.game, seed=8).step(state)
    assert make_agent("greedy", state.game, seed=8).step(state) == first


def test_mcts_plays_chance_games() -> None:
    game = load("axia(players=1)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    action = MCTSAgent(game, seed=1, iterations=20).step(state)
    assert action in state.legal_actions()


def test_ismcts_on_a_perfect_information_game_is_plain_search() -> None:
    state = cage_after(WIN_IN_ONE)
    agent = ISMCTSAgent(state.game, seed=1, iterations=300)
    state.apply_action(agent.step(state))
    assert state.returns() == [1.0, -1.0]


def test_multiplayer_mcts_takes_its_win() -> None:
    state = cage_after("W0 R1 B2 W0 R1 B2", "cage(players=3)")
    agent = MCTSAgent(state.game, seed=1, iterations=300)
    state.apply_action(agent.step(state))
    assert state.returns() == [1.0, -1.0, -1.0]


def test_axiom_alphabeta_answers_with_a_legal_move() -> None:
    game = load("axiom")
    state = game.new_initial_state()
    agent = AlphaBetaAgent(game, seed=1, max_depth=2, node_budget=400)
    assert agent.step(state) in state.legal_actions()
    assert agent.completed_depth >= 1


def test_plain_mcts_refuses_hidden_cards() -> None:
    with pytest.raises(ValueError, match="ismcts"):
        MCTSAgent(load("axia"))
    assert isinstance(make_agent("mcts", load("axia"), seed=1), ISMCTSAgent)


def test_alphabeta_refuses_games_it_cannot_search() -> None:
    with pytest.raises(ValueError, match="two-player deterministic"):
        AlphaBetaAgent(load("cage(players=3)"))
    with pytest.raises(ValueError, match="two-player deterministic"):
        AlphaBetaAgent(load("axia"))
