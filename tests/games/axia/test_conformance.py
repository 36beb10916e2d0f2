"""Protocol conformance over thousands of seeded random games, for 1-4 players and the variants."""

from __future__ import annotations

import pytest

from gameshelf.core import load
from gameshelf.core.conformance import random_playouts

# (players, games per chunk, chunks): about 2,300 games checked every 25 plies in all
BULK = [(1, 250, 4), (2, 150, 4), (3, 100, 4), (4, 75, 4)]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_ply_checked(players: int) -> None:
    games = 12 if players <= 2 else 6
    stats = random_playouts(load(f"axia(players={players})"), games=games, seed=1000 * players)
    assert stats.games == games
    assert stats.longest <= load(f"axia(players={players})").spec.max_game_length


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "games", "chunk"),
    [(p, g, c) for p, g, chunks in BULK for c in range(chunks)],
)
def test_bulk_random_games(players: int, games: int, chunk: int) -> None:
    game = load(f"axia(players={players})")
    stats = random_playouts(
        game, games=games, seed=10_000 * players + games * chunk, check_every=25
    )
    assert stats.games == games
    if players > 1:
        assert len(stats.outcomes) > 1  # different seats win different games


@pytest.mark.parametrize(
    "options",
    [
        "players=2,first_game=true",
        "players=3,prioritize_objectives=true",
        "players=1,prioritize_objectives=true,explore_regions=true",
        "players=4,explore_regions=true,must_hit_if_possible=false",
        "players=2,prioritize_objectives=true,explore_regions=true,first_game=false",
    ],
)
def test_variants(options: str) -> None:
    stats = random_playouts(load(f"axia({options})"), games=4, seed=7)
    assert stats.games == 4


def test_spec_facts() -> None:
    for players in (1, 2, 3, 4):
        spec = load(f"axia(players={players})").spec
        assert spec.chance and spec.hidden_information and not spec.simultaneous
        assert spec.num_players == players and (spec.min_players, spec.max_players) == (1, 4)
