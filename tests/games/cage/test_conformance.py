"""Conformance of the Cage over thousands of random games per player count and option set."""

from __future__ import annotations

import pytest

import gameshelf
from gameshelf.core.conformance import random_playouts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_protocol_invariant(players: int) -> None:
    stats = random_playouts(gameshelf.load(f"cage(players={players})"), games=1000, seed=players)
    assert stats.games == 1000
    # Random play ends by lines, draws or caps, and every kind of ending happens.
    assert any(text.endswith("wins") for text in stats.outcomes)
    assert stats.longest <= 200


@pytest.mark.parametrize(
    "game_string",
    [
        "cage(players=3,simultaneous=shared)",
        "cage(players=2,simultaneous=mover_priority,no_reverse=semantic)",
        "cage(players=4,no_reverse=off,allow_noop_twists=false)",
        "cage(players=4,continue_after_last_drop=true,max_plies=60,repetition_draw=2)",
        "cage(players=2,stock=12:12)",
        "cage(players=3,stock=5:0:2,no_reverse=semantic,continue_after_last_drop=true,max_plies=80)",
    ],
)
def test_random_games_with_options_keep_every_invariant(game_string: str) -> None:
    stats = random_playouts(gameshelf.load(game_string), games=300, seed=11)
    assert stats.games == 300
