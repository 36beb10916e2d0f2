"""Rubik's Cage: 2-4 player three-in-a-row inside a twistable, flippable 3x3x3 cage.

Rules as implemented, options, notation and encodings: ``docs/games/cage.md``.
"""

from gameshelf.core.registry import GameEntry, register

from .options import OPTIONS
from .rules import CageGame, CageState, make_game

register(
    GameEntry(
        name="cage",
        title="Rubik's Cage",
        summary="2-4 players drop, twist and flip to make three of one colour in a row",
        options=OPTIONS,
        factory=make_game,
    )
)

__all__ = ["OPTIONS", "CageGame", "CageState"]
