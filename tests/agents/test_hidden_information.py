"""Bots decide from their own view only: states that differ only in what a seat cannot see
must give that seat the same decision (same seed)."""

from __future__ import annotations

import random

import pytest

from gameshelf.agents import make_agent
from gameshelf.agents.base import Agent
from gameshelf.agents.determinize import axia_determinize, copy_state
from gameshelf.agents.ismcts import ISMCTSAgent
from gameshelf.agents.levels import build_level
from gameshelf.core.registry import load
from gameshelf.games.axia.actions import PHASE_PLACE, PHASE_TURN
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
    other = (me + 1) % state.game.n
    changed = False
    if twin.hands[other] and twin.tdeck:
        a, b = twin.hands[other][0], twin.tdeck[-1]
        twin.hands[other][0], twin.tdeck[-1] = b, a
        twin.hands[other].sort()
        changed = True
    if twin.items[other] and twin.ideck:
        a, b = twin.items[other][0], twin.ideck[0]
        twin.items[other][0], twin.ideck[0] = b, a
        changed = True
    if twin.pending[other] >= 0 and twin.tdeck:
        card, cell = divmod(twin.pending[other], 9)
        twin.pending[other], twin.tdeck[0] = twin.tdeck[0] * 9 + cell, card
        changed = True
    assert changed, "the position has no hidden card to swap"
    return twin


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


@pytest.mark.parametrize("name", ["greedy", "easy", "medium"])
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


def test_search_statistics_are_identical() -> None:
    """Not only the move: IS-MCTS's whole root statistics match between the twins."""
    for state in positions():
        me = state.current_player()
        twin = hidden_twin(state, me)
        stats = []
        for world in (state, twin):
            agent = ISMCTSAgent(world.game, seed=11, iterations=60)
            agent.step(world)
            stats.append(agent.last_stats)
        assert stats[0] == stats[1]


def test_a_peeking_bot_is_caught() -> None:
    """The same check on a bot that searches the true state (no determinisation) tells the
    twins apart: the checks above have teeth."""
    differences = 0
    for state in positions():
        me = state.current_player()
        twin = hidden_twin(state, me)
        stats = []
        for world in (state, twin):
            peeker = ISMCTSAgent(world.game, seed=11, iterations=60, determinizer=copy_state)
            peeker.step(world)
            stats.append(peeker.last_stats)
        differences += stats[0] != stats[1]
    assert differences > 0
