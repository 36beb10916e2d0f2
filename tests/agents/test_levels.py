"""Named levels for every game, bad names, and strength sanity checks that can fail."""

from __future__ import annotations

import pytest

from gameshelf.agents import AGENTS, LEVELS, UnknownAgent, make_agent
from gameshelf.agents.axia import ROLLOUT as AXIA_ROLLOUT
from gameshelf.agents.base import Agent
from gameshelf.agents.ismcts import ROLLOUT_DEPTH, ISMCTSAgent
from gameshelf.agents.levels import (
    BadThinkTime,
    LevelSpec,
    build_level,
    level_spec,
    split_think,
    with_think,
)
from gameshelf.arena.match import MatchSpec, play_match
from gameshelf.core.game import Game
from gameshelf.core.registry import load

GAMES = ["cage", "cage(players=3)", "cage(players=4)", "axiom", "axia", "axia(players=1)"]


def test_every_level_is_registered() -> None:
    for level in LEVELS:
        assert level in AGENTS


@pytest.mark.parametrize("game_string", GAMES)
def test_every_level_builds_for_every_game(game_string: str) -> None:
    game = load(game_string)
    for level in LEVELS:
        agent = make_agent(level, game, seed=1)
        assert hasattr(agent, "step")
        assert level_spec(game, level).describe()


def test_a_level_s_playout_cut_reaches_its_search() -> None:
    assert LevelSpec("ismcts", 10, 0.1).playout_depth == ROLLOUT_DEPTH
    assert LevelSpec("ismcts", 10, 0.1, rollout_depth=0).playout_depth == 0
    for game_string in ("axia", "axia(players=3)"):
        game = load(game_string)
        for level in ("medium", "hard", "expert"):
            agent = build_level(game, level, seed=1)
            assert isinstance(agent, ISMCTSAgent)
            assert agent.rollout_depth == level_spec(game, level).playout_depth
            assert agent.rollout_depth == (0 if game.spec.num_players > 2 else AXIA_ROLLOUT)


def test_hard_is_within_the_two_second_cap() -> None:
    for game_string in GAMES:
        assert level_spec(load(game_string), "hard").time_limit <= 2.0


def test_unknown_agent_names_the_problem() -> None:
    with pytest.raises(UnknownAgent, match=r"unknown agent 'grandmaster'.*hard"):
        make_agent("grandmaster", load("cage"), seed=1)


def _agent(name: str, game: Game, seed: int) -> Agent:
    """Levels in their fixed-budget mode, so these games are the same on any machine."""
    if name in LEVELS:
        return build_level(game, name, seed, fixed=True)
    return make_agent(name, game, seed)


def _wins(game_string: str, hero: str, villain: str, games: int) -> int:
    game = load(game_string)
    wins = 0
    for index in range(games):
        seats = (hero, villain) if index % 2 == 0 else (villain, hero)
        agents = [_agent(name, game, 100 + 10 * index + seat) for seat, name in enumerate(seats)]
        state = game.new_initial_state(index)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].step(state))
        seat = seats.index(hero)
        wins += state.returns()[seat] > state.returns()[1 - seat]
    return wins


def test_medium_beats_random_at_the_cage() -> None:
    assert _wins("cage", "medium", "random", 4) >= 4


def test_greedy_beats_random_at_the_cage() -> None:
    assert _wins("cage", "greedy", "random", 6) >= 5


def test_medium_beats_random_at_axiom() -> None:
    assert _wins("axiom", "medium", "random", 2) >= 2


def test_greedy_outscores_random_in_solo_axia() -> None:
    totals = {}
    for name in ("greedy", "random"):
        scores = [
            play_match(MatchSpec("axia(players=1)", (name,), seed=s)).extra["scores"][0]
            for s in range(4)
        ]
        totals[name] = sum(scores)
    assert totals["greedy"] > totals["random"]


def test_hard_beats_random_at_the_cage() -> None:
    assert _wins("cage", "hard", "random", 2) >= 2


@pytest.mark.parametrize("game_string", GAMES)
def test_levels_think_for_their_time_or_a_given_one_or_a_fixed_budget(game_string: str) -> None:
    game = load(game_string)
    for level in LEVELS:
        spec = level_spec(game, level)
        if spec.algorithm == "greedy":
            assert not hasattr(build_level(game, level, 1), "time_limit")
            continue
        assert spec.seconds > 0
        assert build_level(game, level, 1).time_limit == spec.seconds  # type: ignore[attr-defined]
        given = build_level(game, level, 1, time_limit=0.2)
        assert given.time_limit == 0.2  # type: ignore[attr-defined]
        assert build_level(game, level, 1, fixed=True).time_limit is None  # type: ignore[attr-defined]


def test_seat_names_carry_a_think_time() -> None:
    assert split_think("hard") == ("hard", None)
    assert split_think(with_think("hard", 0.75)) == ("hard", 0.75)
    assert with_think("expert", None) == "expert"
    with pytest.raises(BadThinkTime, match="got 'fast'"):
        split_think("hard@fast")
