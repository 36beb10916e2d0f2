"""Alpha-beta search for two-player, zero-sum, deterministic games.

Negamax with iterative deepening, a transposition table (exact / lower / upper bounds and the
best move), and move ordering: the table's move first, then killer moves, then the history
heuristic. Leaves are scored by an injected evaluator; wins are scored so that faster wins (and
slower losses) are preferred. The budget is a node count (reproducible) with an optional
time cap.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass

from gameshelf.core.game import Game, State

from .base import Agent
from .evaluators import Evaluator, KeyFn, evaluator_for, key_for

WIN = 10_000.0
SCOUT_WINDOW = 1e-6
"""Width of a principal variation search's null window (values are floats)."""
EXACT, LOWER, UPPER = 0, 1, 2
"""What a table value bounds: the exact value, a lower bound, an upper bound (every search
of this package shares them)."""


class OutOfBudget(Exception):
    """Raised inside a search when its node or time budget is spent."""


class SearchBookkeeping:
    """What the alpha-beta searches share: the node and time budget, and the killer moves and
    history scores that cutoffs leave for move ordering. A search sets these attributes."""

    nodes: int
    node_budget: int
    _deadline: float | None
    killers: dict[int, list[int]]
    history_score: dict[int, int]

    def _tick(self) -> None:
        """Count a node; :class:`OutOfBudget` when the nodes or the time are spent."""
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise OutOfBudget
        deadline = self._deadline
        if deadline is not None and self.nodes % 16 == 0 and time.perf_counter() > deadline:
            raise OutOfBudget

    def _remember_cutoff(self, action: int, ply: int, depth: int) -> None:
        """Keep ``action`` as a killer at ``ply`` and raise its history score."""
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        self.history_score[action] = self.history_score.get(action, 0) + depth * depth


@dataclass
class _Entry:
    depth: int
    value: float
    flag: int
    best: int | None


class AlphaBetaAgent(SearchBookkeeping, Agent):
    """Iterative-deepening negamax with a transposition table and move ordering.

    With ``principal_variation`` (a subclass's choice) every move after a node's first is
    searched with a null window first (principal variation search): same values, fewer nodes
    where the ordering is good."""

    name = "alphabeta"
    principal_variation = False

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        max_depth: int = 4,
        node_budget: int = 20_000,
        evaluator: Evaluator | None = None,
        key: KeyFn | None = None,
        time_limit: float | None = None,
    ) -> None:
        super().__init__(game, seed)
        spec = game.spec
        if spec.num_players != 2 or spec.chance or spec.hidden_information:
            raise ValueError(
                f"alpha-beta needs a two-player deterministic perfect-information game, "
                f"not {game.game_string}"
            )
        self.max_depth = max_depth
        self.node_budget = node_budget
        self.evaluator = evaluator or evaluator_for(game)
        self.key = key or key_for(game)
        self.time_limit = time_limit
        self._span = (spec.max_utility - spec.min_utility) or 1.0
        self._mid = (spec.max_utility + spec.min_utility) / 2.0
        self.table: dict[Hashable, _Entry] = {}
        self.killers: dict[int, list[int]] = {}
        self.history_score: dict[int, int] = {}
        self.nodes = 0
        self.completed_depth = 0
        self.last_value = 0.0
        self._deadline: float | None = None

    def step(self, state: State) -> int:
        """Deepen until the budget is spent; play the best move of the last finished depth."""
        self.nodes = 0
        self.killers.clear()
        self._deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        actions = state.legal_actions()
        order = actions[:]
        self.rng.shuffle(order)  # seeded tie-breaking among equal moves
        best = order[0]
        self.completed_depth = 0
        for depth in range(1, self.max_depth + 1):
            try:
                value, move = self._root(state, order, depth)
            except OutOfBudget:
                best = self._unfinished_choice(best)
                break
            best, self.last_value, self.completed_depth = move, value, depth
            order.remove(move)
            order.insert(0, move)
            if abs(value) >= WIN - 1000:
                break  # a forced result is known; deeper search cannot change it
        if len(self.table) > 500_000:
            self.table.clear()
        return best

    def _unfinished_choice(self, best: int) -> int:
        """The move to play when the budget cuts a depth short; ``best`` is the last finished
        depth's (kept here: a subclass may know better from the unfinished one)."""
        return best

    # --- search ---------------------------------------------------------------------------
    def _root(self, state: State, order: list[int], depth: int) -> tuple[float, int]:
        alpha, beta = -WIN - 1, WIN + 1
        best_move, best_value = order[0], -WIN - 1
        other = 1 - state.current_player()
        for action in order:
            child = state.clone()
            child.apply_action(action)
            value = -self._search(child, depth - 1, -beta, -alpha, 1, other)
            if value > best_value:
                best_value, best_move = value, action
            alpha = max(alpha, value)
        return best_value, best_move

    def _search(
        self, state: State, depth: int, alpha: float, beta: float, ply: int, me: int
    ) -> float:
        """Negamax value of ``state`` for ``me``, the player to move there."""
        self._tick()
        if state.is_terminal():
            return self._terminal_value(state, me, ply)
        if depth <= 0:
            return self._static_value(state, me)
        key = self.key(state)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            tt_move = entry.best
            if entry.depth >= depth:
                if entry.flag == EXACT:
                    return entry.value
                if entry.flag == LOWER and entry.value >= beta:
                    return entry.value
                if entry.flag == UPPER and entry.value <= alpha:
                    return entry.value
        original_alpha = alpha
        best_value, best_move = -WIN - 1, None
        for action in self._ordered(state.legal_actions(), tt_move, ply):
            child = state.clone()
            child.apply_action(action)
            if self.principal_variation and best_move is not None:
                value = self._scout(child, depth - 1, alpha, beta, ply + 1, 1 - me)
            else:
                value = -self._search(child, depth - 1, -beta, -alpha, ply + 1, 1 - me)
            if value > best_value:
                best_value, best_move = value, action
            if value > alpha:
                alpha = value
            if alpha >= beta:
                self._remember_cutoff(action, ply, depth)
                break
        flag = UPPER if best_value <= original_alpha else LOWER if best_value >= beta else EXACT
        self.table[key] = _Entry(depth, best_value, flag, best_move)
        return best_value

    def _scout(
        self, child: State, depth: int, alpha: float, beta: float, ply: int, me: int
    ) -> float:
        """The value of ``child`` (after a move of the player to move at ``ply - 1``) for that
        player, as the full window gives it wherever it can matter: a null window around
        ``alpha`` first, the full window again only when the move may beat ``alpha``."""
        value = -self._search(child, depth, -alpha - SCOUT_WINDOW, -alpha, ply, me)
        if alpha < value < beta:
            value = -self._search(child, depth, -beta, -alpha, ply, me)
        return value

    def _ordered(self, actions: list[int], tt_move: int | None, ply: int) -> list[int]:
        killers = self.killers.get(ply, [])
        history = self.history_score

        def rank(action: int) -> tuple[int, int, int]:
            return (action != tt_move, action not in killers, -history.get(action, 0))

        return sorted(actions, key=rank)

    def _terminal_value(self, state: State, me: int, ply: int) -> float:
        value = state.returns()[me]
        if value > self._mid:
            return WIN - ply
        if value < self._mid:
            return -WIN + ply
        return 0.0

    def _static_value(self, state: State, me: int) -> float:
        value = self.evaluator(state)[me]
        return (value - self._mid) / (self._span / 2.0) * 100.0
