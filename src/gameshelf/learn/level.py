"""The ``master`` bot's registration, importable without jax.

``master`` is one bot for every game with a learning recipe: each game's learning pack
(``learn/<game>/``) adds :data:`MASTER` to that game's own pack, and its ``gameshelf.packs``
entry point names the result. Packs are loaded wherever the bots are imported, so every process
that can name a bot (the terminal, an arena worker, the server and its bot workers) knows
``master``, while the bots' package never imports this one.

Building it looks for the network's packages (without importing them), then checks the game
against its recipe and that the weights file is there; the network itself is read at the first
move. A missing package or weights file refuses the bot with ``ValueError`` naming what to
install (the catalogue then reports it unfit, and ``check_agent`` shows the line), never a
traceback part-way through a game.
"""

from __future__ import annotations

from dataclasses import replace
from importlib.util import find_spec

from gameshelf.agents.base import Agent
from gameshelf.agents.packs import GamePack, PackBot
from gameshelf.core.game import Game
from gameshelf.extras import install_hint

EXTRA = "learn"
"""The extra that brings jax, mctx, optax and equinox."""
NEEDS = ("jax", "equinox", "numpy")
"""What ``master``'s network runs on: looked for, not imported, when the bot is built (the
network itself is read at its first move)."""


def make_master(game: Game, seed: int | None) -> Agent:
    """The ``master`` bot for ``game`` on ``hard``'s clock, so that the two meet at equal time."""
    # imported here: this module is loaded while the bots' package itself is being imported
    from gameshelf.agents.levels import level_spec

    missing = [name for name in NEEDS if find_spec(name) is None]
    if missing:
        raise ValueError(f"master needs {missing[0]} from the {EXTRA} extra: {install_hint(EXTRA)}")
    from .master import MasterAgent

    return MasterAgent(game, seed, time_limit=level_spec(game, "hard").time_limit)


MASTER = PackBot(
    "master",
    make_master,
    35,  # below hard in every game it plays (docs/learning.md); one rank for all of them
    "a self-play network guiding PUCT, hard's time a move (learn extra)",
)


def with_master(pack: GamePack) -> GamePack:
    """``pack`` with ``master`` among its bots."""
    return replace(pack, bots=(*pack.bots, MASTER))
