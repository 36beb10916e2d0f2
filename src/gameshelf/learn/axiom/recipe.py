"""Axiom's learning recipe: the network's inputs and heads, its codec, self-play and settings."""

from __future__ import annotations

import math
from pathlib import Path

from gameshelf.agents.axiom.encoding import AxiomActionEncoding, AxiomEncoder
from gameshelf.core.game import Game

from ..recipe import Codec, Recipe, SelfPlayer
from ..settings import NetConfig, RunSettings, SearchConfig, TrainConfig
from .capture import wins_at_once

FIXED = AxiomActionEncoding
HEADS = (FIXED.CELLS, FIXED.CELLS, FIXED.KINDS)
"""A move is scored by its source cell, its target cell and its kind in the fixed encoding."""
MAX_MOVES = 384
"""The legal moves a sample keeps (random games reach some 360; beyond, the most visited)."""

DEFAULTS = RunSettings(
    net=NetConfig(2, 128, 2),
    train=TrainConfig(batch_size=128, buffer_size=20_000),
    search=SearchConfig(simulations=32, leaves=4, sampled_plies=16),
    games_per_worker=16,
    plies_per_call=4,
    updates_per_call=4,
    eval_every=1000,
    eval_games=4,
    eval_opponents=("greedy", "hard@0.25"),
    eval_simulations=32,
    checkpoint_every=100,
)
"""Axiom's settings: self-play here makes far fewer positions a second than the JAX Cage's, so
fewer games a worker, fewer learner steps a call and a smaller replay buffer."""


def _codec(game: Game) -> Codec:
    from .codec import AxiomCodec  # NumPy: only where the network runs

    return AxiomCodec(game)


def _selfplay(settings: RunSettings, seed: int) -> SelfPlayer:
    from ..treeplay import TreeSelfPlayer

    return TreeSelfPlayer(RECIPE, settings, seed)


RECIPE = Recipe(
    game="axiom",
    players=2,
    inputs=sum(math.prod(shape) for _, shape in AxiomEncoder.pieces),
    heads=HEADS,
    max_moves=MAX_MOVES,
    codec=_codec,
    selfplay=_selfplay,
    weights=Path(__file__).resolve().parents[1] / "weights" / "axiom.npz",
    title="Axiom",
    defaults=DEFAULTS,
    wins_at_once=wins_at_once,
)
