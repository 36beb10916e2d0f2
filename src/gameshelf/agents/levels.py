"""Named strength levels: ``easy``, ``medium``, ``hard``, ``expert``, each an algorithm plus a
budget chosen per game (see ``docs/agents.md``).

Budgets are iteration or node counts, so a seed reproduces every decision; each level also has
a time cap as a safety net (``hard`` stays under 2 s a move on a 2-core machine).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gameshelf.core.game import Game

from .alphabeta import AlphaBetaAgent
from .base import Agent, register_agent
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent
from .simple import GreedyAgent

LEVELS = ("easy", "medium", "hard", "expert")
AXIA_ROLLOUT = 6
"""AXIA playouts stop after 6 plies and the heuristic judges (measured better than long
random playouts: solo means 168 vs 110 at 150 iterations on 4 seeds)."""


@dataclass(frozen=True)
class LevelSpec:
    """One level for one kind of game: the algorithm and its budget."""

    algorithm: str
    budget: int
    time_limit: float
    depth: int = 0
    rollout_depth: int | None = None

    def describe(self) -> str:
        """A short human description, e.g. ``mcts, 2000 iterations``."""
        if self.algorithm == "greedy":
            return "greedy one-ply"
        unit = "nodes" if self.algorithm == "alphabeta" else "iterations"
        depth = f", depth <= {self.depth}" if self.depth else ""
        if self.rollout_depth is not None:
            depth += f", playouts cut at {self.rollout_depth} plies"
        return f"{self.algorithm}, {self.budget} {unit}{depth}, cap {self.time_limit:g} s"


_TABLE: dict[str, dict[str, LevelSpec]] = {
    "cage": {
        "easy": LevelSpec("mcts", 150, 1.0),
        "medium": LevelSpec("mcts", 600, 1.5),
        "hard": LevelSpec("mcts", 2500, 1.9),
        "expert": LevelSpec("mcts", 12000, 10.0),
    },
    "cage-multi": {
        "easy": LevelSpec("mcts", 150, 1.0),
        "medium": LevelSpec("mcts", 600, 1.5),
        "hard": LevelSpec("mcts", 2500, 1.9),
        "expert": LevelSpec("mcts", 12000, 10.0),
    },
    "axiom": {
        "easy": LevelSpec("greedy", 0, 0.0),
        "medium": LevelSpec("alphabeta", 1500, 1.0, depth=2),
        "hard": LevelSpec("alphabeta", 6000, 1.6, depth=3),
        "expert": LevelSpec("alphabeta", 40000, 15.0, depth=4),
    },
    "axia": {
        "easy": LevelSpec("greedy", 0, 0.0),
        "medium": LevelSpec("ismcts", 80, 1.0, rollout_depth=AXIA_ROLLOUT),
        "hard": LevelSpec("ismcts", 400, 1.6, rollout_depth=AXIA_ROLLOUT),
        "expert": LevelSpec("ismcts", 2000, 10.0, rollout_depth=AXIA_ROLLOUT),
    },
}


def level_spec(game: Game, level: str) -> LevelSpec:
    """The algorithm and budget of ``level`` for ``game``."""
    name = game.spec.name
    if name == "cage" and game.spec.num_players > 2:
        name = "cage-multi"
    table = _TABLE.get(name)
    if table is None:
        table = _TABLE["axia"] if game.spec.hidden_information else _TABLE["cage"]
    return table[level]


def build_level(game: Game, level: str, seed: int | None) -> Agent:
    """An agent playing ``game`` at ``level``."""
    spec = level_spec(game, level)
    if spec.algorithm == "greedy":
        return GreedyAgent(game, seed)
    if spec.algorithm == "alphabeta":
        return AlphaBetaAgent(
            game, seed, max_depth=spec.depth, node_budget=spec.budget, time_limit=spec.time_limit
        )
    if spec.algorithm == "ismcts":
        return ISMCTSAgent(
            game,
            seed,
            iterations=spec.budget,
            time_limit=spec.time_limit,
            rollout_depth=60 if spec.rollout_depth is None else spec.rollout_depth,
        )
    return MCTSAgent(game, seed, iterations=spec.budget, time_limit=spec.time_limit)


def _factory(level: str) -> Callable[[Game, int | None], Agent]:
    def make(game: Game, seed: int | None) -> Agent:
        return build_level(game, level, seed)

    return make


def _plain_mcts(game: Game, seed: int | None) -> Agent:
    """``mcts`` by name: UCT, or IS-MCTS where plain MCTS would see hidden cards."""
    if game.spec.hidden_information and game.spec.num_players > 1:
        return ISMCTSAgent(game, seed)
    return MCTSAgent(game, seed)


def _register() -> None:
    for level in LEVELS:
        register_agent(level, _factory(level))
    register_agent("mcts", _plain_mcts)
    register_agent("ismcts", lambda game, seed: ISMCTSAgent(game, seed))
    register_agent("alphabeta", lambda game, seed: AlphaBetaAgent(game, seed))


_register()
