"""The policy/value network (equinox) and its weights file.

A residual MLP over a game's features (its recipe's ``inputs``): one input layer, ``blocks``
residual layers of ``hidden`` units, policy logits for each of the recipe's heads side by side (a
move's logit is the sum of its index's logit in each head, see :func:`move_logits`) and a value head
``tanh``-squashed to expected results in [-1, 1]: the mover's alone at two seats, one per seat from
the mover's round the table at more (:attr:`~.settings.NetConfig.values`). It is small on purpose:
it trains on a CPU in minutes and its weights ship with the package.

The weights file is a NumPy ``.npz``: the network's shape (``players``, ``hidden``, ``blocks``;
its input and output sizes are the recipe's) and its arrays in a fixed order.
:func:`save_weights` can store them as float16 (the shipped file), :func:`load_weights` reads
either back as float32 and says what is wrong with a file that does not fit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from .settings import NetConfig


class PolicyValueNet(eqx.Module):
    """``net(features) -> (logits[outputs], values[config.values])`` for one position;
    ``jax.vmap`` it for a batch."""

    stem: eqx.nn.Linear
    blocks: list[eqx.nn.Linear]
    norms: list[eqx.nn.LayerNorm]
    policy: eqx.nn.Linear
    value: eqx.nn.Linear

    def __init__(self, config: NetConfig, inputs: int, outputs: int, key: jax.Array) -> None:
        keys = jax.random.split(key, config.blocks + 3)
        self.stem = eqx.nn.Linear(inputs, config.hidden, key=keys[0])
        self.blocks = [
            eqx.nn.Linear(config.hidden, config.hidden, key=k) for k in keys[1 : config.blocks + 1]
        ]
        self.norms = [eqx.nn.LayerNorm(config.hidden) for _ in range(config.blocks)]
        self.policy = eqx.nn.Linear(config.hidden, outputs, key=keys[-2])
        self.value = eqx.nn.Linear(config.hidden, config.values, key=keys[-1])

    def __call__(self, features: jax.Array) -> tuple[jax.Array, jax.Array]:
        """The policy heads' logits and the values (the mover's first) of one feature vector."""
        h = jax.nn.relu(self.stem(features))
        for layer, norm in zip(self.blocks, self.norms, strict=True):
            h = h + jax.nn.relu(layer(norm(h)))
        return self.policy(h), jnp.tanh(self.value(h))


def init_network(
    config: NetConfig, seed: int, inputs: int, heads: tuple[int, ...]
) -> PolicyValueNet:
    """A freshly initialised network reading ``inputs`` features, with policy ``heads``."""
    return PolicyValueNet(config, inputs, sum(heads), jax.random.PRNGKey(seed))


def batched(net: PolicyValueNet, features: jax.Array) -> tuple[jax.Array, jax.Array]:
    """``(logits[B, outputs], values[B, config.values])`` for ``features[B, inputs]``."""
    logits, value = jax.vmap(net)(features)
    return logits, value


def head_offsets(heads: tuple[int, ...]) -> np.ndarray:
    """Where each policy head starts among the network's outputs."""
    return np.concatenate([[0], np.cumsum(heads)[:-1]]).astype(np.int32)


def move_logits(xp: Any, logits: Any, moves: Any, offsets: Any) -> Any:
    """``[..., M]``: each move's logit, the sum over heads of its index's logit there.

    ``xp`` is ``numpy`` or ``jax.numpy``; ``logits`` ``[..., outputs]``; ``moves``
    ``[..., M, heads]`` (indices within each head); ``offsets`` from :func:`head_offsets`.
    """
    index = moves + offsets  # [..., M, heads]
    flat = xp.reshape(index, (*index.shape[:-2], -1))
    picked = xp.take_along_axis(logits, flat, axis=-1)
    return xp.sum(xp.reshape(picked, index.shape), axis=-1)


def arrays_of(tree: Any) -> list[np.ndarray]:
    """The arrays of a network (or any pytree of arrays), in a fixed order, as NumPy."""
    return [np.asarray(leaf) for leaf in jax.tree.leaves(eqx.filter(tree, eqx.is_array))]


def with_arrays(skeleton: Any, arrays: list[np.ndarray], source: str) -> Any:
    """``skeleton`` with its arrays replaced by ``arrays`` (same order as :func:`arrays_of`);
    ``ValueError`` naming ``source`` when their number or a shape differs."""
    params, static = eqx.partition(skeleton, eqx.is_array)
    leaves, treedef = jax.tree.flatten(params)
    if len(leaves) != len(arrays):
        raise ValueError(f"{source}: {len(arrays)} arrays where the network has {len(leaves)}")
    for index, (old, new) in enumerate(zip(leaves, arrays, strict=True)):
        if old.shape != new.shape:
            raise ValueError(
                f"{source}: array {index} has shape {new.shape}, the network needs {old.shape}"
            )
    fresh = [jnp.asarray(new, dtype=old.dtype) for old, new in zip(leaves, arrays, strict=True)]
    return eqx.combine(jax.tree.unflatten(treedef, fresh), static)


_SHAPE_KEYS = ("players", "hidden", "blocks")


def save_weights(net: PolicyValueNet, config: NetConfig, path: Path, half: bool = False) -> None:
    """Write the network to ``path`` (``.npz``); ``half`` stores float16, half the size (the
    shipped file; :func:`load_weights` widens it back to float32)."""
    dtype = np.float16 if half else np.float32
    arrays: dict[str, Any] = {f"a{i:03d}": a.astype(dtype) for i, a in enumerate(arrays_of(net))}
    arrays |= {key: np.asarray(getattr(config, key)) for key in _SHAPE_KEYS}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez_compressed(out, **arrays)


def load_weights(
    path: Path, inputs: int, heads: tuple[int, ...]
) -> tuple[PolicyValueNet, NetConfig]:
    """The network stored at ``path`` (reading ``inputs`` features, with policy ``heads``) and
    its shape; ``ValueError`` naming the file when it cannot be read or does not hold a network
    of that shape."""
    source = f"weights file {path}"
    try:
        with np.load(path) as data:
            stored = {key: data[key] for key in data.files}
    except (OSError, ValueError) as exc:
        raise ValueError(f"{source}: cannot be read ({exc})") from None
    missing = [key for key in _SHAPE_KEYS if key not in stored]
    if missing:
        raise ValueError(f"{source}: no {', '.join(missing)} (not a gameshelf network)")
    config = NetConfig(**{key: int(stored.pop(key)) for key in _SHAPE_KEYS})
    arrays = [stored[key] for key in sorted(stored)]
    net = with_arrays(init_network(config, 0, inputs, heads), arrays, source)
    return net, config
