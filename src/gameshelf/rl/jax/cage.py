"""Rubik's Cage as a functional JAX environment: ``init`` / ``step`` / ``observe`` that ``jit`` and
``vmap`` (the shape pgx popularised), for batch simulation on the CPU or a GPU.

It plays the default rules of ``cage(players=N)`` (N = 2, 3 or 4) exactly as the reference
engine does — gravity, twists, flips, the syntactic no-reverse rule, lines, the draw after the
last drop, the ply cap and the repetition draw — and a differential test holds it to that
(``tests/rl/test_jax_cage.py``). Positions for the repetition rule are kept exactly (packed into
three 32-bit words), not hashed.

>>> env = CageEnv(players=2)                                    # doctest: +SKIP
>>> states = jax.vmap(env.init)(jax.random.split(key, 4096))
>>> states = jax.jit(jax.vmap(env.step))(states, actions)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from gameshelf.games.cage.geometry import CELLS, LINES, RING, TWIST_SOURCES
from gameshelf.games.cage.options import CUBIES_PER_COLOUR, STANDARD_COLOURS

NUM_ACTIONS = 55
TWIST_BASE = 48
FLIP = 54
COLOURS = 6


class CageJaxState(NamedTuple):
    """One environment (add a leading batch axis with ``vmap``)."""

    board: jax.Array  # int8[24]: colour + 1, 0 = empty; cell 8*z + r
    left: jax.Array  # int8[6]: cubies left per colour
    current_player: jax.Array  # int32[]
    last: jax.Array  # int32[]: last action, -1 before the first move
    ply: jax.Array  # int32[]
    terminated: jax.Array  # bool[]
    rewards: jax.Array  # float32[players]: returns of the move just made (final at the end)
    legal_action_mask: jax.Array  # bool[55]
    history: jax.Array  # int32[max_plies, 3]: positions since the last drop, packed exactly
    history_len: jax.Array  # int32[]


def _flip_source() -> tuple[int, ...]:
    """``new[i] = old[source[i]]`` for the flip before settling: (r, z) -> ((6 - r) % 8, 2 - z)."""
    source = [0] * CELLS
    for z in range(3):
        for r in range(RING):
            source[RING * (2 - z) + (6 - r) % RING] = RING * z + r
    return tuple(source)


class CageEnv:
    """The batchable Cage for ``players`` players under the default options.

    ``max_plies`` and ``repetition_draw`` follow the engine's options of the same name.
    """

    def __init__(self, players: int = 2, max_plies: int = 200, repetition_draw: int = 3) -> None:
        if players not in STANDARD_COLOURS:
            raise ValueError(f"players must be 2, 3 or 4, not {players}")
        if repetition_draw not in (0,) and not 2 <= repetition_draw <= 1000:
            raise ValueError("repetition_draw must be 0 or 2..1000")
        self.players = players
        self.max_plies = max_plies
        self.repetition_draw = repetition_draw
        owner = np.full(COLOURS, -1, dtype=np.int32)
        stock = np.zeros(COLOURS, dtype=np.int8)
        for player, colours in enumerate(STANDARD_COLOURS[players]):
            for colour in colours:
                owner[colour] = player
                stock[colour] = CUBIES_PER_COLOUR
        self._owner = jnp.asarray(owner)
        self._stock = jnp.asarray(stock)
        self._sources = jnp.asarray(np.array([*TWIST_SOURCES, _flip_source()], dtype=np.int32))
        self._lines = jnp.asarray(np.array(LINES, dtype=np.int32))
        self._drop_colour = jnp.asarray(np.arange(TWIST_BASE) // RING, dtype=jnp.int32)
        self._drop_column = jnp.asarray(np.arange(TWIST_BASE) % RING, dtype=jnp.int32)

    # --- the functional API ---------------------------------------------------------------
    def init(self, key: jax.Array | None = None) -> CageJaxState:
        """The empty cage, player 0 to move (``key`` is accepted for pgx compatibility)."""
        board = jnp.zeros(CELLS, dtype=jnp.int8)
        state = CageJaxState(
            board=board,
            left=self._stock,
            current_player=jnp.int32(0),
            last=jnp.int32(-1),
            ply=jnp.int32(0),
            terminated=jnp.bool_(False),
            rewards=jnp.zeros(self.players, dtype=jnp.float32),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, dtype=jnp.bool_),
            history=jnp.zeros((self.max_plies, 3), dtype=jnp.int32),
            history_len=jnp.int32(0),
        )
        return state._replace(legal_action_mask=self._mask(state))

    def step(self, state: CageJaxState, action: jax.Array) -> CageJaxState:
        """Play ``action`` (assumed legal); a terminated state stays as it is, rewards zeroed."""
        played = self._play(state, jnp.asarray(action, dtype=jnp.int32))
        frozen = state._replace(rewards=jnp.zeros_like(state.rewards))
        kept: CageJaxState = jax.tree_util.tree_map(
            lambda old, new: jnp.where(state.terminated, old, new), frozen, played
        )
        return kept

    def observe(self, state: CageJaxState, player: jax.Array | int) -> jax.Array:
        """bool[3, 8, 7]: layers x ring positions x (6 colour planes, "a colour of ``player``")."""
        cells = state.board.reshape(3, RING).astype(jnp.int32)
        colour_planes = cells[..., None] == jnp.arange(1, COLOURS + 1)
        owner = jnp.where(cells > 0, self._owner[jnp.maximum(cells - 1, 0)], -1)
        mine = (owner == jnp.asarray(player, dtype=jnp.int32))[..., None]
        return jnp.concatenate([colour_planes, mine], axis=-1)

    # --- rules ----------------------------------------------------------------------------
    def _play(self, state: CageJaxState, action: jax.Array) -> CageJaxState:
        is_drop = action < TWIST_BASE
        board = jnp.where(is_drop, self._dropped(state.board, action), self._turned(state, action))
        colour = self._drop_colour[jnp.minimum(action, TWIST_BASE - 1)]
        left = jnp.where(is_drop, state.left.at[colour].add(jnp.int8(-1)), state.left)
        mover = state.current_player
        player = (mover + 1) % self.players
        ply = state.ply + 1
        has_line = self._line_owners(board)
        owners = jnp.sum(has_line)
        win = owners == 1
        rewards = jnp.where(win, jnp.where(has_line, 1.0, -1.0), 0.0).astype(jnp.float32)
        last_drop = is_drop & (jnp.sum(left) == 0)
        key = self._pack(board, player, action)
        history_len = jnp.where(is_drop, 0, state.history_len)
        seen = jnp.arange(self.max_plies) < history_len
        matches = jnp.all(state.history == key, axis=1) & seen
        occurrences = jnp.where(is_drop, 1, jnp.sum(matches) + 1)
        history = jnp.where(
            is_drop,
            state.history,
            state.history.at[jnp.minimum(history_len, self.max_plies - 1)].set(key),
        )
        history_len = jnp.where(is_drop, 0, history_len + 1)
        repeated = (self.repetition_draw > 0) & (occurrences >= max(self.repetition_draw, 1))
        terminated = (owners > 0) | last_drop | (ply >= self.max_plies) | repeated
        new = CageJaxState(
            board=board,
            left=left,
            current_player=player,
            last=action,
            ply=ply,
            terminated=terminated,
            rewards=rewards,
            legal_action_mask=state.legal_action_mask,
            history=history,
            history_len=history_len,
        )
        mask = jnp.where(terminated, jnp.zeros(NUM_ACTIONS, dtype=jnp.bool_), self._mask(new))
        return new._replace(legal_action_mask=mask)

    def _dropped(self, board: jax.Array, action: jax.Array) -> jax.Array:
        safe = jnp.minimum(action, TWIST_BASE - 1)
        column = self._drop_column[safe]
        colour = self._drop_colour[safe]
        height = jnp.sum(board.reshape(3, RING)[:, column] != 0)
        cell = RING * jnp.minimum(height, 2) + column
        return board.at[cell].set((colour + 1).astype(jnp.int8))

    def _turned(self, state: CageJaxState, action: jax.Array) -> jax.Array:
        index = jnp.clip(action - TWIST_BASE, 0, 6)
        return _settle(state.board[self._sources[index]])

    def _line_owners(self, board: jax.Array) -> jax.Array:
        values = board[self._lines].astype(jnp.int32)  # [28, 3]
        mono = (values[:, 0] > 0) & (values[:, 0] == values[:, 1]) & (values[:, 1] == values[:, 2])
        owner = self._owner[jnp.maximum(values[:, 0] - 1, 0)]
        return jnp.any(
            mono[None, :] & (owner[None, :] == jnp.arange(self.players)[:, None]), axis=1
        )

    def _mask(self, state: CageJaxState) -> jax.Array:
        heights = jnp.sum(state.board.reshape(3, RING) != 0, axis=0)
        open_column = heights[self._drop_column] < 3
        colour = self._drop_colour
        drops = (
            (self._owner[colour] == state.current_player) & (state.left[colour] > 0) & open_column
        )
        turns = jnp.ones(NUM_ACTIONS - TWIST_BASE, dtype=jnp.bool_)
        mask = jnp.concatenate([drops, turns])
        inverse = jnp.where(state.last == FLIP, FLIP, state.last ^ 1)
        forbid = (state.last >= TWIST_BASE) & (jnp.arange(NUM_ACTIONS) == inverse)
        return mask & ~forbid

    @staticmethod
    def _pack(board: jax.Array, player: jax.Array, last: jax.Array) -> jax.Array:
        """The repetition key, exactly: 24 cells x 3 bits, the player and the forbidden move."""
        cells = board.astype(jnp.int32)
        weights = jnp.left_shift(1, 3 * jnp.arange(10, dtype=jnp.int32))
        first = jnp.sum(cells[0:10] * weights)
        second = jnp.sum(cells[10:20] * weights)
        forbid = jnp.where(last == FLIP, FLIP, last ^ 1) - TWIST_BASE  # 0..6 after a twist/flip
        third = jnp.sum(cells[20:24] * weights[:4]) + (player << 12) + (forbid << 14)
        return jnp.stack([first, second, third])


def _settle(board: jax.Array) -> jax.Array:
    """Pack every column to the bottom, keeping the order of its cubies."""
    columns = board.reshape(3, RING).T  # [8, 3]
    order = jnp.argsort(columns == 0, axis=1, stable=True)
    packed = jnp.take_along_axis(columns, order, axis=1)
    return packed.T.reshape(CELLS)


def random_legal_actions(key: jax.Array, mask: jax.Array) -> Any:
    """A uniformly random legal action per row of ``mask`` (any action where none is legal)."""
    logits = jnp.where(mask, 0.0, -jnp.inf)
    logits = jnp.where(jnp.any(mask, axis=-1, keepdims=True), logits, 0.0)
    return jax.random.categorical(key, logits, axis=-1)
