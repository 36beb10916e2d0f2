"""Batched self-play on the JAX Cage with mctx's Gumbel MuZero search guided by the network.

:class:`SelfPlay` plays ``batch`` games side by side for ``plies`` moves per call, each move chosen
by ``mctx.gumbel_muzero_policy`` over the true rules (the environment is the model, as in
AlphaZero), and starts a new game in a slot as soon as its game ends, so a call never wastes a
slot. The games carry over from one call to the next; :class:`GameCollector` stitches the plies of
each slot into whole games and turns a finished game into training samples (features, the
search's improved policy as the policy target, the game's result for the mover as the value
target) and the list of its moves.

Two players only: the search's backup negates the value each ply (``discount = -1``), which is
right for a two-player zero-sum game and wrong at three or four seats; those tables learn through
the engine with :mod:`gameshelf.learn.treeplay`, whose trees back up one value per seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import mctx  # type: ignore[import-untyped]
import numpy as np

from gameshelf.rl.jax.cage import CageEnv, CageJaxState, cells

from ..network import PolicyValueNet, batched, init_network, with_arrays
from ..samples import Samples, concat_samples, empty_samples
from ..settings import RunSettings, SearchConfig
from .features import SeatTables, encode, seat_tables
from .sizes import FEATURES, NUM_ACTIONS

EVERY_ACTION = np.arange(NUM_ACTIONS, dtype=np.int32)[:, None]
"""Each sample's move slots: the 55 canonical actions, one policy head."""


class Plies(NamedTuple):
    """``plies`` moves of ``batch`` games (arrays ``[plies, batch, ...]``)."""

    features: Any  # float32[..., FEATURES]: the position before the move, for its mover
    policy: Any  # float32[..., 55]: the search's policy over canonical actions
    mask: Any  # bool[..., 55]: the canonical actions that were legal
    player: Any  # int32[...]: the mover
    action: Any  # int32[...]: the real action played
    terminated: Any  # bool[...]: whether the move ended the game
    rewards: Any  # float32[..., players]: the result when it did


def jax_features(env: CageEnv, tables: SeatTables, states: CageJaxState) -> jax.Array:
    """The features of a batch of JAX states, each for its own mover."""
    order = jnp.asarray(tables.order)[states.current_player]
    features: jax.Array = encode(
        jnp, order, cells(states), states.left, states.last, states.ply, env.max_plies
    )
    return features


def _real_logits(tables: SeatTables, logits: jax.Array, player: jax.Array) -> jax.Array:
    """Canonical-action logits rearranged to the real action ids of each row's mover."""
    index = jnp.asarray(tables.canonical_action)[player]
    return jnp.take_along_axis(logits, index, axis=-1)


def _masked(logits: jax.Array, legal: jax.Array) -> jax.Array:
    return jnp.where(legal, logits - jnp.max(logits, axis=-1, keepdims=True), -1e9)


class SelfPlay:
    """Self-play of ``batch`` simultaneous two-player Cage games, ``plies`` moves per call."""

    def __init__(self, batch: int, plies: int, search: SearchConfig, max_plies: int = 200) -> None:
        self.env = CageEnv(players=2, max_plies=max_plies)
        self.tables = seat_tables(2)
        self.batch = batch
        self.plies = plies
        self.search = search
        self._run = eqx.filter_jit(self._chunk)

    def initial(self) -> CageJaxState:
        """``batch`` fresh games."""
        keys = jax.random.split(jax.random.PRNGKey(0), self.batch)
        return jax.vmap(self.env.init)(keys)

    def run(
        self, net: PolicyValueNet, states: CageJaxState, key: jax.Array
    ) -> tuple[CageJaxState, Plies]:
        """Play ``plies`` moves in every game; the states after them and what was played."""
        out: tuple[CageJaxState, Plies] = self._run(net, states, key)
        return out

    # --- inside jit -----------------------------------------------------------------------
    def _evaluate(self, net: PolicyValueNet, states: CageJaxState) -> tuple[jax.Array, jax.Array]:
        logits, values = batched(net, jax_features(self.env, self.tables, states))
        real = _real_logits(self.tables, logits, states.current_player)
        value = values[:, 0]  # two seats: the mover's value alone
        # A mover with a winning move has won: the search need not find the move to know.
        value = jnp.where(self._can_win(states), 1.0, value)
        return _masked(real, states.legal_action_mask), value

    def _can_win(self, states: CageJaxState) -> jax.Array:
        """Whether each state's mover has a legal move that wins at once (every action tried
        in the real rules: a twist may hand the line to the other seat instead)."""
        actions = jnp.arange(NUM_ACTIONS)

        def one(state: CageJaxState) -> jax.Array:
            after = jax.vmap(self.env.step, in_axes=(None, 0))(state, actions)
            wins = after.rewards[:, state.current_player] > 0
            return jnp.any(wins & state.legal_action_mask)

        won: jax.Array = jax.vmap(one)(states)
        return won

    def _recurrent(
        self, net: PolicyValueNet, key: jax.Array, action: jax.Array, states: CageJaxState
    ) -> tuple[mctx.RecurrentFnOutput, CageJaxState]:
        mover = states.current_player
        after = jax.vmap(self.env.step)(states, action)
        logits, value = self._evaluate(net, after)
        reward = jnp.take_along_axis(after.rewards, mover[:, None], axis=-1)[:, 0]
        done = after.terminated
        output = mctx.RecurrentFnOutput(
            reward=reward,
            discount=jnp.where(done, 0.0, -1.0),
            prior_logits=logits,
            value=jnp.where(done, 0.0, value),
        )
        return output, after

    def _move(
        self, net: PolicyValueNet, states: CageJaxState, key: jax.Array
    ) -> tuple[CageJaxState, Plies]:
        logits, value = self._evaluate(net, states)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=states)
        out = mctx.gumbel_muzero_policy(
            params=net,
            rng_key=key,
            root=root,
            recurrent_fn=self._recurrent,
            num_simulations=self.search.simulations,
            invalid_actions=~states.legal_action_mask,
            max_num_considered_actions=self.search.considered,
        )
        player = states.current_player
        real_of = jnp.asarray(self.tables.real_action)[player]
        after = jax.vmap(self.env.step)(states, out.action)
        fresh = self.initial()
        reset = jax.tree.map(
            lambda new, old: jnp.where(
                after.terminated.reshape((-1,) + (1,) * (old.ndim - 1)), new, old
            ),
            fresh,
            after,
        )
        plies = Plies(
            features=jax_features(self.env, self.tables, states),
            policy=jnp.take_along_axis(out.action_weights, real_of, axis=-1),
            mask=jnp.take_along_axis(states.legal_action_mask, real_of, axis=-1),
            player=player,
            action=out.action,
            terminated=after.terminated,
            rewards=after.rewards,
        )
        return reset, plies

    def _chunk(
        self, net: PolicyValueNet, states: CageJaxState, key: jax.Array
    ) -> tuple[CageJaxState, Plies]:
        def body(carry: CageJaxState, k: jax.Array) -> tuple[CageJaxState, Plies]:
            return self._move(net, carry, k)

        return jax.lax.scan(body, states, jax.random.split(key, self.plies))


@dataclass
class GameCollector:
    """Stitches the plies of each slot into games and turns finished games into samples."""

    batch: int
    open: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per slot, the (chunk, row) of each ply of its unfinished game."""

    def __post_init__(self) -> None:
        self.open = [[] for _ in range(self.batch)]
        self._chunks: dict[int, Plies] = {}
        self._next = 0

    def add(self, plies: Plies) -> tuple[Samples, list[list[int]]]:
        """Take one call's plies (NumPy arrays ``[plies, batch, ...]``); the samples and move
        lists of the games that ended in them."""
        chunk = self._next
        self._next += 1
        self._chunks[chunk] = plies
        parts: list[Samples] = []
        games: list[list[int]] = []
        for t in range(plies.action.shape[0]):
            for b in range(self.batch):
                self.open[b].append((chunk, t))
                if plies.terminated[t, b]:
                    samples, moves = self._finish(self.open[b], b, plies.rewards[t, b])
                    parts.append(samples)
                    games.append(moves)
                    self.open[b] = []
        self._forget()
        return concat_samples(parts, EMPTY), games

    def _finish(
        self, where: list[tuple[int, int]], slot: int, rewards: np.ndarray
    ) -> tuple[Samples, list[int]]:
        rows = [(self._chunks[c], t) for c, t in where]
        player = np.array([p.player[t, slot] for p, t in rows])
        samples = Samples(
            features=np.stack([p.features[t, slot] for p, t in rows]),
            policy=np.stack([p.policy[t, slot] for p, t in rows]),
            mask=np.stack([p.mask[t, slot] for p, t in rows]),
            moves=np.broadcast_to(EVERY_ACTION, (len(rows), *EVERY_ACTION.shape)).copy(),
            value=rewards[player].astype(np.float32)[:, None],
        )
        return samples, [int(p.action[t, slot]) for p, t in rows]

    def _forget(self) -> None:
        """Drop the chunks no unfinished game still reads."""
        needed = min((plies[0][0] for plies in self.open if plies), default=self._next)
        for index in [c for c in self._chunks if c < needed]:
            del self._chunks[index]


EMPTY = empty_samples(FEATURES, NUM_ACTIONS, 1, 1)


class CageSelfPlayer:
    """One worker's batch of Cage games, kept going between calls (what a Ray actor holds)."""

    def __init__(self, settings: RunSettings, seed: int) -> None:
        self.selfplay = SelfPlay(
            settings.games_per_worker, settings.plies_per_call, settings.search
        )
        self.skeleton = init_network(settings.net, 0, FEATURES, (NUM_ACTIONS,))
        self.states = self.selfplay.initial()
        self.collector = GameCollector(settings.games_per_worker)
        self.key = jax.random.PRNGKey(seed)

    def play(self, weights: list[np.ndarray]) -> tuple[Samples, list[list[int]], int]:
        """Play one call's moves with the network of ``weights`` (the learner's arrays)."""
        net = with_arrays(self.skeleton, weights, "weights from the learner")
        self.key, key = jax.random.split(self.key)
        self.states, plies = self.selfplay.run(net, self.states, key)
        samples, games = self.collector.add(Plies(*(np.asarray(x) for x in plies)))
        return samples, games, self.selfplay.batch * self.selfplay.plies
