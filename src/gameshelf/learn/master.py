"""The ``master`` level: a self-play network guiding a PUCT search over the real engine.

The search is :mod:`.puct`'s, a few leaves a network call (:data:`LEAVES`). It runs over the
reference engine, so every move it considers is legal by construction and the repetition and
ply-cap draws are exactly the engine's. It searches on the clock (``time_limit`` seconds a move,
like the other levels) or, for reproducible tests and arena runs, for exactly ``simulations``
simulations.

Which network, features and moves it plays with is the game's learning recipe
(:mod:`.recipe`); each recipe's shipped network is loaded once per process
(:func:`shipped_network`), so a server's bot pool or an arena worker pays for it once, not per
game or per move.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from gameshelf.agents.analysis import AnalysisError, MoveAnalysis
from gameshelf.agents.base import Agent
from gameshelf.core.game import Game, State

from .puct import Node, Tree, search
from .recipe import Recipe, learn_command, recipe_for

if TYPE_CHECKING:
    from .evaluator import NetEvaluator
    from .network import PolicyValueNet

LEAVES = 8
"""Descents valued in one network call: a call costs about the same for one position as for
eight, so batching them buys more simulations in the same time than virtual loss costs."""
SIMULATION_CAP = 200_000
"""On the clock, a move stops here at the latest (a safety net against a runaway clock)."""


@cache
def shipped_network(recipe: Recipe) -> PolicyValueNet:
    """The recipe's shipped network, read once per process; ``ValueError`` when the file is
    missing or does not fit the recipe."""
    from .network import load_weights

    path = recipe.weights
    _require_weights(recipe)
    net, config = load_weights(path, recipe.inputs, recipe.heads)
    if config.players != recipe.players:
        raise ValueError(f"{path} plays {config.players} seats; master needs {recipe.players}")
    return net


def _require_weights(recipe: Recipe) -> None:
    """``ValueError`` naming how to make the recipe's shipped network when its file is missing."""
    if not recipe.weights.is_file():
        raise ValueError(
            f"master needs its network {recipe.weights}, which is missing: train one with "
            f"'{learn_command(recipe)} --out DIR' and copy DIR/weights.npz there"
        )


class MasterAgent(Agent):
    """``master``: PUCT over the engine guided by the game's self-play network."""

    name = "master"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        net: PolicyValueNet | None = None,
        time_limit: float | None = 1.0,
        simulations: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        leaves: int = LEAVES,
    ) -> None:
        super().__init__(game, seed)
        if leaves < 1:
            raise ValueError(f"master values at least one leaf a network call, not {leaves}")
        self.leaves = leaves
        self.recipe = recipe_for(game)
        if net is None:
            _require_weights(self.recipe)
        self._net = net
        self._evaluator: NetEvaluator | None = None
        self.time_limit = time_limit
        self.simulations = simulations
        self.clock = clock

    @property
    def evaluator(self) -> NetEvaluator:
        """The network's evaluator, built at the first search rather than with the bot: the
        arena checks every bot in its own process before forking its workers, and a process
        that has started jax's threads can deadlock the children it forks."""
        if self._evaluator is None:
            from .evaluator import NetEvaluator

            network = shipped_network(self.recipe) if self._net is None else self._net
            self._evaluator = NetEvaluator(
                network, self.recipe.codec(self.game), self.recipe.heads, self.recipe.players
            )
        return self._evaluator

    @evaluator.setter
    def evaluator(self, evaluator: NetEvaluator) -> None:
        self._evaluator = evaluator

    def step(self, state: State) -> int:
        """The most visited root action after the search."""
        root = self._search(state, self.time_limit)
        return root.actions[root.ranked()[0]]

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The ``top`` most visited moves after ``seconds`` of search (all for ``top <= 0``),
        each valued on [0, 1] for the mover (its mean backed-up value) with its main line."""
        if state.is_terminal():
            raise AnalysisError("the game is over: there is nothing to analyse")
        root = self._search(state, seconds)
        order = root.ranked()
        chosen = order if top <= 0 else order[:top]
        return [_described(root, i, state) for i in chosen]

    def _search(self, state: State, seconds: float | None) -> Node:
        """The root after searching ``state`` for ``seconds`` (or ``simulations``, if set)."""
        if state.game.game_string != self.game.game_string:
            raise ValueError(
                f"this master plays {self.game.game_string}, not {state.game.game_string}"
            )
        tree = Tree(state, self.recipe.wins_at_once)
        budget = self.simulations if self.simulations is not None else SIMULATION_CAP
        deadline = None
        if self.simulations is None and seconds is not None:
            deadline = self.clock() + seconds

        def stop(done: int) -> bool:
            return deadline is not None and self.clock() >= deadline

        search(tree, self.evaluator, budget, stop, self.leaves)
        return tree.root


def _described(root: Node, index: int, state: State) -> MoveAnalysis:
    """Root move ``index`` as an analysed move: value and most-visited line below it."""
    visits = root.visits[index]
    value = root.wins[index] / visits if visits else root.value_for(root.mover)
    line = [state.action_to_string(root.actions[index])]
    walker = state.clone()
    walker.apply_action(root.actions[index])
    node = root.children[index]
    while node is not None and node.result is None and node.total:
        best = node.ranked()[0]
        line.append(walker.action_to_string(node.actions[best]))
        walker.apply_action(node.actions[best])
        node = node.children[best]
    return MoveAnalysis(root.actions[index], line[0], (value + 1) / 2, None, tuple(line))
