"""An exact, depth-bounded solver for deterministic perfect-information games (the Cage's
analysis variants above all).

The value is for the player to move at the root (``me``). Every other player is assumed to play
against ``me`` (a *paranoid* search); with two zero-sum players that is plain minimax. The search
works on value intervals: a position's value is known to lie in ``[lo, hi]``; terminal states
are exact, positions at the horizon are ``[min, max]``. Iterative deepening finds the smallest
horizon at which the root becomes exact, which for a win is the length of the fastest forced
win and for a loss the longest the loser can hold out.

Exactness: the transposition table keys a position by *everything* that decides its future
under the rules. A state that offers ``horizon_key(plies)`` says that itself (the Cage's covers
its no-reverse rule, the repetition counts and the ply cap, so its history-dependent draw rules
are solved exactly, not approximated); any other state is keyed by its position and history.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from gameshelf.core.game import Game, State

SolverKey = Callable[[State, int], Hashable]


@dataclass
class SolveResult:
    """The outcome of a solve: the verdict, its length, the best first moves and the cost."""

    game: str
    verdict: str  # "win", "loss", "draw" or "unknown"
    plies: int | None
    horizon: int
    best_moves: list[str]
    move_values: dict[str, str] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        """``win in 7 plies`` / ``loss in 4 plies`` / ``draw`` / ``unknown within horizon``."""
        if self.verdict in ("win", "loss"):
            unit = "ply" if self.plies == 1 else "plies"
            return f"{self.verdict} in {self.plies} {unit}"
        if self.verdict == "draw":
            return f"draw (proven within {self.plies} plies)"
        return f"unknown within horizon ({self.horizon} plies)"


@runtime_checkable
class HorizonKeyed(Protocol):
    """A state that names what decides its future within a number of plies (the Cage's does:
    its draw rules depend on history, so the position alone is not enough)."""

    def horizon_key(self, plies: int) -> Hashable:
        """Equal keys: the same game from here on for the next ``plies`` plies."""
        ...


def state_solver_key(state: State, remaining: int) -> Hashable:
    """The state's own :meth:`HorizonKeyed.horizon_key` (the game knows what its future
    depends on)."""
    if not isinstance(state, HorizonKeyed):
        raise TypeError(f"a {type(state).__name__} has no horizon_key")
    return state.horizon_key(remaining)


def generic_solver_key(state: State, remaining: int) -> Hashable:
    """Fallback key: the position string and the whole history (exact, few transpositions)."""
    return (state.position(), tuple(state.history()))


def _default_key(game: Game) -> SolverKey:
    """The state's own horizon key where its game offers one, else the generic key."""
    if isinstance(game.new_initial_state(), HorizonKeyed):
        return state_solver_key
    return generic_solver_key


class Solver:
    """Paranoid proof search with iterative deepening and a transposition table.

    ``force(state, r, side, t)`` answers: can ``side`` ("me" or "them") make the game end within
    ``r`` plies with a value for ``me`` of at least (me) / at most (them) ``t``, whatever the
    other side does? A win is ``force(me, max)``, a loss ``force(them, min)``, and a draw is both
    ``force(me, mid)`` and ``force(them, mid)``. Proven answers stay true with more plies and
    failures stay failures with fewer, which is what the table stores.
    """

    def __init__(self, game: Game, key: SolverKey | None = None) -> None:
        spec = game.spec
        if spec.chance or spec.hidden_information or spec.simultaneous:
            raise ValueError(
                f"the solver handles deterministic perfect-information games, not "
                f"{game.game_string}"
            )
        self.game = game
        self.key = key or _default_key(game)
        self.low, self.high = spec.min_utility, spec.max_utility
        self.mid = (self.low + self.high) / 2.0
        self.proved: dict[Hashable, int] = {}
        self.failed: dict[Hashable, int] = {}
        self.nodes = 0
        self.me = 0

    def solve(self, state: State, max_plies: int) -> SolveResult:
        """Deepen from 1 to ``max_plies``; stop at the first horizon that settles the value."""
        clock = time.perf_counter()
        self.me = state.current_player()
        children = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            children.append((state.action_to_string(action), child))
        verdict: str = "unknown"
        plies: int | None = None
        values: dict[str, str] = {}
        depth = 0
        for depth in range(1, max_plies + 1):
            values = {text: self.classify(child, depth - 1) for text, child in children}
            verdict = self._root_verdict(list(values.values()))
            if verdict != "unknown":
                plies = depth
                break
        return SolveResult(
            game=self.game.game_string,
            verdict=verdict,
            plies=plies,
            horizon=depth,
            best_moves=_best(verdict, values),
            move_values=values,
            nodes=self.nodes,
            seconds=time.perf_counter() - clock,
        )

    def classify(self, state: State, remaining: int) -> str:
        """``win``/``loss``/``draw`` for ``me`` if proven within ``remaining`` plies, else
        ``unknown`` (``not-loss`` when a loss is ruled out but nothing better is proven)."""
        if self.force(state, remaining, True, self.high):
            return "win"
        if self.force(state, remaining, False, self.low):
            return "loss"
        if self.force(state, remaining, True, self.mid):
            if self.force(state, remaining, False, self.mid):
                return "draw"
            return "not-loss"
        return "unknown"

    @staticmethod
    def _root_verdict(values: list[str]) -> str:
        if "win" in values:
            return "win"
        if all(v == "loss" for v in values):
            return "loss"
        if "draw" in values and all(v in ("draw", "loss") for v in values):
            return "draw"
        return "unknown"

    def force(self, state: State, remaining: int, mine: bool, target: float) -> bool:
        """Whether one side can force an end within ``remaining`` plies past ``target``."""
        self.nodes += 1
        if state.is_terminal():
            value = state.returns()[self.me]
            return value >= target if mine else value <= target
        if remaining <= 0:
            return False
        key = (self.key(state, remaining), mine, target)
        proved = self.proved.get(key)
        if proved is not None and proved <= remaining:
            return True
        failed = self.failed.get(key)
        if failed is not None and failed >= remaining:
            return False
        result = self._force_children(state, remaining, mine, target)
        if result:
            self.proved[key] = min(remaining, proved if proved is not None else remaining)
        else:
            self.failed[key] = max(remaining, failed if failed is not None else remaining)
        return result

    def _force_children(self, state: State, remaining: int, mine: bool, target: float) -> bool:
        chooser = (state.current_player() == self.me) == mine
        children = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                value = child.returns()[self.me]
                good = value >= target if mine else value <= target
                if good == chooser:
                    return chooser  # the chooser picks it / the opponent escapes by it
            children.append(child)
        for child in children:
            if child.is_terminal():
                continue  # already known not to decide this node
            if self.force(child, remaining - 1, mine, target) == chooser:
                return chooser
        return not chooser


def _best(verdict: str, values: dict[str, str]) -> list[str]:
    """The first moves that achieve the verdict (or, when unknown, those not proven lost)."""
    wanted = {"win": ("win",), "draw": ("draw",), "loss": ("loss",)}.get(verdict)
    if wanted is None:
        return [m for m, v in values.items() if v != "loss"]
    return [m for m, v in values.items() if v in wanted]


def solve(game: Game, max_plies: int, state: State | None = None) -> SolveResult:
    """Solve ``state`` (default: the initial state of ``game``) within ``max_plies`` plies."""
    start = state if state is not None else game.new_initial_state()
    if start.is_terminal():
        raise ValueError("the position is already over; there is nothing to solve")
    return Solver(game).solve(start, max_plies)
