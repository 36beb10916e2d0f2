"""Information-set MCTS (single observer) for games with hidden information and chance.

Each iteration draws a *determinisation* — a full world consistent with the bot's own
knowledge (:mod:`gameshelf.agents.determinize`) — and walks one tree shared by all worlds.
Tree edges are what the bot observes: its own moves, public moves and public chance outcomes
by their action id; moves and draws it cannot see all share one edge
(:data:`~gameshelf.agents.determinize.HIDDEN_EDGE`) and are sampled in the world. Selection uses
UCB with availability counts, since which moves exist differs between worlds.

Two hooks let a game-specific subclass steer the search without changing what it may see:
:meth:`ISMCTSAgent.actions` (the moves searched, e.g. one of several equivalent ones) and
:meth:`ISMCTSAgent.root_prior` (a heuristic value per root move, added to UCB as a
*progressive bias* ``prior_weight * prior / (visits + 1)`` that fades as visits grow).
"""

from __future__ import annotations

import math
import time

from gameshelf.core.game import Game, State

from .base import Agent
from .determinize import (
    HIDDEN_EDGE,
    Determinizer,
    Observer,
    determinizer_for,
    everything_visible,
)
from .evaluators import Evaluator, evaluator_for
from .mcts import RolloutPolicy, random_rollout_policy
from .packs import pack_for


class ISNode:
    """A node of the observer's tree: statistics, availability and children by edge key."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int, players: int) -> None:
        self.mover = mover
        self.children: dict[int, ISNode] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * players


ROLLOUT_DEPTH = 60
"""Plies a playout runs before the evaluator judges the rest, unless a level sets its own."""


class ISMCTSAgent(Agent):
    """Single-observer IS-MCTS; it reads nothing but its determinisations of its own view."""

    name = "ismcts"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        iterations: int = 300,
        exploration: float = 0.7,
        rollout_depth: int = ROLLOUT_DEPTH,
        evaluator: Evaluator | None = None,
        rollout_policy: RolloutPolicy = random_rollout_policy,
        determinizer: Determinizer | None = None,
        observer: Observer | None = None,
        time_limit: float | None = None,
        prior_weight: float = 0.0,
    ) -> None:
        super().__init__(game, seed)
        if determinizer is None:
            determinizer, _ = determinizer_for(game)
        self.determinize = determinizer
        self.visible = observer or pack_for(game).observer or everything_visible
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.evaluator = evaluator or evaluator_for(game)
        self.rollout_policy = rollout_policy
        self.time_limit = time_limit
        self.players = game.spec.num_players
        self._low = game.spec.min_utility
        self._span = (game.spec.max_utility - game.spec.min_utility) or 1.0
        self.last_iterations = 0
        self.last_stats: dict[int, tuple[int, float]] = {}
        self.prior_weight = prior_weight
        self._root: ISNode | None = None
        self._prior: dict[int, float] = {}

    def actions(self, world: State) -> list[int]:
        """The moves searched in ``world`` (all legal moves here; a subclass may drop moves
        that are equivalent to another one)."""
        return world.legal_actions()

    def root_prior(self, world: State, me: int, legal: list[int]) -> dict[int, float]:
        """A heuristic value in [0, 1] per root move for the progressive bias (none here)."""
        return {}

    def step(self, state: State) -> int:
        """Search over determinisations of the bot's view; play the most visited own move."""
        me = state.current_player()
        root = ISNode(-1, self.players)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        first = self.determinize(state, me, self.rng)
        legal = self.actions(first)
        if len(legal) == 1:
            self.last_stats = {legal[0]: (0, 0.0)}
            return legal[0]
        self._root = root
        self._prior = self.root_prior(first, me, legal) if self.prior_weight else {}
        while done < self.iterations:
            world = first if done == 0 else self.determinize(state, me, self.rng)
            self.iterate(root, world, me)
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_iterations = done
        self._root, self._prior = None, {}
        self.last_stats = {
            a: (c.visits, c.total[me] / c.visits) for a, c in root.children.items() if c.visits
        }
        options = [(a, c) for a, c in root.children.items() if a in legal]
        if not options:
            return self.rng.choice(legal)
        return max(options, key=lambda item: (item[1].visits, item[1].total[me]))[0]

    def iterate(self, root: ISNode, world: State, me: int) -> None:
        """One IS-MCTS iteration from ``root`` in the determinized ``world`` (consumed) for
        player ``me``'s information set (callers with their own tree, like the analysis board,
        drive the search through this)."""
        node = root
        path = [root]
        expanded = False
        while not world.is_terminal() and not expanded:
            if world.is_chance_node():
                action = world.sample_chance(self.rng)
                key = action if self.visible(world, me, action) else HIDDEN_EDGE
                node = self._child(node, key, -1)
            else:
                node, action, expanded = self._choose(node, world, me)
            world.apply_action(action)
            path.append(node)
        value = self._rollout(world)
        for visited in path:
            visited.visits += 1
            for p in range(self.players):
                visited.total[p] += value[p]

    def _child(self, node: ISNode, key: int, mover: int) -> ISNode:
        child = node.children.get(key)
        if child is None:
            child = ISNode(mover, self.players)
            node.children[key] = child
        return child

    def _choose(self, node: ISNode, world: State, me: int) -> tuple[ISNode, int, bool]:
        """Pick a move at a decision node: expand an unseen one, else UCB among available."""
        mover = world.current_player()
        legal = self.actions(world)
        if not self.visible(world, me, legal[0]):
            action = self.rollout_policy(world, self.rng)
            return self._child(node, HIDDEN_EDGE, mover), action, False
        untried = [a for a in legal if a not in node.children]
        for action in legal:
            child = node.children.get(action)
            if child is not None:
                child.avail += 1
        if untried:
            action = self.rng.choice(untried)
            child = self._child(node, action, mover)
            child.avail += 1
            return child, action, True
        prior = self._prior if node is self._root else {}
        best_action, best_score = legal[0], -math.inf
        for action in legal:
            child = node.children[action]
            mean = child.total[mover] / child.visits if child.visits else 0.0
            score = mean + self.exploration * math.sqrt(math.log(child.avail) / child.visits)
            if prior:
                score += self.prior_weight * prior.get(action, 0.0) / (child.visits + 1)
            if score > best_score:
                best_action, best_score = action, score
        return node.children[best_action], best_action, False

    def _rollout(self, world: State) -> list[float]:
        depth = 0
        while not world.is_terminal() and depth < self.rollout_depth:
            if world.is_chance_node():
                world.apply_action(world.sample_chance(self.rng))
            else:
                world.apply_action(self.rollout_policy(world, self.rng))
            depth += 1
        values = world.returns() if world.is_terminal() else self.evaluator(world)
        return [(v - self._low) / self._span for v in values]
