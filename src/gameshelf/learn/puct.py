"""AlphaZero's search tree over the real engine, for ``master`` and for batched self-play.

Each simulation walks down by ``Q + c * P * sqrt(N) / (1 + n)`` to a position not yet in the
tree, which the network then values (priors over its legal moves and one value per seat; a
finished game is scored by its result instead), and backs the values up: each position counts
the value of the seat that chooses there (max-n), so the same tree serves two seats (where one's
value is the other's negation) and three or four. The network is asked from outside the tree:
:meth:`Tree.descend` returns the leaf to evaluate and :meth:`Tree.finish` takes its priors and
values, so a caller may gather the leaves of many descents (of one tree or of many) into one
network call. A descent marks its path with a *virtual loss* until its leaf is valued, so the
next descent of the same tree is steered elsewhere; one that reaches a leaf still waiting for
its value gives up (:meth:`Tree.descend` returns ``None``).

Every move the tree considers is legal by construction, and draws (repetition, ply cap) are the
engine's. Nothing here imports a third-party package.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from gameshelf.core.game import State

EXPLORATION = 1.5
"""PUCT's ``c``: how far the priors pull the search away from the best value so far."""
VIRTUAL_LOSS = 1.0
"""What a pending descent counts as for each move on its path: a lost visit."""

Evaluate = Callable[[list[State], list[list[int]]], list[tuple[list[float], list[float]]]]
"""A batch of positions and their legal actions to each one's priors and seat values (the
mover's first, then round the table)."""
WinsAtOnce = Callable[[State, list[int]], bool] | None
"""Whether the mover can win with one of the actions (``None``: never asked)."""


class Node:
    """A position in the tree: its legal actions, their priors and their visit statistics
    (``wins`` sums values to ``mover``, who chooses here)."""

    __slots__ = (
        "actions", "children", "expanded", "mover", "priors", "result", "total", "values",
        "visits", "wins", "won",
    )  # fmt: skip

    def __init__(self, state: State, wins_at_once: WinsAtOnce) -> None:
        self.mover = state.current_player()
        self.result: list[float] | None = state.returns() if state.is_terminal() else None
        self.actions: list[int] = [] if self.result is not None else state.legal_actions()
        self.priors: list[float] = []
        self.values: list[float] = self.result or []
        self.won = (
            wins_at_once is not None and self.result is None and wins_at_once(state, self.actions)
        )
        self.expanded = self.result is not None
        self.children: list[Node | None] = [None] * len(self.actions)
        self.visits = [0] * len(self.actions)
        self.wins = [0.0] * len(self.actions)
        self.total = 0

    def expand(self, priors: list[float], values: list[float]) -> None:
        """Take the network's priors of the actions and values of the position (one a seat,
        the mover's first and then round the table)."""
        self.priors = priors
        seats = len(values)
        if self.won:
            # A mover with a winning move has won: the search need not find the move to know.
            values = [1.0] + [-1.0] * (seats - 1)
        self.values = [values[(seat - self.mover) % seats] for seat in range(seats)]
        self.expanded = True

    def select(self) -> int:
        """The index of the action PUCT explores next."""
        root = EXPLORATION * math.sqrt(self.total + 1)
        best, best_score = 0, -math.inf
        for i, prior in enumerate(self.priors):
            n = self.visits[i]
            q = self.wins[i] / n if n else 0.0
            score = q + root * prior / (1 + n)
            if score > best_score:
                best, best_score = i, score
        return best

    def value_for(self, player: int) -> float:
        """This position's worth to ``player``: the result if the game is over, else the
        network's value."""
        return self.values[player]

    def ranked(self) -> list[int]:
        """The indices of the actions, most visited first (ties: the higher prior)."""
        return sorted(range(len(self.actions)), key=lambda i: (-self.visits[i], -self.priors[i]))


Path = list[tuple[Node, int]]
Leaf = tuple[Path, Node, State]
"""A descent waiting for the network: its path, its leaf and the leaf's position."""


class Tree:
    """A search tree rooted at a copy of ``state``; ``wins_at_once`` values a position whose
    mover can win at once as won (see :class:`~.recipe.Recipe`)."""

    def __init__(self, state: State, wins_at_once: WinsAtOnce) -> None:
        self.state = state.clone()
        self.wins_at_once = wins_at_once
        self.root = Node(self.state, wins_at_once)

    def descend(self) -> tuple[Path, Node, State] | None:
        """Walk to a leaf: the path (virtual losses added), the leaf and its position. A
        finished game is backed up at once (the leaf comes back already expanded); a leaf
        another descent is waiting on undoes the path and gives ``None``."""
        state = self.state.clone()
        node = self.root
        path: Path = []
        while node.expanded and node.result is None:
            i = node.select()
            path.append((node, i))
            node.visits[i] += 1
            node.total += 1
            node.wins[i] -= VIRTUAL_LOSS
            state.apply_action(node.actions[i])
            child = node.children[i]
            if child is None:
                node.children[i] = child = Node(state, self.wins_at_once)
                node = child
                break
            if not child.expanded:
                self._undo(path)
                return None
            node = child
        if node.expanded:
            self.finish(path, node)
        return path, node, state

    def gather(self, count: int) -> tuple[list[Leaf], int]:
        """Up to ``count`` descents, fewer when one meets a leaf another is waiting on: the
        leaves that wait for the network, and how many descents were made."""
        waiting: list[Leaf] = []
        for made in range(1, count + 1):
            found = self.descend()
            if found is None:
                return waiting, made
            if not found[1].expanded:
                waiting.append(found)
        return waiting, count

    def settle(self, waiting: list[Leaf], valued: list[tuple[list[float], list[float]]]) -> None:
        """Expand each waiting leaf with the network's priors and values and back them up."""
        for (path, leaf, _), (priors, values) in zip(waiting, valued, strict=True):
            leaf.expand(priors, values)
            self.finish(path, leaf)

    def finish(self, path: Path, leaf: Node) -> None:
        """Back ``leaf``'s values (expanded) up ``path``, each position taking its mover's,
        turning its virtual losses into real visits."""
        for parent, i in path:
            parent.wins[i] += VIRTUAL_LOSS + leaf.value_for(parent.mover)

    @staticmethod
    def _undo(path: Path) -> None:
        for parent, i in path:
            parent.visits[i] -= 1
            parent.total -= 1
            parent.wins[i] += VIRTUAL_LOSS

    def advance(self, index: int) -> None:
        """Play root action ``index``: its subtree becomes the tree (a fresh root if it was
        never reached)."""
        self.state.apply_action(self.root.actions[index])
        child = self.root.children[index]
        self.root = child if child is not None else Node(self.state, self.wins_at_once)


def can_win(state: State, actions: list[int]) -> bool:
    """Whether one of ``actions`` wins at once for the mover (each tried in the engine: a move
    may hand the win to the other seat instead)."""
    mover = state.current_player()
    for action in actions:
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() and after.returns()[mover] > 0:
            return True
    return False


def search(
    tree: Tree, evaluate: Evaluate, budget: int, stop: Callable[[int], bool], leaves: int = 1
) -> None:
    """Run up to ``budget`` simulations, the leaves of up to ``leaves`` descents valued in one
    network call (virtual loss keeps them apart), asking ``stop(done)`` before each batch after
    the first whether to end early (the clock)."""
    if not tree.root.expanded:
        _evaluate_root(tree, evaluate)
    if len(tree.root.actions) < 2:
        return
    done = 0
    while done < budget:
        if done and stop(done):
            return
        waiting, made = tree.gather(min(leaves, budget - done))
        done += made
        if waiting:
            tree.settle(waiting, evaluate([w[2] for w in waiting], [w[1].actions for w in waiting]))


def _evaluate_root(tree: Tree, evaluate: Evaluate) -> None:
    [(priors, values)] = evaluate([tree.state], [tree.root.actions])
    tree.root.expand(priors, values)
