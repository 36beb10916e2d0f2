"""Bots decide from their own view only: states that differ only in what a seat cannot see
must give that seat the same decision (same seed)."""

from __future__ import annotations

import random

import pytest

from gameshelf.agents import make_agent
from gameshelf.agents.axia.determinize import axia_determinize
from gameshelf.agents.axia.search import AxiaSearchAgent
from gameshelf.agents.base import Agent
from gameshelf.agents.determinize import copy_state
from gameshelf.agents.ismcts import ISMCTSAgent
from gameshelf.agents.levels import build_level
from gameshelf.games.axia.actions import PHASE_PLACE, PHASE_TURN
from gameshelf.games.axia.rules import AxiaState

from .axia_twins import advance_to, hidden_twin


def positions() -> list[AxiaState]:
    """Decision points in the place and hit phases of 2- and 3-player games."""
    out = []
    for game_string, seed in (("axia", 3), ("axia(players=3)", 5)):
        out.append(advance_to(game_string, PHASE_PLACE, seed, skip=4))
        out.append(advance_to(game_string, PHASE_TURN, seed, skip=6))
    return out


@pytest.mark.parametrize("index", range(4))
def test_views_match_but_positions_differ(index: int) -> None:
    state = positions()[index]
    me = state.current_player()
    twin = hidden_twin(state, me)
    assert twin.position() != state.position()
    assert twin.view(me) == state.view(me)


@pytest.mark.parametrize("index", range(4))
def test_determinisations_are_identical(index: int) -> None:
    state = positions()[index]
    me = state.current_player()
    twin = hidden_twin(state, me)
    a = axia_determinize(state, me, random.Random(9))
    b = axia_determinize(twin, me, random.Random(9))
    assert a.position() == b.position()


@pytest.mark.parametrize("name", ["greedy", "easy", "medium", "hard"])
@pytest.mark.parametrize("index", range(4))
def test_agents_cannot_tell_the_twins_apart(name: str, index: int) -> None:
    state = positions()[index]
    me = state.current_player()
    twin = hidden_twin(state, me)
    game = state.game

    # Levels in their fixed-budget mode: on the clock, the move would depend on machine load.
    def agent() -> Agent:
        return (
            make_agent(name, game, seed=11)
            if name == "greedy"
            else build_level(game, name, seed=11, fixed=True)
        )

    first = agent().step(state)
    second = agent().step(twin)
    assert first == second


@pytest.mark.parametrize("agent_type", [ISMCTSAgent, AxiaSearchAgent])
def test_search_statistics_are_identical(agent_type: type[ISMCTSAgent]) -> None:
    """Not only the move: IS-MCTS's whole root statistics match between the twins (AXIA's
    search also rates its root moves on a determinisation, never on the true state)."""
    for state in positions():
        me = state.current_player()
        twin = hidden_twin(state, me)
        stats = []
        for world in (state, twin):
            agent = agent_type(world.game, seed=11, iterations=60)
            agent.step(world)
            stats.append(agent.last_stats)
        assert stats[0] == stats[1]


@pytest.mark.parametrize("agent_type", [ISMCTSAgent, AxiaSearchAgent])
def test_a_peeking_bot_is_caught(agent_type: type[ISMCTSAgent]) -> None:
    """The same check on a bot that searches the true state (no determinisation) tells the
    twins apart: the checks above have teeth."""
    differences = 0
    for state in positions():
        me = state.current_player()
        twin = hidden_twin(state, me)
        stats = []
        for world in (state, twin):
            peeker = agent_type(world.game, seed=11, iterations=60, determinizer=copy_state)
            peeker.step(world)
            stats.append(peeker.last_stats)
        differences += stats[0] != stats[1]
    assert differences > 0
