"""What several learn tests share: a tiny run's options and a few self-play games replayed."""

from __future__ import annotations

from dataclasses import replace

from gameshelf.core.registry import load
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
