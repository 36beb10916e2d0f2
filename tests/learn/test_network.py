"""The network's shapes and its weights file."""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from gameshelf.learn.cage.sizes import FEATURES, NUM_ACTIONS
from gameshelf.learn.network import (
    NetConfig,
    arrays_of,
    batched,
    head_offsets,
    init_network,
    load_weights,
    move_logits,
    save_weights,
)

HEADS = (NUM_ACTIONS,)


def test_one_position_gives_55_logits_and_a_value_in_range() -> None:
    net = init_network(NetConfig(2, 16, 2), 0, FEATURES, HEADS)
    logits, value = net(jnp.ones(FEATURES))
    assert logits.shape == (NUM_ACTIONS,)
    assert value.shape == (1,)  # two seats: the mover's value alone
    assert -1.0 <= float(value[0]) <= 1.0


def test_a_batch_gives_a_row_per_position() -> None:
    net = init_network(NetConfig(2, 16, 1), 0, FEATURES, HEADS)
    features = jax.random.uniform(jax.random.PRNGKey(0), (7, FEATURES))
    logits, value = batched(net, features)
    assert logits.shape == (7, NUM_ACTIONS)
    assert value.shape == (7, 1)
    one, _ = net(features[3])
    assert np.allclose(np.asarray(logits[3]), np.asarray(one), atol=1e-5)


@pytest.mark.parametrize("players", [3, 4])
def test_at_more_seats_the_value_head_gives_one_value_a_seat(players: int) -> None:
    net = init_network(NetConfig(players, 16, 1), 0, FEATURES, HEADS)
    _, value = net(jnp.ones(FEATURES))
    assert value.shape == (players,)
    assert np.all(np.abs(np.asarray(value)) <= 1.0)


def test_weights_round_trip_exactly_in_float32_and_closely_in_float16(tmp_path: Path) -> None:
    config = NetConfig(2, 16, 2)
    net = init_network(config, 4, FEATURES, HEADS)
    save_weights(net, config, tmp_path / "full.npz")
    save_weights(net, config, tmp_path / "half.npz", half=True)
    full, full_config = load_weights(tmp_path / "full.npz", FEATURES, HEADS)
    half, _ = load_weights(tmp_path / "half.npz", FEATURES, HEADS)
    assert full_config == config
    for a, b, c in zip(arrays_of(net), arrays_of(full), arrays_of(half), strict=True):
        assert np.array_equal(a, b)
        assert np.allclose(a, c, atol=2e-3)
    assert (tmp_path / "half.npz").stat().st_size < (tmp_path / "full.npz").stat().st_size


def test_a_file_of_the_wrong_shape_is_refused_by_name(tmp_path: Path) -> None:
    net = init_network(NetConfig(2, 16, 2), 0, FEATURES, HEADS)
    path = tmp_path / "w.npz"
    save_weights(net, NetConfig(2, 32, 2), path)  # declares a width it does not have
    with pytest.raises(ValueError, match=r"w\.npz: array 0 has shape"):
        load_weights(path, FEATURES, HEADS)
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(ValueError, match="not a gameshelf network"):
        load_weights(tmp_path / "other.npz", FEATURES, HEADS)
    (tmp_path / "junk.npz").write_text("junk", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot be read"):
        load_weights(tmp_path / "junk.npz", FEATURES, HEADS)


def test_a_move_is_scored_by_the_sum_of_its_heads() -> None:
    heads = (4, 3, 2)
    logits = np.arange(9, dtype=np.float32) * 10  # head 0: 0-30, head 1: 40-60, head 2: 70-80
    moves = np.array([[0, 0, 0], [3, 2, 1], [1, 0, 1]])
    offsets = head_offsets(heads)
    assert list(offsets) == [0, 4, 7]
    assert list(move_logits(np, logits, moves, offsets)) == [110.0, 170.0, 130.0]
    batch = move_logits(jnp, jnp.stack([logits, -logits]), jnp.stack([moves, moves]), offsets)
    assert np.asarray(batch).tolist() == [[110.0, 170.0, 130.0], [-110.0, -170.0, -130.0]]
