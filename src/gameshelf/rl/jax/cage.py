"""Rubik's Cage as a functional JAX environment: ``init`` / ``step`` / ``observe`` that ``jit`` and
``vmap`` (the shape pgx popularised), for batch simulation on the CPU or a GPU.

It plays the default rules of ``cage(players=N)`` (N = 2, 3 or 4) exactly as the reference
engine does — gravity, twists, flips, the syntactic no-reverse rule, lines, the draw after the
last drop, the ply cap and the repetition draw — and a differential test holds it to that
(``tests/rl/test_jax_cage.py``). Positions for the repetition rule are kept exactly (the three
planes, the player and the forbidden turn in three 32-bit words), not hashed.

The board is kept as bitboards: three 24-bit bit planes of colour + 1 plus one word for occupancy,
bit ``8*z + r`` for ring position ``r`` of layer ``z`` (the engine's cell index). A layer is then
one byte, so a twist is a byte rotation, the flip a fixed bit reversal and a byte swap, gravity
three shift-and-mask passes and the 28 lines a handful of shifted ANDs; a colour's own bitboard is
three ANDs away. ``cells(state)`` gives the engine's ``int8[24]`` board back.

In outline (``key`` a JAX random key, ``actions`` one action id per game)::

    env = CageEnv(players=2)
    states = jax.vmap(env.init)(jax.random.split(key, 4096))
    states = jax.jit(jax.vmap(env.step))(states, actions)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from gameshelf.games.cage.geometry import CELLS, LAYERS, RING
from gameshelf.games.cage.options import CUBIES_PER_COLOUR, STANDARD_COLOURS

NUM_ACTIONS = 55
TWIST_BASE = 48
FLIP = 54
COLOURS = 6
PLANES = 3  # bit planes of colour + 1 (1..6)
OCCUPIED = PLANES  # index of the occupancy word in ``boards``
NO_FORBID = 7  # no turn is forbidden (after a drop or at the start)

_U32 = jnp.uint32
_BYTES = 0x010101  # bit r of every layer
_LAYER0 = 0xFF


class CageJaxState(NamedTuple):
    """One environment (add a leading batch axis with ``vmap``)."""

    boards: jax.Array  # uint32[4]: bit planes k of colour + 1, then occupancy; bit 8*z + r
    left: jax.Array  # int8[6]: cubies left per colour
    current_player: jax.Array  # int32[]
    last: jax.Array  # int32[]: last action, -1 before the first move
    ply: jax.Array  # int32[]
    terminated: jax.Array  # bool[]
    rewards: jax.Array  # float32[players]: returns of the move just made (final at the end)
    legal_action_mask: jax.Array  # bool[55]
    history: jax.Array  # uint32[players, 3, max_plies / players]: positions since the last drop,
    #   packed exactly; entry j at [j % players, :, j // players], so that the entries of the
    #   player to move (the only ones that can match) lie together. Size 0 if repetition_draw=0.
    history_len: jax.Array  # int32[]: how many of ``history`` count (the rest is stale)


def _u32(value: int) -> jax.Array:
    return jnp.asarray(value, dtype=_U32)


_SOLID = 0x7FFFFFFF  # above every value passed to ``_solid``, and not a power of two


def _solid(x: jax.Array) -> jax.Array:
    """``x`` itself (0 <= x < 2^31 - 1), computed once and stored.

    XLA's CPU fusion copies cheap elementwise producers into every consumer, so a value used
    by a per-action or per-history-entry loop would be recomputed — the whole move — once per
    element. An integer remainder counts as expensive, so XLA keeps it (and what it depends
    on) out of such loops; by a constant that is not a power of two it is not simplified away.
    """
    return x % jnp.asarray(_SOLID, dtype=x.dtype)


def _rotate_right(x: jax.Array, bits: int) -> jax.Array:
    """Every byte rotated so that its bit j takes bit (j + bits) mod 8."""
    low = (0xFF >> bits) * _BYTES
    return ((x >> bits) & _u32(low)) | ((x << (8 - bits)) & _u32(0xFFFFFF ^ low))


def _has_line(x: jax.Array) -> jax.Array:
    """Whether bitboard(s) ``x`` hold one of the 28 lines (rows, columns, diagonals of a face).

    Faces span ring positions 2k, 2k+1, 2k+2 (mod 8): a row starts at an even ``r`` of a layer,
    a column is ``r`` in all three layers, a diagonal climbs (or falls) one position per layer.
    """
    r1 = _rotate_right(x, 1)
    r2 = _rotate_right(x, 2)
    rows = x & r1 & r2 & _u32(0x55 * _BYTES)
    columns = x & (x >> 8) & (x >> 16) & _u32(_LAYER0)
    diagonals = (r1 >> 8) & ((x & (r2 >> 16)) | ((x >> 16) & r2)) & _u32(0x55)
    return (rows | columns | diagonals) != 0


def _flipped(x: jax.Array) -> jax.Array:
    """The cage upside down before settling: (r, z) -> ((6 - r) mod 8, 2 - z)."""
    y = ((x & _u32(0xF0F0F0)) >> 4) | ((x & _u32(0x0F0F0F)) << 4)
    y = ((y & _u32(0xCCCCCC)) >> 2) | ((y & _u32(0x333333)) << 2)
    y = ((y & _u32(0xAAAAAA)) >> 1) | ((y & _u32(0x555555)) << 1)  # r -> 7 - r
    y = ((y >> 1) & _u32(0x7F7F7F)) | (x & _u32(0x808080))  # r -> 6 - r, 7 stays
    return ((y & _u32(0xFF)) << 16) | (y & _u32(0xFF00)) | ((y >> 16) & _u32(0xFF))


def _colour_board(words: list[jax.Array], colour: int) -> jax.Array:
    """The cells holding ``colour`` (0..5), from the bit planes of colour + 1."""
    value = colour + 1
    board = words[OCCUPIED]
    for k in range(PLANES):
        board = board & (words[k] if value >> k & 1 else ~words[k])
    return board


def _settled(words: list[jax.Array]) -> list[jax.Array]:
    """Every column packed to the bottom, keeping the order of its cubies (three passes).

    ``words`` are the bit planes with the occupancy last.
    """
    for layer in (0, 1, 0):
        occupied = words[OCCUPIED]
        falls = _solid((occupied >> 8) & ~occupied & _u32(_LAYER0 << (8 * layer)))
        words = [(w | ((w >> 8) & falls)) & ~(falls << 8) for w in words]
    return words


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
        # Entries per player: the positions since the last drop alternate between the players.
        self.history_size = -(-max_plies // players) if repetition_draw > 0 else 0
        self._no_slot = players * self.history_size  # a slot past the end: writes nothing
        self.repetition_draw = repetition_draw
        owner = np.full(COLOURS, -1, dtype=np.int32)
        stock = np.zeros(COLOURS, dtype=np.int8)
        for player, colours in enumerate(STANDARD_COLOURS[players]):
            for colour in colours:
                owner[colour] = player
                stock[colour] = CUBIES_PER_COLOUR
        self._colours = STANDARD_COLOURS[players]
        self._owner = jnp.asarray(owner)
        self._stock = jnp.asarray(stock)

    # --- the functional API ---------------------------------------------------------------
    def init(self, key: jax.Array | None = None) -> CageJaxState:
        """The empty cage, player 0 to move (``key`` is accepted for pgx compatibility)."""
        empty = jnp.zeros(PLANES + 1, dtype=_U32)
        return CageJaxState(
            boards=empty,
            left=self._stock,
            current_player=jnp.int32(0),
            last=jnp.int32(-1),
            ply=jnp.int32(0),
            terminated=jnp.bool_(False),
            rewards=jnp.zeros(self.players, dtype=jnp.float32),
            legal_action_mask=self._mask(empty[OCCUPIED], self._stock, jnp.int32(0), NO_FORBID),
            history=jnp.zeros((self.players, 3, self.history_size), dtype=_U32),
            history_len=jnp.int32(0),
        )

    def step(self, state: CageJaxState, action: jax.Array) -> CageJaxState:
        """Play ``action`` (assumed legal); a terminated state stays as it is, rewards zeroed."""
        played, slot, key = self._play(state, jnp.asarray(action, dtype=jnp.int32))
        done = state.terminated
        frozen = state._replace(rewards=jnp.zeros_like(state.rewards))
        small = [name for name in CageJaxState._fields if name != "history"]
        kept = {
            name: jnp.where(done, getattr(frozen, name), getattr(played, name)) for name in small
        }
        # The buffer is only ever written past the positions that count, so it needs no select:
        # a drop, or a finished game, writes nowhere (its slot is past the end).
        slot = _solid(jnp.where(done, self._no_slot, slot))
        row = jnp.arange(self.players)[:, None, None] == slot % self.players
        column = jnp.arange(self.history_size) == slot // self.players
        history = jnp.where(row & column, key[:, None], state.history)
        return CageJaxState(history=history, **kept)

    def observe(self, state: CageJaxState, player: jax.Array | int) -> jax.Array:
        """bool[3, 8, 7]: layers x ring positions x (6 colour planes, "a colour of ``player``")."""
        bits = jnp.arange(CELLS, dtype=_U32)
        words = [state.boards[i] for i in range(PLANES + 1)]
        colour_boards = jnp.stack([_colour_board(words, c) for c in range(COLOURS)])
        planes = ((colour_boards[:, None] >> bits) & 1) != 0  # [6, 24]
        mine = jnp.any(planes & (self._owner[:, None] == player), axis=0)
        stacked = jnp.concatenate([planes, mine[None]], axis=0)  # [7, 24]
        return stacked.T.reshape(LAYERS, RING, COLOURS + 1)

    # --- rules ----------------------------------------------------------------------------
    def _play(
        self, state: CageJaxState, action: jax.Array
    ) -> tuple[CageJaxState, jax.Array, jax.Array]:
        """The state after ``action``, the history slot to write and the key to write there."""
        words = [state.boards[i] for i in range(PLANES + 1)]
        is_drop = action < TWIST_BASE
        # A drop lands on the lowest empty cell of its column.
        colour = jnp.minimum(action, TWIST_BASE - 1) >> 3
        column = (action & 7).astype(_U32)
        empty = ~words[OCCUPIED] & (_u32(_BYTES) << column)
        cell = empty & (~empty + _u32(1))  # lowest set bit
        value = colour + 1
        dropped = [
            w | jnp.where(((value >> k) & 1) == 1, cell, _u32(0)) for k, w in enumerate(words[:-1])
        ]
        dropped.append(words[OCCUPIED] | cell)
        # A twist rotates one layer (one byte) by two ring positions; then everything settles.
        turn = jnp.clip(action - TWIST_BASE, 0, 5)
        shift = (8 * (turn >> 1)).astype(_U32)
        by = jnp.where((turn & 1) == 0, 2, 6).astype(_U32)  # (z, +1) carries r to r + 2
        keep = ~(_u32(0xFF) << shift)
        is_flip = action == FLIP
        turned = []
        for w in words:
            layer = (w >> shift) & _u32(0xFF)
            layer = ((layer << by) | (layer >> (_u32(8) - by))) & _u32(0xFF)
            turned.append(jnp.where(is_flip, _flipped(w), (w & keep) | (layer << shift)))
        turned = _settled(turned)
        new = [_solid(jnp.where(is_drop, d, t)) for d, t in zip(dropped, turned, strict=True)]

        used = is_drop & (jnp.arange(COLOURS) == colour)
        left = state.left - used.astype(jnp.int8)
        player = (state.current_player + 1) % self.players
        ply = state.ply + 1
        # Bit p: player p owns a line (one word, so the lines are found once, not per player).
        owned_lines = jnp.int32(0)
        for p, colours in enumerate(self._colours):
            for c in colours:
                found = _has_line(_colour_board(new, c)).astype(jnp.int32)
                owned_lines = owned_lines | (found << p)
        owned_lines = _solid(owned_lines)
        has_line = ((owned_lines >> jnp.arange(self.players)) & 1) != 0
        owners = jnp.sum(has_line)
        win = owners == 1
        rewards = jnp.where(win, jnp.where(has_line, 1.0, -1.0), 0.0).astype(jnp.float32)
        last_drop = is_drop & (jnp.sum(left) == 0)

        forbid = jnp.where(is_drop, NO_FORBID, jnp.where(is_flip, 6, (action - TWIST_BASE) ^ 1))
        key = self._key(new, player, forbid)
        history_len = jnp.where(is_drop, 0, state.history_len)
        # Earlier entries j < history_len with j = history_len (mod players): same player.
        same_player = state.history[history_len % self.players]  # [3, history_size]
        counted = jnp.arange(self.history_size) < history_len // self.players
        matches = (
            (same_player[0] == key[0]) & (same_player[1] == key[1]) & (same_player[2] == key[2])
        )
        # (an int8 count: the repetition count caps the game well below 128 repeats)
        repeats = jnp.sum(matches & counted, dtype=jnp.int8).astype(jnp.int32)
        occurrences = jnp.where(is_drop, 1, repeats + 1)
        slot = jnp.where(is_drop, self._no_slot, history_len)
        history_len = jnp.where(is_drop, 0, history_len + 1)
        repeated = (self.repetition_draw > 0) & (occurrences >= max(self.repetition_draw, 1))
        terminated = (owners > 0) | last_drop | (ply >= self.max_plies) | repeated
        mask = self._mask(new[OCCUPIED], left, player, forbid)
        played = CageJaxState(
            boards=jnp.stack(new),
            left=left,
            current_player=player,
            last=action,
            ply=ply,
            terminated=terminated,
            rewards=rewards,
            legal_action_mask=mask & ~terminated,
            history=state.history,
            history_len=history_len,
        )
        return played, slot, key

    def _mask(
        self, occupied: jax.Array, left: jax.Array, player: jax.Array, forbid: jax.Array | int
    ) -> jax.Array:
        """Drops of the mover's colours into open columns, then every turn but ``forbid``."""
        open_columns = ~(occupied >> 16) & _u32(0xFF)
        playable = (self._owner == player) & (left > 0)
        colour_bits = jnp.sum(playable.astype(_U32) << jnp.arange(COLOURS, dtype=_U32))
        # One word: bits 0-7 open columns, 8-13 playable colours, 16-18 the forbidden turn.
        packed = _solid(
            open_columns | (colour_bits << 8) | (jnp.asarray(forbid).astype(_U32) << 16)
        )
        actions = jnp.arange(NUM_ACTIONS, dtype=_U32)
        drop_ok = (packed >> (actions & 7)) & (packed >> (8 + (actions >> 3))) & 1
        turn_ok = ((packed >> 16) & 7) != actions - TWIST_BASE
        return jnp.where(actions < TWIST_BASE, drop_ok != 0, turn_ok)

    @staticmethod
    def _key(words: list[jax.Array], player: jax.Array, forbid: jax.Array) -> jax.Array:
        """The repetition key, exactly: the board as three bit planes of colour + 1 (24 bits
        each), the player to move and the forbidden turn (0..6) in the first word's top bits."""
        low, mid, high = words[:PLANES]
        top = (player.astype(_U32) << 24) | (forbid.astype(_U32) << 27)
        return jnp.stack([_solid(low | top), _solid(mid), _solid(high)])


def cells(state: CageJaxState) -> jax.Array:
    """The engine's board, ``int8[..., 24]``: colour + 1 per cell ``8*z + r``, 0 = empty."""
    bits = jnp.arange(CELLS, dtype=_U32)
    planes = (state.boards[..., :PLANES, None] >> bits) & 1  # [..., 3, 24]
    weights = (_u32(1) << jnp.arange(PLANES, dtype=_U32))[:, None]
    return jnp.sum(planes * weights, axis=-2).astype(jnp.int8)


def random_legal_actions(key: jax.Array, mask: jax.Array) -> Any:
    """A uniformly random legal action per row of ``mask`` (any action where none is legal).

    One uniform draw per row picks the k-th legal action, found in the mask packed into 32-bit
    words by a popcount binary search: one pass over the mask, where ``jax.random.categorical``
    draws a Gumbel number per action and a cumulative sum would take several passes.
    """
    size = mask.shape[-1]
    words = []
    for start in range(0, size, 32):
        part = mask[..., start : start + 32].astype(_U32)
        weights = jnp.left_shift(_u32(1), jnp.arange(part.shape[-1], dtype=_U32))
        words.append(jnp.sum(part * weights, axis=-1, dtype=_U32))
    counts = [lax.population_count(word).astype(jnp.int32) for word in words]
    total = sum(counts[1:], counts[0])
    choices = jnp.where(total == 0, size, total)
    draw = jax.random.uniform(key, mask.shape[:-1])
    rank = jnp.minimum((draw * choices).astype(jnp.int32), choices - 1)
    # The word holding the rank-th legal action, and the rank within that word.
    word = jnp.zeros_like(words[0])
    base = jnp.zeros_like(rank)
    k = rank
    passed = jnp.zeros_like(rank)
    for index, (bits, count) in enumerate(zip(words, counts, strict=True)):
        here = (passed <= rank) & (rank < passed + count)
        word = jnp.where(here, bits, word)
        base = jnp.where(here, 32 * index, base)
        k = jnp.where(here, rank - passed, k)
        passed = passed + count
    position = jnp.zeros_like(k)
    for width in (16, 8, 4, 2, 1):
        low = lax.population_count(word & _u32((1 << width) - 1)).astype(jnp.int32)
        up = k >= low
        k = jnp.where(up, k - low, k)
        position = jnp.where(up, position + width, position)
        word = jnp.where(up, word >> width, word)
    return jnp.where(total == 0, rank, base + position).astype(jnp.int32)
