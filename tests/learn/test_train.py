"""The learner: a step lowers the loss, and the replay buffer keeps the newest samples."""

from __future__ import annotations

import numpy as np
import pytest

from gameshelf.learn.cage.sizes import FEATURES, NUM_ACTIONS
from gameshelf.learn.network import NetConfig, init_network
from gameshelf.learn.samples import Samples
from gameshelf.learn.train import Learner, ReplayBuffer, TrainConfig, loss

HEADS = (NUM_ACTIONS,)


def fixed_batch(size: int, seed: int = 0) -> Samples:
    rng = np.random.default_rng(seed)
    mask = rng.random((size, NUM_ACTIONS)) < 0.5
    mask[:, 0] = True
    policy = rng.random((size, NUM_ACTIONS)) * mask
    return Samples(
        features=(rng.random((size, FEATURES)) < 0.3).astype(np.float32),
        policy=(policy / policy.sum(axis=1, keepdims=True)).astype(np.float32),
        mask=mask,
        moves=np.broadcast_to(np.arange(NUM_ACTIONS)[:, None], (size, NUM_ACTIONS, 1)).copy(),
        value=rng.choice([-1.0, 0.0, 1.0], (size, 1)).astype(np.float32),
    )


def test_one_step_lowers_the_loss_on_a_fixed_batch() -> None:
    batch = fixed_batch(64)
    net = init_network(NetConfig(2, 32, 1), 0, FEATURES, HEADS)
    learner = Learner(net, TrainConfig(learning_rate=3e-3), HEADS)
    offsets = learner.offsets
    before = float(loss(learner.net, batch, offsets)[0])
    reported = learner.update(batch)
    after = float(loss(learner.net, batch, offsets)[0])
    assert reported["loss"] == pytest.approx(before, rel=1e-4)
    assert after < before


def test_the_buffer_keeps_the_newest_samples_when_full() -> None:
    buffer = ReplayBuffer(5, fixed_batch(0))
    first, second = fixed_batch(4, 1), fixed_batch(3, 2)
    buffer.add(first)
    buffer.add(second)
    assert buffer.size == 5
    drawn = buffer.sample(np.random.default_rng(0), 200)
    kept = {row.tobytes() for row in np.concatenate([first.features[2:], second.features])}
    assert {row.tobytes() for row in drawn.features} == kept


def test_an_empty_buffer_says_so() -> None:
    with pytest.raises(ValueError, match="empty"):
        ReplayBuffer(3, fixed_batch(0)).sample(np.random.default_rng(0), 1)
    with pytest.raises(ValueError, match="room"):
        ReplayBuffer(0, fixed_batch(0))
