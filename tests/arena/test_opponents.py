"""The OpenSpiel opponent: registered by name, legal, reproducible, on the clock, refusals."""

from __future__ import annotations

import time

import pytest

from gameshelf.agents import AGENTS, make_agent
from gameshelf.agents.levels import level_spec
from gameshelf.arena.match import MatchSpec, play_match
from gameshelf.arena.opponents import OpenSpielMCTSAgent
from gameshelf.core.registry import load

WIN_IN_ONE = [0, 28, 0, 37]
"""W0 O4 W0 B5: white (player 0) completes column 0 by dropping W0 again."""


def test_registered_for_the_arena_with_hards_time() -> None:
    assert "openspiel-mcts" in AGENTS
    game = load("cage")
    agent = make_agent("openspiel-mcts", game, seed=1)
    assert isinstance(agent, OpenSpielMCTSAgent)
    assert agent.time_limit == level_spec(game, "hard").seconds


def test_takes_a_win_in_one() -> None:
    game = load("cage")
    state = game.new_initial_state()
    for action in WIN_IN_ONE:
        state.apply_action(action)
    agent = OpenSpielMCTSAgent(game, seed=3, simulations=400)
    assert state.action_to_string(agent.step(state)) == "W0"


def test_fixed_simulations_reproduce_a_seed() -> None:
    game = load("cage")
    state = game.new_initial_state()
    moves = [OpenSpielMCTSAgent(game, seed=7, simulations=60).step(state) for _ in range(2)]
    assert moves[0] == moves[1]
    assert moves[0] in state.legal_actions()


def test_the_clock_stops_the_search() -> None:
    game = load("cage")
    state = game.new_initial_state()
    agent = OpenSpielMCTSAgent(game, seed=1, time_limit=0.15)
    clock = time.perf_counter()
    action = agent.step(state)
    elapsed = time.perf_counter() - clock
    assert action in state.legal_actions()
    assert elapsed < 1.5  # generous: the search stops between simulations
    assert agent.last_simulations >= 1


def test_plays_a_whole_arena_game_on_three_player_cage() -> None:
    result = play_match(MatchSpec("cage(players=3,max_plies=12)", ("openspiel-mcts",) * 3, seed=5))
    assert result.plies <= 12
    assert sum(result.moves) == result.plies


def test_refuses_hidden_cards_and_bad_budgets() -> None:
    with pytest.raises(ValueError, match="hidden cards"):
        OpenSpielMCTSAgent(load("axia(players=2)"), seed=1)
    with pytest.raises(ValueError, match="simulations must be at least 1"):
        OpenSpielMCTSAgent(load("cage"), seed=1, simulations=0)
    with pytest.raises(ValueError, match="time_limit must be a positive"):
        OpenSpielMCTSAgent(load("cage"), seed=1, time_limit=-1.0)


def test_fixed_levels_replay_move_for_move() -> None:
    spec = MatchSpec("cage(max_plies=8)", ("hard-fixed", "medium-fixed"), seed=11)
    first, second = play_match(spec), play_match(spec)
    assert first.record["moves"] == second.record["moves"]
    assert first.plies >= 5
