"""The Cage threat search: its proofs hold under the exact solver, its budget holds, and the
Cage alpha-beta plays a chain of its own and refuses a move that allows the opponent one."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from gameshelf.agents.alphabeta import WIN
from gameshelf.agents.cage.search import CageAlphaBetaAgent, CageThreatsAgent
from gameshelf.agents.cage.threats import ThreatSearch, ThreatSearchOut, decisive_moves
from gameshelf.agents.solver import Solver
from gameshelf.core.registry import load
from gameshelf.games.cage import CageState

CHAIN = [51, 36, 48, 53, 13, 25, 8, 54, 16, 39, 12, 53, 49, 51, 9, 54, 23, 35]
"""A seeded random game's first 18 plies: the mover has no line in one, but R0 starts a chain
of threats that wins within three of its moves, which a depth-2 alpha-beta cannot prove."""
ALLOWS_CHAIN = [51, 36, 48, 53, 13, 25, 8, 54, 16, 39, 12, 53, 49, 51, 9, 54, 23, 35]
ALLOWS_CHAIN += [50, 53, 6, 40, 4, 33, 5, 28, 22]
"""The same game nine plies on: a depth-2 alpha-beta plays T2+, after which the opponent wins
by a chain of threats; O3, G7, T1+ and T2- allow none."""


def _cage() -> CageState:
    state = load("cage").new_initial_state()
    assert isinstance(state, CageState)
    return state


def _after(state: CageState, *actions: int) -> CageState:
    child = state.clone()
    for action in actions:
        child.apply_action(action)
    return child


def _position(history: list[int]) -> CageState:
    return _after(_cage(), *history)


def _solver_wins(state: CageState, plies: int, winner: int) -> bool:
    """Whether the exact solver proves that ``winner`` forces a win within ``plies``."""
    solver = Solver(state.game)
    solver.me = winner
    return solver.force(state, plies, True, 1.0)


def _random_positions(seeds: int, first: int, last: int, every: int) -> Iterator[CageState]:
    """Positions of seeded random games, every ``every`` plies from ``first`` until ``last``,
    whose mover has no line in one."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = _cage()
        while not state.is_terminal() and state.ply < last:
            if state.ply >= first and state.ply % every == 0 and not decisive_moves(state)[0]:
                yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))


def test_every_chain_the_threat_search_proves_is_a_win_for_the_exact_solver() -> None:
    """Soundness: a chain of at most three own moves found from positions of seeded random
    games is a forced win within five plies by the full-width solver."""
    checked = 0
    for state in _random_positions(40, 8, 36, 3):
        move = ThreatSearch().winning_move(state, 3)
        if move is not None:
            after = _after(state, move)
            assert _solver_wins(after, 4, state.player), (state.history(), move)
            checked += 1
    assert checked >= 10


def test_a_refuted_chain_is_not_claimed() -> None:
    """Where the solver finds no forced win within five plies, no three-move chain is found."""
    refuted = 0
    for state in _random_positions(12, 10, 30, 4):
        if not _solver_wins(state, 5, state.player):
            refuted += 1
            assert ThreatSearch().winning_move(state, 3) is None, state.history()
    assert refuted >= 10


def test_the_budget_and_the_clock_stop_the_search() -> None:
    state = _position(CHAIN)
    with pytest.raises(ThreatSearchOut):
        ThreatSearch(budget=20).winning_move(state, 3)
    with pytest.raises(ThreatSearchOut):
        ThreatSearch(deadline=0.0).winning_move(state, 3)
    assert ThreatSearch(budget=100_000).winning_move(state, 3) is not None


def test_the_table_answers_a_question_again_without_search() -> None:
    state = _position(CHAIN)
    threats = ThreatSearch()
    assert threats.wins(state, 3)
    played = threats.played
    assert threats.wins(state, 3) and threats.wins(state, 4)
    assert threats.played == played and threats.size() > 0


def _alpha_beta(threat_moves: int) -> CageAlphaBetaAgent:
    """A depth-2 Cage alpha-beta: plain (``0``), else with chains of ``threat_moves`` moves."""
    if not threat_moves:
        return CageAlphaBetaAgent(load("cage"), 1, node_budget=200_000, max_depth=2)
    agent = CageThreatsAgent(load("cage"), 1, node_budget=200_000, max_depth=2)
    agent.threat_moves = threat_moves
    return agent


def test_the_alpha_beta_plays_its_own_chain_of_threats() -> None:
    """Depth 2 sees no forced win; the threat search finds one and the agent knows it."""
    state = _position(CHAIN)
    plain = _alpha_beta(0)
    plain.step(state)
    assert abs(plain.last_value) < WIN - 1000
    agent = _alpha_beta(3)
    chosen = agent.step(state)
    assert agent.last_value == WIN
    assert _solver_wins(_after(state, chosen), 4, state.player)


def test_the_alpha_beta_refuses_a_move_that_allows_the_opponent_a_chain() -> None:
    state = _position(ALLOWS_CHAIN)
    plain = _alpha_beta(0).step(state)
    assert state.action_to_string(plain) == "T2+"
    assert _solver_wins(_after(state, plain), 5, 1 - state.player)
    chosen = _alpha_beta(3).step(state)
    assert state.action_to_string(chosen) in {"O3", "G7", "T1+", "T2-"}
    assert not ThreatSearch().wins(_after(state, chosen), 3)


NO_SHORT_WIN = ["Y4", "G2", "W0", "G6", "W4", "G4", "T1+", "G6", "T2+", "F", "W0", "T1-"]
NO_SHORT_WIN += ["Y2", "O4", "R2", "F", "T0-", "T1-", "T0+", "T2-", "F", "T0+", "W0", "F"]
"""Hard's position at ply 24 of a game against OpenSpiel's MCTS: no forced win within six plies
(tests/agents/test_cage_search.py), but Y3 starts a chain of four threats."""


def test_a_chain_past_the_alpha_beta_horizon_is_found_and_is_a_win() -> None:
    state = _position(_parse(NO_SHORT_WIN))
    threats = ThreatSearch()
    assert threats.winning_move(state, 3) is None
    move = threats.winning_move(state, 4)
    assert move is not None and state.action_to_string(move) == "Y3"
    assert _solver_wins(_after(state, move), 6, state.player)


def _parse(moves: list[str]) -> list[int]:
    state = _cage()
    actions = []
    for text in moves:
        action = state.parse_action(text)
        state.apply_action(action)
        actions.append(action)
    return actions


def test_a_best_move_that_allows_a_chain_is_dropped_before_the_next_depth() -> None:
    state = _position(ALLOWS_CHAIN)
    agent = _alpha_beta(3)
    assert isinstance(agent, CageThreatsAgent)
    allows, safe, other = (state.parse_action(text) for text in ("T2+", "O3", "G7"))
    order = [allows, safe, other]
    agent._vet(state, order)
    assert order == [safe, other] and agent._checked == {allows, safe}
    alone = [allows]
    agent._vet(state, alone)
    assert alone == [allows]


def test_the_arena_agent_with_the_threat_search_is_hard_plus_chains() -> None:
    from gameshelf.agents.base import make_agent
    from gameshelf.agents.cage.search import THREAT_MOVES

    agent = make_agent("cage-hard-threats", load("cage"), 3)
    assert isinstance(agent, CageThreatsAgent)
    assert agent.threat_moves == THREAT_MOVES and agent.time_limit is not None
    with pytest.raises(ValueError, match="two-player Cage only"):
        make_agent("cage-hard-threats", load("cage(players=3)"), 3)
    with pytest.raises(ValueError, match="plays cage only"):
        make_agent("cage-hard-threats", load("axiom"), 3)
