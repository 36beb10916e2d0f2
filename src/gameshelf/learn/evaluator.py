"""The network as a function of engine positions: move priors and every seat's value.

:class:`NetEvaluator` reads a batch of positions through the game's codec, runs the network once
over all of them (one jitted forward; the batch is padded to a power of two so that a handful of
compilations serve every batch size), and turns each position's head logits into priors over its
legal moves, and its values into one per seat from the mover's round the table (at two seats the
network gives the mover's alone, and the other's is its negation). ``master`` asks it one position
at a time; the batched self-play asks it for every leaf its trees want at once.
"""

from __future__ import annotations

from typing import Any

import equinox as eqx
import jax
import numpy as np

from gameshelf.core.game import State

from .network import PolicyValueNet, batched, head_offsets, move_logits
from .recipe import Codec


class NetEvaluator:
    """``evaluator(states, actions) -> [(priors, values)]`` with ``net`` through ``codec``, for
    a game of ``players`` seats."""

    def __init__(
        self, net: PolicyValueNet, codec: Codec, heads: tuple[int, ...], players: int
    ) -> None:
        self.net = net
        self.codec = codec
        self.offsets = head_offsets(heads)
        self.players = players

    def __call__(
        self, states: list[State], actions: list[list[int]]
    ) -> list[tuple[list[float], list[float]]]:
        """For each state, the priors of its ``actions`` (summing to 1) and each seat's value,
        the mover's first and then round the table."""
        features = np.stack([self.codec.features(state) for state in states])
        size = 1 << (len(states) - 1).bit_length()
        padded = np.zeros((size, features.shape[1]), np.float32)
        padded[: len(states)] = features
        logits, values = (np.asarray(x) for x in _forward(self.net, padded))
        out = []
        for row, (state, legal) in enumerate(zip(states, actions, strict=True)):
            codes = self.codec.move_codes(state, legal)
            chosen = move_logits(np, logits[row], codes, self.offsets)
            weights = np.exp(chosen - chosen.max())
            out.append(((weights / weights.sum()).tolist(), self._seats(values[row])))
        return out

    def _seats(self, values: np.ndarray) -> list[float]:
        """One value per seat from the network's row (the mover's alone at two seats)."""
        if len(values) == 1 and self.players == 2:
            return [float(values[0]), -float(values[0])]
        return [float(v) for v in values]


@eqx.filter_jit
def _forward(net: PolicyValueNet, features: Any) -> tuple[jax.Array, jax.Array]:
    # One compiled function for every network of a shape: the arrays are arguments, not
    # constants baked into each caller's own compilation.
    return batched(net, features)
