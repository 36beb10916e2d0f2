"""The ``master`` level: the self-play network guiding a PUCT search over the real engine.

The search is AlphaZero's: each simulation walks down the tree by
``Q + c * P * sqrt(N) / (1 + n)``, asks the network for the leaf's move priors and value (a
finished game is scored by its result instead), and backs the value up, negated for the other
seat. It runs over the reference engine, not the JAX copy, so every move it considers is legal
by construction and the repetition and ply-cap draws are exactly the engine's. It searches on
the clock (``time_limit`` seconds a move, like the other levels) or, for reproducible tests and
arena runs, for exactly ``simulations`` simulations.

The shipped network is loaded once per process (:func:`shipped_network`), so a server's bot pool
or an arena worker pays for it once, not per game or per move.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import equinox as eqx
import numpy as np

from gameshelf.agents.analysis import AnalysisError, MoveAnalysis
from gameshelf.agents.base import Agent
from gameshelf.core.game import Game, State
from gameshelf.games.cage.rules import CageState

from .features import SeatTables, encode, seat_tables
from .fit import check_game
from .network import PolicyValueNet, load_weights

SHIPPED = Path(__file__).resolve().parent / "weights" / "cage2.npz"
"""The network ``master`` plays with: the two-player Cage."""
EXPLORATION = 1.5
"""PUCT's ``c``: how far the priors pull the search away from the best value so far."""
SIMULATION_CAP = 200_000
"""On the clock, a move stops here at the latest (a safety net against a runaway clock)."""


class Evaluator:
    """The network as a function of an engine position: priors over its legal actions and
    the mover's value. One jitted forward per call."""

    def __init__(self, net: PolicyValueNet, players: int) -> None:
        self.tables: SeatTables = seat_tables(players)
        self.net = net

    def __call__(self, state: CageState, actions: list[int]) -> tuple[list[float], float]:
        """Priors of ``actions`` (legal in ``state``, summing to 1) and the mover's value."""
        mover = state.player
        features = encode(
            np,
            self.tables.order[mover],
            np.asarray(state.board),
            np.asarray(state.left),
            np.asarray(state.last),
            np.asarray(state.ply),
            state.game.max_plies,
        )
        logits, value = _forward(self.net, features)
        chosen = np.asarray(logits)[self.tables.canonical_action[mover, actions]]
        weights = np.exp(chosen - chosen.max())
        return (weights / weights.sum()).tolist(), float(value)


@eqx.filter_jit
def _forward(net: PolicyValueNet, features: Any) -> tuple[Any, Any]:
    # One compiled function for every network of a shape: the arrays are arguments, not
    # constants baked into each agent's own compilation.
    return net(features)


@cache
def shipped_network() -> PolicyValueNet:
    """The shipped network, read once per process; ``ValueError`` when the file is missing."""
    if not SHIPPED.is_file():
        raise ValueError(
            f"master needs its network {SHIPPED}, which is missing: train one with "
            "'gameshelf learn cage --out DIR' and copy DIR/weights.npz there"
        )
    net, config = load_weights(SHIPPED)
    if config.players != 2:
        raise ValueError(f"{SHIPPED} plays {config.players} seats; master needs two")
    return net


class _Node:
    """A position in the tree: its legal actions, their priors and their visit statistics
    (values from the point of view of ``mover``, who chooses here)."""

    __slots__ = (
        "actions", "children", "mover", "priors", "result", "total", "value", "visits", "wins"
    )  # fmt: skip

    def __init__(self, state: CageState, evaluator: Evaluator) -> None:
        self.mover = state.player
        self.result: list[float] | None = state.returns() if state.is_terminal() else None
        self.actions: list[int] = [] if self.result is not None else state.legal_actions()
        self.priors: list[float] = []
        self.value = 0.0
        if self.result is None:
            self.priors, self.value = evaluator(state, self.actions)
            if _can_win(state, self.actions):
                self.value = 1.0  # as in self-play: a mover with a winning move has won
        self.children: list[_Node | None] = [None] * len(self.actions)
        self.visits = [0] * len(self.actions)
        self.wins = [0.0] * len(self.actions)
        self.total = 0

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
        network's value (two seats, zero-sum: the other seat's is its negation)."""
        if self.result is not None:
            return self.result[player]
        return self.value if player == self.mover else -self.value


class MasterAgent(Agent):
    """``master``: PUCT over the engine guided by the self-play network (two-player Cage)."""

    name = "master"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        net: PolicyValueNet | None = None,
        time_limit: float | None = 1.0,
        simulations: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(game, seed)
        check_game(game)
        self.evaluator = Evaluator(shipped_network() if net is None else net, 2)
        self.time_limit = time_limit
        self.simulations = simulations
        self.clock = clock

    def step(self, state: State) -> int:
        """The most visited root action after the search."""
        root = self._search(_cage(state), self.time_limit)
        return root.actions[_ranked(root)[0]]

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The ``top`` most visited moves after ``seconds`` of search (all for ``top <= 0``),
        each valued on [0, 1] for the mover (its mean backed-up value) with its main line."""
        if state.is_terminal():
            raise AnalysisError("the game is over: there is nothing to analyse")
        cage = _cage(state)
        root = self._search(cage, seconds)
        order = _ranked(root)
        chosen = order if top <= 0 else order[:top]
        return [self._described(root, i, cage) for i in chosen]

    def _search(self, state: CageState, seconds: float | None) -> _Node:
        """The root after searching ``state`` for ``seconds`` (or ``simulations``, if set)."""
        root = _Node(state, self.evaluator)
        if len(root.actions) == 1:
            return root
        budget = self.simulations if self.simulations is not None else SIMULATION_CAP
        deadline = None
        if self.simulations is None and seconds is not None:
            deadline = self.clock() + seconds
        for done in range(budget):
            if deadline is not None and done and self.clock() >= deadline:
                break
            self._simulate(root, state)
        return root

    def _described(self, root: _Node, index: int, state: CageState) -> MoveAnalysis:
        """Root move ``index`` as an analysed move: value and most-visited line below it."""
        visits = root.visits[index]
        value = root.wins[index] / visits if visits else root.value_for(root.mover)
        line = [state.action_to_string(root.actions[index])]
        walker = state.clone()
        walker.apply_action(root.actions[index])
        node = root.children[index]
        while node is not None and node.result is None and node.total:
            best = _ranked(node)[0]
            line.append(walker.action_to_string(node.actions[best]))
            walker.apply_action(node.actions[best])
            node = node.children[best]
        return MoveAnalysis(root.actions[index], line[0], (value + 1) / 2, None, tuple(line))

    def _simulate(self, root: _Node, start: CageState) -> None:
        state = start.clone()
        node = root
        path: list[tuple[_Node, int]] = []
        while node.result is None:
            i = node.select()
            path.append((node, i))
            state.apply_action(node.actions[i])
            child = node.children[i]
            if child is None:
                node.children[i] = node = _Node(state, self.evaluator)
                break
            node = child
        for parent, i in path:
            parent.visits[i] += 1
            parent.total += 1
            parent.wins[i] += node.value_for(parent.mover)


def _ranked(node: _Node) -> list[int]:
    """The indices of ``node``'s actions, most visited first (ties: the higher prior)."""
    return sorted(range(len(node.actions)), key=lambda i: (-node.visits[i], -node.priors[i]))


def _cage(state: State) -> CageState:
    """``state`` as a Cage position; ``ValueError`` for any other game's."""
    if not isinstance(state, CageState):
        raise ValueError(f"master plays the Cage, not {type(state).__name__}")
    return state


def _can_win(state: CageState, actions: list[int]) -> bool:
    """Whether one of ``actions`` wins at once for the mover (tried in the engine: a twist may
    hand the line to the other seat instead)."""
    mover = state.player
    for action in actions:
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() and after.returns()[mover] > 0:
            return True
    return False
