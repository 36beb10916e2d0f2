"""The ``master`` bot's registration: importable without jax, so every process can name it.

Building it checks the game first, then imports the network code; a missing package or weights
file refuses the bot with ``ValueError`` naming what to install (the catalogue then reports it
unfit, and ``check_agent`` shows the line), never a traceback part-way through a game.
"""

from __future__ import annotations

from gameshelf.agents.base import Agent, register_agent
from gameshelf.core.game import Game
from gameshelf.extras import install_hint

from .fit import check_game

EXTRA = "learn"
"""The extra that brings jax, mctx, optax and equinox."""


def make_master(game: Game, seed: int | None) -> Agent:
    """The ``master`` bot for ``game`` on its default clock (1 s a move, like ``hard``)."""
    check_game(game)
    try:
        from .master import MasterAgent
    except ImportError as error:
        package = error.name or str(error)
        raise ValueError(
            f"master needs {package} from the {EXTRA} extra: {install_hint(EXTRA)}"
        ) from None
    return MasterAgent(game, seed)


def register() -> None:
    """Make ``master`` available by name."""
    register_agent("master", make_master)
