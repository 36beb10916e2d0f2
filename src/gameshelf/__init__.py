"""gameshelf: exact engines, bots and tables for Axiom, Rubik's Cage and AXIA: Slayer Combo.

>>> import gameshelf
>>> game = gameshelf.load("cage(players=2)")
>>> state = game.new_initial_state(seed=1)
>>> len(state.legal_moves())
31
"""

from .core import (
    CHANCE,
    TERMINAL,
    Game,
    GameshelfError,
    GameSpec,
    IllegalMove,
    InvalidMove,
    InvalidOption,
    Move,
    State,
    UnknownGame,
    available_games,
    load,
)
from .core.version import package_version

__version__ = package_version()
"""This distribution's version, from its installed metadata (:mod:`gameshelf.core.version`)."""

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameSpec",
    "GameshelfError",
    "IllegalMove",
    "InvalidMove",
    "InvalidOption",
    "Move",
    "State",
    "UnknownGame",
    "__version__",
    "available_games",
    "load",
]
