"""Opponents nobody on this project wrote, wrapped as gameshelf agents for the arena.

``openspiel-mcts`` is OpenSpiel's own Python ``MCTSBot`` (``uct_c=2``, one random rollout per
leaf, MCTS-Solver on) playing our games through :mod:`gameshelf.rl.openspiel`. By default it
thinks for the same time per move as the game's ``hard`` level, so ``--agents
hard,openspiel-mcts`` is an equal-time match. The bot's search itself is untouched: the clock
only stops it between two simulations, after which its root picks the most visited move as
``MCTSBot`` does.

OpenSpiel is an optional dependency (``pip install 'gameshelf[rl]'``); it is imported when the
agent is built, so importing the arena never needs it.

``easy-fixed`` … ``expert-fixed`` are the levels in their fixed-budget mode (no clock): arena
runs that must replay move for move from their seed name these.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any, ClassVar

from gameshelf.agents.base import Agent, register_agent
from gameshelf.agents.levels import LEVELS, build_level, level_spec
from gameshelf.core.game import Game, State
from gameshelf.extras import install_hint

UCT_C = 2.0
"""OpenSpiel's recommended exploration constant for ``MCTSBot`` with random rollouts."""
ROLLOUTS = 1
"""Random rollouts per leaf (``RandomRolloutEvaluator(1)``)."""
SIMULATION_CAP = 10_000_000
"""Simulations allowed per move when the clock decides (a safety net, never reached)."""


class _TimeUp(Exception):
    """Raised between two simulations when the move's time is spent."""


def _load_openspiel() -> tuple[Any, Any, Any]:
    """The adapter, OpenSpiel's ``mcts`` module and NumPy, or a ``ValueError`` saying why not."""
    try:
        adapter = importlib.import_module("gameshelf.rl.openspiel")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        numpy = importlib.import_module("numpy")
    except ImportError as error:
        raise ValueError(
            f"the OpenSpiel opponent needs open_spiel ({error}); {install_hint('rl')}"
        ) from error
    return adapter, mcts, numpy


def default_seconds(game: Game) -> float:
    """The time per move of the game's ``hard`` level: an equal-time opponent for it."""
    return level_spec(game, "hard").seconds


class OpenSpielMCTSAgent(Agent):
    """OpenSpiel's ``MCTSBot`` on a gameshelf game, on a clock or with a fixed simulation count.

    ``time_limit`` seconds per move (default: the ``hard`` level's); ``simulations`` instead
    fixes the count, so that a seed reproduces every move (tests, calibrated runs).
    """

    name = "openspiel-mcts"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        time_limit: float | None = None,
        simulations: int | None = None,
    ) -> None:
        super().__init__(game, seed)
        spec = game.spec
        if spec.hidden_information and spec.num_players > 1:
            raise ValueError(
                f"OpenSpiel's MCTSBot would search the true state of {game.game_string}, "
                "hidden cards included"
            )
        if simulations is not None and simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {simulations}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit}")
        self.adapter, mcts, numpy = _load_openspiel()
        self.simulations = simulations
        self.time_limit = None if simulations is not None else time_limit or default_seconds(game)
        self.spiel_game = self.adapter.load_game(game.game_string)
        # NumPy's legacy seeding takes 32 bits; arena seeds are derived 64-bit numbers.
        random_state = numpy.random.RandomState(None if seed is None else seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=ROLLOUTS, random_state=random_state)
        self.bot = _ClockedBot(
            mcts.MCTSBot,
            self.spiel_game,
            uct_c=UCT_C,
            max_simulations=simulations or SIMULATION_CAP,
            evaluator=evaluator,
            solve=True,
            random_state=random_state,
        )
        self.last_simulations = 0

    def step(self, state: State) -> int:
        """Search from ``state`` with OpenSpiel's MCTS and return its most visited move."""
        wrapped = self.adapter.GameshelfState(self.spiel_game, state.clone())
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        root = self.bot.search(wrapped, deadline)
        self.last_simulations = int(root.explore_count)
        if not root.children:  # the clock struck before a single simulation
            return self.rng.choice(state.legal_actions())
        return int(root.best_child().action)


class _ClockedBot:
    """``MCTSBot`` whose search stops at a deadline between simulations.

    The subclass is made on first use (OpenSpiel is optional); it only overrides the tree
    policy's entry to note the root and look at the clock, then defers to ``MCTSBot``.
    """

    _classes: ClassVar[dict[type, type]] = {}

    def __init__(self, base: type, game: Any, **kwargs: Any) -> None:
        cls = self._classes.get(base)
        if cls is None:
            cls = type("ClockedMCTSBot", (base,), {"_apply_tree_policy": _clocked_tree_policy})
            self._classes[base] = cls
        self.bot = cls(game, **kwargs)
        self.bot.deadline = None
        self.bot.root = None

    def search(self, state: Any, deadline: float | None) -> Any:
        """Run ``mcts_search`` until its simulations end or ``deadline`` passes; the root."""
        bot = self.bot
        bot.deadline, bot.root = deadline, None
        try:
            return bot.mcts_search(state)
        except _TimeUp:
            return bot.root


def _clocked_tree_policy(self: Any, root: Any, state: Any) -> Any:
    """Start one simulation unless the deadline has passed (then end the search)."""
    self.root = root
    if self.deadline is not None and root.explore_count and time.perf_counter() >= self.deadline:
        raise _TimeUp
    return super(type(self), self)._apply_tree_policy(root, state)


def _openspiel_mcts(game: Game, seed: int | None) -> Agent:
    return OpenSpielMCTSAgent(game, seed)


def _fixed_level(level: str) -> Callable[[Game, int | None], Agent]:
    def make(game: Game, seed: int | None) -> Agent:
        return build_level(game, level, seed, fixed=True)

    return make


register_agent("openspiel-mcts", _openspiel_mcts)
for _level in LEVELS:
    # Arena runs that must replay exactly (tests, records) name a level's fixed-budget mode.
    register_agent(f"{_level}-fixed", _fixed_level(_level))

__all__ = ["ROLLOUTS", "UCT_C", "OpenSpielMCTSAgent", "default_seconds"]
