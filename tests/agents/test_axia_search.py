"""AXIA's search: equivalent dice are merged, the root prior follows the heuristic, and the
progressive bias changes what the search visits."""

from __future__ import annotations

import math

import pytest

from gameshelf.agents.axia import ROLLOUT as AXIA_ROLLOUT
from gameshelf.agents.axia.policies import heuristic
from gameshelf.agents.axia.search import (
    AXIA_LEAD_SCALE,
    AXIA_PRIOR_WEIGHT,
    MULTI_EXPLORATION,
    SOLO_PRIOR_WEIGHT,
    AxiaSearchAgent,
    axia_lead_evaluator,
    distinct_dice_actions,
)
from gameshelf.agents.levels import build_level
from gameshelf.core.registry import load
from gameshelf.games.axia.actions import CHANGE, DIE_HIT, PHASE_TURN, WASTE
from gameshelf.games.axia.board import SPACES
from gameshelf.games.axia.rules import AxiaState

from .axia_twins import advance_to


def hit_position(seed: int = 6) -> AxiaState:
    """A hit-phase decision of a two-player game with no die used yet."""
    state = advance_to("axia", PHASE_TURN, seed, skip=0)
    assert not state.effect_stack and not state.die_taken
    return state


def with_dice(state: AxiaState, values: list[int]) -> AxiaState:
    """A copy of ``state`` whose unused dice show ``values``."""
    copy = state.clone()
    copy.dice = list(values)
    copy.dice_taken_by = [-1] * len(values)
    return copy


def test_twin_dice_are_merged() -> None:
    state = hit_position()
    physical = state.game.num_physical
    same = with_dice(state, [3] * physical + [5] * (state.game.num_dice - physical))
    legal = same.legal_actions()
    kept = distinct_dice_actions(same, legal)
    hits = [a for a in kept if DIE_HIT <= a < WASTE]
    dice_used = {(a - DIE_HIT) // SPACES for a in hits}
    # every physical die shows 3 and every magic die 5: one die of each type is left
    assert dice_used == {0, physical}
    assert all(a in kept for a in legal if not DIE_HIT <= a < CHANGE)


def test_different_dice_are_kept() -> None:
    state = hit_position()
    values = [v % 6 + 1 for v in range(state.game.num_dice)]
    distinct = with_dice(state, values)
    legal = distinct.legal_actions()
    assert distinct_dice_actions(distinct, legal) == legal


def test_same_value_different_type_are_kept() -> None:
    state = hit_position()
    n, physical = state.game.num_dice, state.game.num_physical
    same = with_dice(state, [4] * n)
    hits = [a for a in distinct_dice_actions(same, same.legal_actions()) if a < WASTE]
    dice_used = {(a - DIE_HIT) // SPACES for a in hits}
    assert dice_used == {0, physical}
    assert n > 2  # there were twins to merge


def test_root_prior_ranks_moves_by_the_heuristic() -> None:
    state = hit_position()
    agent = AxiaSearchAgent(state.game, seed=1, iterations=10)
    me = state.current_player()
    legal = agent.actions(state)
    prior = agent.root_prior(state.clone(), me, legal)
    assert set(prior) == set(legal)
    assert min(prior.values()) == 0.0 and max(prior.values()) == 1.0
    values = {}
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        values[action] = agent.evaluator(child)[me]
    best = max(legal, key=lambda a: values[a])
    assert prior[best] == 1.0


def test_the_bias_steers_the_visits() -> None:
    """With a heavy bias and few iterations the most visited move is the heuristic's best;
    without it the visits are spread by UCB alone."""
    state = hit_position()
    me = state.current_player()
    biased = AxiaSearchAgent(state.game, seed=3, iterations=300, prior_weight=50.0)
    move = biased.step(state)
    prior = biased.root_prior(state.clone(), me, biased.actions(state))
    assert prior[move] == 1.0
    plain = AxiaSearchAgent(state.game, seed=3, iterations=300, prior_weight=0.0)
    plain.step(state)
    assert plain.last_stats != biased.last_stats


def test_fixed_budget_is_reproducible() -> None:
    state = hit_position(seed=8)
    moves = {AxiaSearchAgent(state.game, seed=5, iterations=80).step(state) for _ in range(2)}
    assert len(moves) == 1


def test_levels_use_the_axia_search() -> None:
    """medium, hard and expert search with it; solo without the root bias (the card data's
    Slayer-band calibration is for the plain search)."""
    for level in ("medium", "hard", "expert"):
        agent = build_level(load("axia"), level, seed=1, fixed=True)
        assert isinstance(agent, AxiaSearchAgent)
        assert agent.prior_weight == AXIA_PRIOR_WEIGHT > 0
        solo = build_level(load("axia(players=1)"), level, seed=1, fixed=True)
        assert isinstance(solo, AxiaSearchAgent)
        assert solo.prior_weight == SOLO_PRIOR_WEIGHT == 0


def test_lead_evaluator_reads_the_lead_on_its_scale() -> None:
    """Each seat's value is (1 + tanh(lead / AXIA_LEAD_SCALE)) / 2 of its heuristic lead, so a
    25- and a 40-point lead (both a sure win at the default scale of 10) stay apart."""
    state = advance_to("axia(players=3)", PHASE_TURN, 4, skip=12)
    values = [heuristic(state, p) for p in range(3)]
    got = axia_lead_evaluator(state)
    for p in range(3):
        lead = values[p] - max(v for q, v in enumerate(values) if q != p)
        assert got[p] == pytest.approx((1 + math.tanh(lead / AXIA_LEAD_SCALE)) / 2)
    small = (1 + math.tanh(25 / AXIA_LEAD_SCALE)) / 2
    large = (1 + math.tanh(40 / AXIA_LEAD_SCALE)) / 2
    assert large - small > 0.05


def test_three_and_four_players_search_with_their_own_settings() -> None:
    """3-4 players: leaves judged at once and the tighter exploration; 2 players and solo keep
    the 6-ply playouts and IS-MCTS's exploration; an explicit exploration is kept."""
    for players in (3, 4):
        game = load(f"axia(players={players})")
        for level in ("medium", "hard", "expert"):
            agent = build_level(game, level, seed=1, fixed=True)
            assert isinstance(agent, AxiaSearchAgent)
            assert agent.rollout_depth == 0
            assert agent.exploration == MULTI_EXPLORATION
        assert AxiaSearchAgent(game, exploration=0.5).exploration == 0.5
    for game_string in ("axia", "axia(players=1)"):
        agent = build_level(load(game_string), "hard", seed=1, fixed=True)
        assert isinstance(agent, AxiaSearchAgent)
        assert agent.rollout_depth == AXIA_ROLLOUT
        assert agent.exploration == 0.7


def test_tighter_exploration_concentrates_the_visits() -> None:
    """On the same positions, seed and budget, the most visited root move gets a larger share
    at MULTI_EXPLORATION than at 0.7 (where the close AXIA values left the visits near even):
    in each of seven hit-step positions, and by half again over all of them."""
    loose, tight = [], []
    for seed in range(2, 9):
        state = advance_to("axia(players=3)", PHASE_TURN, seed, skip=0)
        for exploration, shares in ((0.7, loose), (MULTI_EXPLORATION, tight)):
            agent = AxiaSearchAgent(
                state.game, seed=2, iterations=200, rollout_depth=0, exploration=exploration
            )
            agent.step(state)
            visits = [v for v, _ in agent.last_stats.values()]
            shares.append(max(visits) / sum(visits))
    assert all(t > s for s, t in zip(loose, tight, strict=True))
    assert sum(tight) > 1.5 * sum(loose)
