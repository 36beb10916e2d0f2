"""The network as a function of engine positions: move priors and the mover's value.

:class:`NetEvaluator` reads a batch of positions through the game's codec, runs the network
once over all of them (one jitted forward; the batch is padded to a power of two so that a
handful of compilations serve every batch size), and turns each position's head logits into
priors over its legal moves. ``master`` asks it one position at a time; the batched self-play
asks it for every leaf its trees want at once.
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
    """``evaluator(states, actions) -> [(priors, value)]`` with ``net`` through ``codec``."""

    def __init__(self, net: PolicyValueNet, codec: Codec, heads: tuple[int, ...]) -> None:
        self.net = net
        self.codec = codec
        self.offsets = head_offsets(heads)

    def __call__(
        self, states: list[State], actions: list[list[int]]
    ) -> list[tuple[list[float], float]]:
        """For each state, the priors of its ``actions`` (summing to 1) and the mover's value."""
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
            out.append(((weights / weights.sum()).tolist(), float(values[row])))
        return out


@eqx.filter_jit
def _forward(net: PolicyValueNet, features: Any) -> tuple[jax.Array, jax.Array]:
    # One compiled function for every network of a shape: the arrays are arguments, not
    # constants baked into each caller's own compilation.
    return batched(net, features)
