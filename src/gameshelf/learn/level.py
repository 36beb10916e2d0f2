"""The ``master`` bot's registration: one of the Cage pack's bots, importable without jax.

The ``cage`` entry point of the ``gameshelf.packs`` group names :func:`cage_pack`: the Cage's own
pack (:mod:`gameshelf.agents.cage`) with ``master`` added to its bots. Packs are loaded wherever
the bots are imported, so every process that can name a bot (the terminal, an arena worker, the
server and its bot workers) knows ``master``, while the bots' package never imports this one.

Building it checks the game first, then imports the network code; a missing package or weights
file refuses the bot with ``ValueError`` naming what to install (the catalogue then reports it
unfit, and ``check_agent`` shows the line), never a traceback part-way through a game.
"""

from __future__ import annotations

from dataclasses import replace

from gameshelf.agents.base import Agent
from gameshelf.agents.cage import PACK
from gameshelf.agents.packs import GamePack, PackBot
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


MASTER = PackBot(
    "master",
    make_master,
    35,  # below hard, which it lost to (docs/learning.md)
    "Cage, 2 players: a self-play network guiding PUCT, 1 s a move (learn extra)",
)


def cage_pack() -> GamePack:
    """The Cage's pack with ``master`` among its bots (what the ``cage`` entry point names)."""
    return replace(PACK, bots=(*PACK.bots, MASTER))
