"""The Cage's learning pack: the two-player Cage's recipe and the Cage's bots with ``master``.

The Cage learns on its JAX copy (:mod:`gameshelf.rl.jax.cage`) with mctx's batched Gumbel search
(:mod:`.selfplay`); its features and canonical actions are :mod:`.features`, read from engine
positions for ``master`` by :mod:`.codec`. The ``cage`` entry points of ``gameshelf.learners``
and ``gameshelf.packs`` name :data:`RECIPE` and :func:`.pack.pack`. Importing this module needs no
third-party package beyond NumPy.
"""

from __future__ import annotations

from pathlib import Path

from gameshelf.core.game import Game

from ..puct import can_win
from ..recipe import Codec, Recipe, SelfPlayer
from ..settings import RunSettings
from .sizes import FEATURES, NUM_ACTIONS


def _codec(game: Game) -> Codec:
    from .codec import CageCodec

    return CageCodec(game)


def _selfplay(settings: RunSettings, seed: int) -> SelfPlayer:
    from .selfplay import CageSelfPlayer

    return CageSelfPlayer(settings, seed)


RECIPE = Recipe(
    game="cage",
    players=2,
    inputs=FEATURES,
    heads=(NUM_ACTIONS,),
    max_moves=NUM_ACTIONS,
    codec=_codec,
    selfplay=_selfplay,
    weights=Path(__file__).resolve().parents[1] / "weights" / "cage2.npz",
    title="two-player Cage",
    # A twist may make a line for the other seat: every move is tried in the engine.
    wins_at_once=can_win,
)
"""The two-player Cage: every sample lists the 55 canonical actions (the mask marks the legal
ones), one policy head."""
