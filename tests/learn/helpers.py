"""What several learn tests share: a tiny run's options, a few self-play games replayed, and
``master`` checked with a shipped network."""

from __future__ import annotations

from dataclasses import replace

from gameshelf.agents.base import make_agent
from gameshelf.agents.catalogue import agent_catalogue
from gameshelf.agents.levels import level_spec
from gameshelf.core.registry import load
from gameshelf.learn.master import MasterAgent, shipped_network
from gameshelf.learn.network import arrays_of, init_network
from gameshelf.learn.recipe import Recipe
from gameshelf.learn.samples import Samples, concat_samples
from gameshelf.learn.settings import NetConfig, SearchConfig

TINY = [
    "--games-per-worker", "3", "--simulations", "4", "--batch-size", "8", "--hidden", "16",
    "--blocks", "1", "--eval-every", "1", "--eval-against", "random",
    "--eval-simulations", "2", "--checkpoint-every", "1", "--quiet",
]  # fmt: skip
"""The smoke configuration (add ``--eval-games``): every part of the loop on a handful of
games, in seconds."""


def self_play_games(
    recipe: Recipe, games: int, plies: int, search: SearchConfig, wanted: int = 2
) -> tuple[list[list[int]], Samples]:
    """At least ``wanted`` finished self-play games of ``recipe`` on a small untrained network
    (``games`` a worker, ``plies`` a call), their moves and their samples in order."""
    settings = replace(
        recipe.defaults,
        net=NetConfig(recipe.players, 16, 1),
        games_per_worker=games,
        plies_per_call=plies,
        search=search,
    )
    player = recipe.selfplay(settings, 0)
    weights = arrays_of(init_network(settings.net, 0, recipe.inputs, recipe.heads))
    finished: list[list[int]] = []
    parts: list[Samples] = []
    for _ in range(30):
        batch, ended, played = player.play(weights)
        assert played == games * plies
        assert len(batch.features) == sum(len(moves) for moves in ended)
        finished += ended
        parts.append(batch)
        if len(finished) >= wanted:
            return finished, concat_samples(parts, parts[0])
    raise AssertionError(f"fewer than {wanted} games ended in 30 calls")


def replayed(game_string: str, moves: list[int]) -> tuple[list[float], list[int]]:
    """The result of a game's ``moves`` and the mover of each, every move checked legal."""
    state = load(game_string).new_initial_state()
    movers = []
    for action in moves:
        assert action in state.legal_actions()
        movers.append(state.current_player())
        state.apply_action(action)
    assert state.is_terminal()
    return state.returns(), movers


def check_shipped_master(game_string: str, recipe: Recipe, plies: int, simulations: int) -> None:
    """``master`` by name at ``game_string``: ``recipe``'s, on hard's clock (so that the two meet
    at equal time), its shipped network read once, listed by the catalogue; on ``simulations`` a
    move it plays ``plies`` legal moves, then analyses the position, its best move the one it
    plays there."""
    game = load(game_string)
    agent = make_agent("master", game, 0)
    assert isinstance(agent, MasterAgent) and agent.recipe is recipe
    assert agent.time_limit == level_spec(game, "hard").time_limit
    assert agent.evaluator.net is shipped_network(recipe)
    assert "master" in {info.name for info in agent_catalogue(game)}
    exact = MasterAgent(game, 0, simulations=simulations)
    state = game.new_initial_state(5)
    for _ in range(plies):
        action = exact.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    moves = exact.analyse(state, seconds=0.5, top=2)
    assert len({move.action for move in moves}) == 2
    assert all(move.action in state.legal_actions() and 0 <= move.value <= 1 for move in moves)
    assert moves[0].action == exact.step(state)
