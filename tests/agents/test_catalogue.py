"""The bot catalogue: only bots that can play a game are offered, weakest first."""

import pytest

import gameshelf
from gameshelf.agents import AGENTS
from gameshelf.agents.base import UnknownAgent
from gameshelf.agents.catalogue import UnfitAgent, agent_catalogue, check_agent


def names(game_string: str) -> list[str]:
    return [info.name for info in agent_catalogue(gameshelf.load(game_string))]


def test_alphabeta_is_offered_only_for_two_player_perfect_information_games() -> None:
    assert "alphabeta" in names("cage(players=2)")
    assert "alphabeta" in names("axiom")
    assert "alphabeta" not in names("cage(players=3)")
    assert "alphabeta" not in names("axia(players=2)")


def test_every_offered_bot_builds_and_the_list_is_ordered_by_strength() -> None:
    game = gameshelf.load("axia(players=3)")
    infos = agent_catalogue(game)
    assert [i.strength for i in infos] == sorted(i.strength for i in infos)
    assert infos[0].name == "random" and infos[-1].name == "expert"
    for info in infos:
        check_agent(info.name, game)
        assert info.summary


def test_without_a_game_every_registered_bot_is_listed() -> None:
    assert {info.name for info in agent_catalogue()} == set(AGENTS)


def test_an_unfit_bot_is_refused_with_its_reason() -> None:
    with pytest.raises(UnfitAgent, match="alpha-beta needs a two-player") as caught:
        check_agent("alphabeta", gameshelf.load("axia(players=2)"))
    assert caught.value.code == "agent/unfit"
    with pytest.raises(UnknownAgent):
        check_agent("nobody", gameshelf.load("axiom"))


def test_every_registered_bot_says_what_it_is() -> None:
    """``play --help`` lists each bot with a line of its own, not the fallback text."""
    import gameshelf.arena.opponents  # noqa: F401  (registers the arena's bots too)

    vague = [info.name for info in agent_catalogue() if info.summary == "a registered bot"]
    assert vague == []
