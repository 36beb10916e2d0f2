"""The Cage's learning pack: its recipes at two, three and four players, and its bots with
``master``.

The two-player Cage learns on its JAX copy (:mod:`gameshelf.rl.jax.cage`) with mctx's batched Gumbel
search (:mod:`.selfplay`), whose backup is two-player only; three and four players learn through the
engine with the batched PUCT trees of :mod:`gameshelf.learn.treeplay`, which back up one value per
seat. Its features and canonical actions are :mod:`.features` (the mover's colours first, then round
the table), read from engine positions by :mod:`.codec`. The ``cage`` entry points of
``gameshelf.learners`` and ``gameshelf.packs`` name :data:`RECIPE` and :func:`.pack.pack`. Importing
this module needs no third-party package beyond NumPy.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gameshelf.core.game import Game

from ..puct import can_win
from ..recipe import Codec, Recipe, SelfPlayer
from ..settings import NetConfig, RunSettings, SearchConfig, TrainConfig
from .sizes import FEATURES, NUM_ACTIONS


def _codec(game: Game) -> Codec:
    from .codec import CageCodec

    return CageCodec(game)


def _selfplay(settings: RunSettings, seed: int) -> SelfPlayer:
    from .selfplay import CageSelfPlayer

    return CageSelfPlayer(settings, seed)


WEIGHTS = Path(__file__).resolve().parents[1] / "weights"


def _tree_selfplay(players: int) -> Callable[[RunSettings, int], SelfPlayer]:
    """Self-play at ``players`` seats: PUCT trees over the engine (mctx's backup is two-player)."""

    def build(settings: RunSettings, seed: int) -> SelfPlayer:
        from ..treeplay import TreeSelfPlayer

        return TreeSelfPlayer(TABLES[players], settings, seed)

    return build


def _table_defaults(players: int) -> RunSettings:
    """Settings at a table of ``players``: self-play through the engine makes far fewer
    positions a second than the JAX Cage, so fewer games a worker and learner steps a call."""
    return RunSettings(
        net=NetConfig(players, 128, 3),
        train=TrainConfig(batch_size=128, buffer_size=30_000),
        search=SearchConfig(simulations=48, leaves=4, sampled_plies=12),
        games_per_worker=32,
        plies_per_call=4,
        updates_per_call=4,
        eval_every=1000,
        eval_games=2 * players,
        eval_opponents=("greedy", "hard@0.25"),
        eval_simulations=48,
        checkpoint_every=100,
    )


TABLES = {
    players: Recipe(
        game=f"cage(players={players})",
        players=players,
        inputs=FEATURES,
        heads=(NUM_ACTIONS,),
        max_moves=NUM_ACTIONS,
        codec=_codec,
        selfplay=_tree_selfplay(players),
        weights=WEIGHTS / f"cage{players}.npz",
        title=f"{name}-player Cage",
        defaults=_table_defaults(players),
        wins_at_once=can_win,
    )
    for players, name in ((3, "three"), (4, "four"))
}
"""The Cage at three and four players: a sample lists the legal actions' canonical ids, and
the value target every seat's result from the mover's round the table."""

RECIPE = Recipe(
    game="cage",
    players=2,
    inputs=FEATURES,
    heads=(NUM_ACTIONS,),
    max_moves=NUM_ACTIONS,
    codec=_codec,
    selfplay=_selfplay,
    weights=WEIGHTS / "cage2.npz",
    title="two-player Cage",
    # A twist may make a line for the other seat: every move is tried in the engine.
    wins_at_once=can_win,
    variants=tuple(TABLES.values()),
)
"""The two-player Cage: every sample lists the 55 canonical actions (the mask marks the legal
ones), one policy head; its variants are the larger tables."""
