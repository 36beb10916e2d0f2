"""Batched self-play over the real engine: many games, each with its own PUCT tree, one network
call for the leaves of all of them.

For a game with no JAX copy (the engine's move generator is the hard part to rewrite), a worker
keeps ``games_per_worker`` games going. For each move of every game it grows each game's tree
(:mod:`.puct`) to ``simulations`` simulations: in each round every tree descends up to
``leaves`` times (virtual loss keeps one tree's descents apart), and the leaves of all trees are
valued in one batched network call (:class:`~.evaluator.NetEvaluator`). At each root, Dirichlet
noise is mixed into the priors (AlphaZero's exploration); the move is drawn in proportion to the
visits for the first ``sampled_plies`` plies of a game and is the most visited one after that.
The chosen move's subtree is kept for the next move. A finished game gives its samples (features,
the visit shares over the legal moves, the result from the mover's seat round the table) and is
replaced at once. The trees back up one value per seat, so the games may have two seats or more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gameshelf.core.game import State
from gameshelf.core.registry import load

from .evaluator import NetEvaluator
from .network import init_network, with_arrays
from .puct import Leaf, Node, Tree
from .recipe import Recipe
from .samples import Samples, concat_samples, empty_samples, value_target
from .settings import RunSettings

NOISE_SHARE = 0.25
"""How much of a root's priors is Dirichlet noise (AlphaZero's epsilon)."""
NOISE_SPREAD = 10.0
"""The noise's concentration is this over the number of legal moves (AlphaZero's alpha scaled
to the branching factor: about 0.3 for chess's 35 moves)."""


@dataclass
class Slot:
    """One game in progress: its tree and what its positions will teach once it ends."""

    tree: Tree
    noised: bool = False
    moves: list[int] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    records: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)


class TreeSelfPlayer:
    """A worker's games on the engine of ``recipe``'s game (what a Ray actor holds)."""

    def __init__(self, recipe: Recipe, settings: RunSettings, seed: int) -> None:
        self.recipe = recipe
        self.search = settings.search
        self.plies = settings.plies_per_call
        self.game = load(recipe.game)
        self.codec = recipe.codec(self.game)
        self.skeleton = init_network(settings.net, 0, recipe.inputs, recipe.heads)
        self.values = settings.net.values
        self.rng = np.random.default_rng(seed)
        self.slots = [self._fresh() for _ in range(settings.games_per_worker)]
        self.empty = empty_samples(recipe.inputs, recipe.max_moves, len(recipe.heads), self.values)

    def _fresh(self) -> Slot:
        state = self.game.new_initial_state(int(self.rng.integers(2**31)))
        return Slot(Tree(state, self.recipe.wins_at_once))

    def play(self, weights: list[np.ndarray]) -> tuple[Samples, list[list[int]], int]:
        """Play ``plies_per_call`` moves in every game with the network of ``weights``."""
        net = with_arrays(self.skeleton, weights, "weights from the learner")
        evaluator = NetEvaluator(net, self.codec, self.recipe.heads, self.recipe.players)
        parts: list[Samples] = []
        games: list[list[int]] = []
        for _ in range(self.plies):
            self._think(evaluator)
            for index, slot in enumerate(self.slots):
                finished = self._move(slot)
                if finished is not None:
                    parts.append(finished)
                    games.append(slot.moves)
                    self.slots[index] = self._fresh()
        return concat_samples(parts, self.empty), games, self.plies * len(self.slots)

    def _think(self, evaluator: NetEvaluator) -> None:
        """Grow every game's tree to the simulations a move, a batch of leaves at a time."""
        fresh = [slot for slot in self.slots if not slot.tree.root.expanded]
        if fresh:
            states = [slot.tree.state for slot in fresh]
            valued = evaluator(states, [slot.tree.root.actions for slot in fresh])
            for slot, (priors, values) in zip(fresh, valued, strict=True):
                slot.tree.root.expand(priors, values)
        for slot in self.slots:
            if not slot.noised:
                self._add_noise(slot.tree.root)
                slot.noised = True
        while True:
            batches = [(slot.tree, self._descents(slot.tree)) for slot in self.slots]
            batches = [(tree, waiting) for tree, waiting in batches if waiting]
            if not batches:
                return
            leaves = [leaf for _, waiting in batches for leaf in waiting]
            valued = evaluator([leaf[2] for leaf in leaves], [leaf[1].actions for leaf in leaves])
            start = 0
            for tree, waiting in batches:
                tree.settle(waiting, valued[start : start + len(waiting)])
                start += len(waiting)

    def _descents(self, tree: Tree) -> list[Leaf]:
        """This round's leaves of ``tree`` for the network: up to ``leaves`` descents, none
        once the root has its simulations or only one move."""
        room = self.search.simulations - tree.root.total
        if len(tree.root.actions) < 2 or room <= 0:
            return []
        return tree.gather(min(self.search.leaves, room))[0]

    def _add_noise(self, root: Node) -> None:
        count = len(root.actions)
        if count < 2:
            return
        noise = self.rng.dirichlet(np.full(count, NOISE_SPREAD / count))
        mixed = (1 - NOISE_SHARE) * np.asarray(root.priors) + NOISE_SHARE * noise
        root.priors = mixed.tolist()

    def _move(self, slot: Slot) -> Samples | None:
        """Play one move in ``slot``'s game; its samples if that ended it."""
        tree = slot.tree
        root = tree.root
        visits = np.asarray(root.visits, np.float64)
        if visits.sum() == 0:  # one legal move: nothing was searched
            visits = np.asarray(root.priors, np.float64)
        share = visits / visits.sum()
        if len(slot.moves) < self.search.sampled_plies:
            index = int(self.rng.choice(len(share), p=share))
        else:
            index = root.ranked()[0]
        slot.records.append(self._record(tree.state, root, share))
        slot.movers.append(root.mover)
        slot.moves.append(root.actions[index])
        tree.advance(index)
        slot.noised = False
        if not tree.state.is_terminal():
            return None
        returns = tree.state.returns()
        features, codes, policy = (np.stack(column) for column in zip(*slot.records, strict=True))
        mask = policy >= 0
        return Samples(
            features=features,
            policy=np.where(mask, policy, 0.0).astype(np.float32),
            mask=mask,
            moves=codes,
            value=np.stack([value_target(returns, p, self.values) for p in slot.movers]),
        )

    def _record(
        self, state: State, root: Node, share: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A position's sample parts, its moves padded (or, past ``max_moves``, cut to the most
        visited) to ``max_moves`` slots; an unused slot's policy is -1 until masked."""
        limit = self.recipe.max_moves
        keep = root.ranked()[:limit]
        codes = np.zeros((limit, len(self.recipe.heads)), np.int32)
        policy = np.full(limit, -1.0, np.float32)
        codes[: len(keep)] = self.codec.move_codes(state, [root.actions[i] for i in keep])
        kept = share[keep]
        policy[: len(keep)] = kept / kept.sum()
        return self.codec.features(state), codes, policy
