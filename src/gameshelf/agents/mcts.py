"""Monte Carlo tree search (UCT) for perfect-information games, with chance nodes.

* **Selection** by UCT on each node's value for the player who moved into it, so the same code
  serves 2, 3 and 4 players (every player maximises their own return, as in max^n).
* **Chance nodes** are sampled with their probabilities; each outcome gets its own child.
* **Terminal solving** (MCTS-Solver): a node whose value is known exactly is *proven*; a mover
  with a proven best child takes it, and proven values propagate up like minimax (max^n).
* **Tree reuse**: the subtree of the position actually reached is kept for the next move.
* **Evaluators** are injected: rollouts stop after ``rollout_depth`` plies and the evaluator
  estimates the rest (``rollout_depth=0`` evaluates at once).
* **Rollouts**: with no ``rollout_policy`` (uniformly random moves) the state plays the
  rollout itself with :meth:`State.random_rollout <gameshelf.core.game.State.random_rollout>`
  (a generic loop, or the game's faster one under the same contract); a given policy is
  played by a loop here, one :func:`policy_rollout` call per ply.

Budgets are counted in iterations so that a seed reproduces a decision; ``time_limit`` is a
safety cap only.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from gameshelf.core.game import Game, State

from .base import Agent
from .evaluators import Evaluator, evaluator_for

RolloutPolicy = Callable[[State, random.Random], int]


def random_rollout_policy(state: State, rng: random.Random) -> int:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions())


def policy_rollout(state: State, policy: RolloutPolicy, rng: random.Random, max_plies: int) -> int:
    """Play ``policy`` (chance sampled) in place for at most ``max_plies`` plies; the plies."""
    plies = 0
    while plies < max_plies and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(policy(state, rng))
        plies += 1
    return plies


class Node:
    """A search-tree node: the action that led here, who took it, and its statistics."""

    __slots__ = ("action", "children", "mover", "proven", "total", "untried", "visits")

    def __init__(self, action: int, mover: int, players: int) -> None:
        self.action = action
        self.mover = mover
        self.children: dict[int, Node] = {}
        self.untried: list[int] | None = None
        self.visits = 0
        self.total = [0.0] * players
        self.proven: list[float] | None = None

    def mean(self, player: int) -> float:
        """Average normalised return of ``player`` through this node."""
        return self.total[player] / self.visits if self.visits else 0.0


class MCTSAgent(Agent):
    """UCT search with chance nodes, terminal solving and tree reuse."""

    name = "mcts"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        iterations: int = 1000,
        exploration: float = 1.4,
        rollout_depth: int = 40,
        evaluator: Evaluator | None = None,
        rollout_policy: RolloutPolicy | None = None,
        time_limit: float | None = None,
        reuse_tree: bool = True,
    ) -> None:
        super().__init__(game, seed)
        if game.spec.hidden_information and game.spec.num_players > 1:
            raise ValueError(
                f"plain MCTS would search the true state of {game.game_string}, hidden cards "
                "included; use the IS-MCTS agent ('ismcts') for hidden-information games"
            )
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.evaluator = evaluator or evaluator_for(game)
        self.rollout_policy = rollout_policy
        self.time_limit = time_limit
        self.reuse_tree = reuse_tree
        self.players = game.spec.num_players
        self._low = game.spec.min_utility
        self._span = (game.spec.max_utility - game.spec.min_utility) or 1.0
        self._root: Node | None = None
        self._root_history: list[int] = []
        self.last_iterations = 0
        self.reused_visits = 0

    # --- public ---------------------------------------------------------------------------
    def step(self, state: State) -> int:
        """Search from ``state`` and return the chosen action."""
        root = self._find_root(state)
        self.reused_visits = root.visits
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while done < self.iterations and root.proven is None:
            self.iterate(root, state.clone())
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_iterations = done
        action = self._best_action(root, state)
        self._advance_root(root, action, state)
        return action

    def action_values(self, state: State) -> dict[int, float]:
        """Mean values of the root's children after the last search (for tests and tools)."""
        root = self._root
        if root is None:
            return {}
        me = state.current_player()
        return {a: c.mean(me) for a, c in root.children.items()}

    # --- tree management ------------------------------------------------------------------
    def _find_root(self, state: State) -> Node:
        history = state.history()
        root = self._root
        if self.reuse_tree and root is not None:
            known = self._root_history
            if history[: len(known)] == known:
                node: Node | None = root
                for action in history[len(known) :]:
                    node = node.children.get(action) if node is not None else None
                if node is not None:
                    self._root, self._root_history = node, history
                    return node
        fresh = Node(-1, -1, self.players)
        self._root, self._root_history = fresh, history
        return fresh

    def _advance_root(self, root: Node, action: int, state: State) -> None:
        child = root.children.get(action)
        if child is None or not self.reuse_tree:
            self._root = None
            return
        self._root, self._root_history = child, [*state.history(), action]

    def _best_action(self, root: Node, state: State) -> int:
        me = state.current_player()
        if root.proven is not None:
            for action, child in root.children.items():
                if child.proven is not None and child.proven[me] >= root.proven[me]:
                    return action
        candidates = [(a, c) for a, c in root.children.items() if not self._proven_loss(c, me)]
        if not candidates:
            candidates = list(root.children.items())
        if not candidates:
            return self.rng.choice(state.legal_actions())
        return max(candidates, key=lambda item: (item[1].visits, item[1].mean(me)))[0]

    # --- one iteration --------------------------------------------------------------------
    def iterate(self, root: Node, state: State) -> None:
        """One MCTS iteration from ``root`` on ``state`` (consumed: pass a clone): select,
        expand, play out and back up, with proofs propagated (callers that build their own tree,
        like the analysis board, drive the search through this)."""
        path = [root]
        node = root
        value: list[float] | None = None
        while value is None:
            if node.proven is not None:
                value = node.proven
            elif state.is_terminal():
                value = self._normalise(state.returns())
                node.proven = value
            elif state.is_chance_node():
                action = state.sample_chance(self.rng)
                node = self._child(node, action, -1)
                state.apply_action(action)
                path.append(node)
            else:
                node, expanded = self._select_or_expand(node, state)
                path.append(node)
                if expanded:
                    value = self._leaf_value(node, state)
        for visited in reversed(path):
            visited.visits += 1
            total = visited.total
            for p in range(self.players):
                total[p] += value[p]
            self._update_proof(visited)

    def _child(self, node: Node, action: int, mover: int) -> Node:
        child = node.children.get(action)
        if child is None:
            child = Node(action, mover, self.players)
            node.children[action] = child
        return child

    def _select_or_expand(self, node: Node, state: State) -> tuple[Node, bool]:
        mover = state.current_player()
        if node.untried is None:
            node.untried = state.legal_actions()
            self.rng.shuffle(node.untried)
        if node.untried:
            action = node.untried.pop()
            child = self._child(node, action, mover)
            state.apply_action(action)
            return child, True
        child = self._uct_child(node, mover)
        state.apply_action(child.action)
        return child, False

    def _uct_child(self, node: Node, mover: int) -> Node:
        log_n = math.log(max(node.visits, 1))
        best: Node | None = None
        best_score = -math.inf
        for child in node.children.values():
            if child.proven is not None:
                if child.proven[mover] >= 1.0:
                    return child
                score = child.proven[mover] - 1.0  # known results rank below open children
            else:
                score = child.mean(mover) + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _leaf_value(self, node: Node, state: State) -> list[float]:
        if state.is_terminal():
            node.proven = self._normalise(state.returns())
            return node.proven
        if self.rollout_policy is None:
            state.random_rollout(self.rng, self.rollout_depth)
        else:
            policy_rollout(state, self.rollout_policy, self.rng, self.rollout_depth)
        if state.is_terminal():
            return self._normalise(state.returns())
        return self._normalise(self.evaluator(state))

    # --- proofs ---------------------------------------------------------------------------
    def _update_proof(self, node: Node) -> None:
        """Mark ``node`` proven when its best child is a proven win or all children are proven."""
        if node.proven is not None or not node.children or node.untried is None:
            return
        children = list(node.children.values())
        mover = children[0].mover
        if mover < 0:
            return  # chance nodes are never proven
        proven = [c.proven for c in children if c.proven is not None]
        for value in proven:
            if value[mover] >= 1.0:
                node.proven = value
                return
        if not node.untried and len(proven) == len(children):
            node.proven = max(proven, key=lambda v: v[mover])

    def _proven_loss(self, child: Node, me: int) -> bool:
        return child.proven is not None and child.proven[me] <= 0.0 and self.players > 1

    def _normalise(self, values: list[float]) -> list[float]:
        return [(v - self._low) / self._span for v in values]
