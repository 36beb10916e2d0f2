"""Which games ``master`` can play (no third-party import, so the check runs without jax)."""

from __future__ import annotations

from gameshelf.core.game import Game


def check_game(game: Game) -> None:
    """``ValueError`` unless ``game`` is the two-player Cage, the one master has a network for."""
    if game.spec.name != "cage" or game.spec.num_players != 2:
        raise ValueError(f"master plays the two-player Cage only, not {game.game_string}")
