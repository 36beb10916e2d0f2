"""Training samples: what a self-play position teaches the network, for any game.

A sample is a position's features, its legal moves (up to ``max_moves``, each as its index in
every policy head), the search's policy over those moves, which move slots are real, and the
game's result for the player who moved. Games with few actions list every action in every
sample (the mask says which were legal); games with many list only the legal ones. The value
target is the result for the mover alone at two seats, and at more the result of every seat, the
mover's first and then round the table (:func:`value_target`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Samples(NamedTuple):
    """Training samples: arrays with a leading sample axis."""

    features: np.ndarray  # float32[N, inputs]: the position, for its mover
    policy: np.ndarray  # float32[N, max_moves]: the search's policy over the move slots
    mask: np.ndarray  # bool[N, max_moves]: the slots that hold a legal move
    moves: np.ndarray  # int32[N, max_moves, heads]: each slot's index in each policy head
    value: np.ndarray  # float32[N, values]: the game's result, from the mover's seat round


def empty_samples(inputs: int, max_moves: int, heads: int, values: int) -> Samples:
    """No samples, in arrays of the right shapes (``values``: the value head's outputs)."""
    return Samples(
        features=np.zeros((0, inputs), np.float32),
        policy=np.zeros((0, max_moves), np.float32),
        mask=np.zeros((0, max_moves), bool),
        moves=np.zeros((0, max_moves, heads), np.int32),
        value=np.zeros((0, values), np.float32),
    )


def concat_samples(parts: list[Samples], empty: Samples) -> Samples:
    """One :class:`Samples` of all ``parts`` (``empty`` for none)."""
    if not parts:
        return empty
    return Samples(*(np.concatenate(column) for column in zip(*parts, strict=True)))


def value_target(returns: list[float], mover: int, values: int) -> np.ndarray:
    """``float32[values]``: a finished game's ``returns`` seen from ``mover``'s seat: the
    mover's, then the next seat's and so on round the table, the first ``values`` of them."""
    seats = len(returns)
    return np.asarray([returns[(mover + k) % seats] for k in range(values)], np.float32)
