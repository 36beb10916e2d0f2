"""The learner: the loss, one optax update, and a replay buffer of recent self-play samples.

The loss is AlphaZero's: cross-entropy between the network's policy (over the legal moves only) and
the search's policy, plus the squared error between the values and the game's results (the mover's,
and at more than two seats every seat's). Weight decay comes from ``optax.adamw``.
"""

from __future__ import annotations

from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax  # type: ignore[import-untyped]

from .network import PolicyValueNet, batched, head_offsets, move_logits
from .samples import Samples
from .settings import TrainConfig


def loss(
    net: PolicyValueNet, batch: Samples, offsets: jax.Array
) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    """The total loss of ``net`` on ``batch`` and its two parts ``(policy, value)``
    (``offsets``: where each policy head starts, :func:`~.network.head_offsets`)."""
    outputs, value = batched(net, jnp.asarray(batch.features))
    logits = move_logits(jnp, outputs, jnp.asarray(batch.moves), offsets)
    logits = jnp.where(batch.mask, logits, -1e9)
    policy_loss = jnp.mean(optax.softmax_cross_entropy(logits, batch.policy))
    value_loss = jnp.mean((value - batch.value) ** 2)
    return policy_loss + value_loss, (policy_loss, value_loss)


class Learner:
    """The network and its optimiser state, updated one batch at a time."""

    def __init__(self, net: PolicyValueNet, config: TrainConfig, heads: tuple[int, ...]) -> None:
        self.config = config
        self.offsets = jnp.asarray(head_offsets(heads))
        self.optimizer = optax.adamw(config.learning_rate, weight_decay=config.weight_decay)
        self.net = net
        self.opt_state = self.optimizer.init(eqx.filter(net, eqx.is_array))
        self._update = eqx.filter_jit(self._step)

    def update(self, batch: Samples) -> dict[str, float]:
        """One gradient step on ``batch``; the losses before it."""
        self.net, self.opt_state, total, parts = self._update(
            self.net, self.opt_state, batch, self.offsets
        )
        return {"loss": float(total), "policy": float(parts[0]), "value": float(parts[1])}

    def _step(
        self, net: PolicyValueNet, opt_state: Any, batch: Samples, offsets: jax.Array
    ) -> tuple[PolicyValueNet, Any, jax.Array, tuple[jax.Array, jax.Array]]:
        (total, parts), grads = eqx.filter_value_and_grad(loss, has_aux=True)(net, batch, offsets)
        updates, opt_state = self.optimizer.update(grads, opt_state, eqx.filter(net, eqx.is_array))
        return eqx.apply_updates(net, updates), opt_state, total, parts


class ReplayBuffer:
    """The most recent ``capacity`` samples (of the shapes of ``like``); batches drawn
    uniformly at random."""

    def __init__(self, capacity: int, like: Samples) -> None:
        if capacity < 1:
            raise ValueError(f"the replay buffer needs room for a sample, not {capacity}")
        self.capacity = capacity
        self._data = Samples(
            *(np.zeros((capacity, *column.shape[1:]), column.dtype) for column in like)
        )
        self._next = 0
        self.size = 0

    def add(self, samples: Samples) -> None:
        """Store ``samples``, overwriting the oldest once full."""
        count = len(samples.features)
        rows = (self._next + np.arange(count)) % self.capacity
        for store, new in zip(self._data, samples, strict=True):
            store[rows] = new
        self._next = (self._next + count) % self.capacity
        self.size = min(self.capacity, self.size + count)

    def sample(self, rng: np.random.Generator, batch_size: int) -> Samples:
        """``batch_size`` stored samples drawn with replacement."""
        if self.size == 0:
            raise ValueError("the replay buffer is empty")
        rows = rng.integers(0, self.size, size=batch_size)
        return Samples(*(column[rows] for column in self._data))
