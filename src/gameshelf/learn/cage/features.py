"""What the network sees and what its policy means, from the mover's seat.

The network always plays "seat 0": the colours are renumbered so that the mover's colours come
first, then the next seat's, and so on round the table. One position seen from either seat is
then one input, which halves what two-player self-play has to learn. The policy is over
*canonical* actions in the same renumbering (a drop of canonical colour ``k`` into column ``c``
is ``8 * k + c``; twists and the flip keep their ids), and :class:`SeatTables` maps between
canonical and real action ids.

:func:`encode` is written once over the array API that NumPy and ``jax.numpy`` share, so the
trainer (JAX states) and the ``master`` level (engine states) compute the same features; a test
holds the two to each other along random games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gameshelf.games.cage.actions import FLIP, TWIST_BASE
from gameshelf.games.cage.geometry import CELLS, LINES, RING
from gameshelf.games.cage.options import CUBIES_PER_COLOUR, STANDARD_COLOURS

from .sizes import COLOURS, FORBID_SLOTS, NO_FORBID, NUM_ACTIONS

LINE_CELLS = np.asarray(LINES, dtype=np.int32)
"""The 28 lines of the cage, three cells each."""


@dataclass(frozen=True)
class SeatTables:
    """Renumbering tables for ``players`` seats, one row per seat to move.

    ``order[p, k]`` is the real colour in canonical slot ``k`` for mover ``p``;
    ``real_action[p, a]`` the real action of canonical action ``a``; ``canonical_action[p, r]``
    the canonical action of real action ``r`` (the inverse).
    """

    players: int
    order: np.ndarray
    real_action: np.ndarray
    canonical_action: np.ndarray


def seat_tables(players: int) -> SeatTables:
    """The renumbering tables of the standard colour split for ``players`` (2, 3 or 4)."""
    if players not in STANDARD_COLOURS:
        raise ValueError(f"players must be 2, 3 or 4, not {players}")
    seats = STANDARD_COLOURS[players]
    order = np.zeros((players, COLOURS), dtype=np.int32)
    real = np.zeros((players, NUM_ACTIONS), dtype=np.int32)
    canonical = np.zeros((players, NUM_ACTIONS), dtype=np.int32)
    for mover in range(players):
        colours = [c for k in range(players) for c in seats[(mover + k) % players]]
        # Fewer than six colours in play (four players own one each): the unused ones keep
        # the last slots, so that the table stays a permutation.
        colours += [c for c in range(COLOURS) if c not in colours]
        order[mover] = colours
        for action in range(NUM_ACTIONS):
            if action < TWIST_BASE:
                slot, column = divmod(action, RING)
                real[mover, action] = colours[slot] * RING + column
            else:
                real[mover, action] = action
        canonical[mover, real[mover]] = np.arange(NUM_ACTIONS)
    return SeatTables(players, order, real, canonical)


def forbidden_turn(xp: Any, last: Any) -> Any:
    """The turn slot the no-reverse rule forbids after ``last`` (``NO_FORBID`` after a drop or
    at the start): a twist forbids its inverse (id ^ 1), the flip forbids the flip."""
    turn = last - TWIST_BASE
    inverse = xp.where(last == FLIP, FLIP - TWIST_BASE, turn ^ 1)
    return xp.where(last < TWIST_BASE, NO_FORBID, inverse)


def encode(
    xp: Any,
    order: Any,
    cells: Any,
    left: Any,
    last: Any,
    ply: Any,
    max_plies: int,
) -> Any:
    """``float32[..., FEATURES]``: the features of positions given by their parts.

    ``xp`` is ``numpy`` or ``jax.numpy``; ``order`` the mover's row of ``SeatTables.order``
    (``[..., 6]``), ``cells`` the board as colour + 1 per cell (``[..., 24]``, 0 empty),
    ``left`` the cubies left per real colour (``[..., 6]``), ``last`` the last action
    (-1 before the first) and ``ply`` the plies played (both ``[...]``).
    """
    board = cells[..., :, None] == (order[..., None, :] + 1)  # [..., 24, 6]
    flat = xp.reshape(board, (*board.shape[:-2], CELLS * COLOURS))
    stock = xp.take_along_axis(left, order, axis=-1) / CUBIES_PER_COLOUR
    forbid = forbidden_turn(xp, last)[..., None] == xp.arange(FORBID_SLOTS)
    clock = (ply / max_plies)[..., None]
    per_line = xp.sum(board[..., LINE_CELLS, :], axis=-2) / 3  # [..., 28, 6]
    empty = cells == 0
    floor = xp.ones((*cells.shape[:-1], RING), dtype=bool)
    playable = empty & xp.concatenate([floor, cells[..., : CELLS - RING] != 0], axis=-1)
    lines = [
        xp.reshape(per_line, (*per_line.shape[:-2], len(LINES) * COLOURS)),
        xp.sum(empty[..., LINE_CELLS], axis=-1) / 3,
        xp.sum(playable[..., LINE_CELLS], axis=-1) / 3,
    ]
    parts = [flat, stock, forbid, clock, *lines]
    return xp.concatenate([xp.asarray(p, dtype=xp.float32) for p in parts], axis=-1)
