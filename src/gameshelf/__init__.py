"""gameshelf: exact engines, bots and tables for Axiom, Rubik's Cage and AXIA: Slayer Combo.

>>> import gameshelf
>>> game = gameshelf.load("cage(players=2)")
>>> state = game.new_initial_state(seed=1)
>>> len(state.legal_moves())
31
"""

from .core.engines import choose_engine

choose_engine()  # before any game module loads: compiled, or Python source when asked

from .core import (  # noqa: E402
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
from .core.version import package_version  # noqa: E402

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
