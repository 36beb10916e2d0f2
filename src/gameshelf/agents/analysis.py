"""Position analysis: the best moves of a position with their values and principal variations.

Shared types of the analysis board:

* :class:`MoveAnalysis` — one candidate move: its action id and notation, its ``value`` (the
  expected score in ``[0, 1]`` of the player to move after choosing it: 1 win, 0.5 draw, 0 loss;
  for 3–4 players the expected share of first place; for solo AXIA the expected score / 1000),
  ``solved`` ("win"/"draw"/"loss" when proven, else ``None``) and ``pv``, the principal variation
  in the game's notation starting with the move.
* :class:`Analyser` — anything with ``analyse(state, seconds, top) -> list[MoveAnalysis]`` (best
  first). The per-game search agents implement it; :class:`GenericAnalyser` is the fallback,
  built on the project's MCTS (perfect information), IS-MCTS (hidden cards) and solver.
* :func:`analyser_for` picks the strongest registered agent that can analyse, else the generic.
* :func:`judge` names a played move's loss: ``inaccuracy`` / ``mistake`` / ``blunder``.

Hidden information: an AXIA position is analysed by single-observer IS-MCTS from the view of the
player to move — every search world is a determinisation of that seat's knowledge, so the
analysis of a seat cannot depend on cards it does not see (``tests/agents/test_analysis.py``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game, State

from .base import AGENTS, make_agent
from .determinize import HIDDEN_EDGE, Determinizer
from .ismcts import ISMCTSAgent, ISNode
from .mcts import MCTSAgent, Node
from .solver import Solver

PV_LIMIT = 12
"""Longest principal variation shown (plies)."""

INACCURACY = 0.06
MISTAKE = 0.12
BLUNDER = 0.24
"""Value lost by a played move (best move's value minus the played move's, on the [0, 1] scale)
from which it is an inaccuracy, a mistake or a blunder. Giving away a proven win (or walking into
a proven loss when a better move existed) is always a blunder. The thresholds sit above the noise
of a one-second search: the best move's value spread by 0.05 over five seeds in a Cage
middle game (docs/analysis.md)."""

_SOLVED_VALUE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class MoveAnalysis:
    """One analysed move (see the module docstring for the meaning of each field)."""

    action: int
    text: str
    value: float
    solved: str | None
    pv: tuple[str, ...]


@runtime_checkable
class Analyser(Protocol):
    """Anything that analyses a position: the best ``top`` moves, best first."""

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """Analyse ``state`` (a decision node) for at most about ``seconds`` seconds."""
        ...


class AnalysisError(GameshelfError):
    """A position that cannot be analysed (over, a chance node, simultaneous moves)."""

    code = "analysis/invalid"


@dataclass(frozen=True)
class Judgement:
    """How much value a played move lost against the best one, and its label (or ``None``)."""

    loss: float
    label: str | None


def judge(best: MoveAnalysis, played: MoveAnalysis) -> Judgement:
    """The value the played move lost against the best, and its label (or ``None``)."""
    loss = max(0.0, best.value - played.value)
    if best.solved is not None and played.solved is not None:
        loss = max(0.0, _SOLVED_VALUE[best.solved] - _SOLVED_VALUE[played.solved])
        if loss > 0:
            return Judgement(round(loss, 4), "blunder")
        return Judgement(0.0, None)
    if best.solved == "win" and played.solved is None and loss >= INACCURACY:
        return Judgement(round(loss, 4), "blunder")
    label = None
    if loss >= BLUNDER:
        label = "blunder"
    elif loss >= MISTAKE:
        label = "mistake"
    elif loss >= INACCURACY:
        label = "inaccuracy"
    return Judgement(round(loss, 4), label)


def check_analysable(state: State) -> int:
    """The player to move; :class:`AnalysisError` when there is no decision to analyse."""
    if state.is_terminal():
        raise AnalysisError("the game is over: there is no move to analyse")
    player = state.current_player()
    if player < 0:
        raise AnalysisError(
            f"it is {state.describe_player(player)}'s turn: only a player's decision is analysed"
        )
    return player


class _OutOfTime(Exception):
    """Raised inside the solver when the analysis deadline passes."""


class _TimedSolver(Solver):
    """The project's solver with a deadline (checked every 256 nodes)."""

    def __init__(self, game: Game, deadline: float) -> None:
        super().__init__(game)
        self.deadline = deadline

    def force(self, state: State, remaining: int, mine: bool, target: float) -> bool:
        """As :meth:`Solver.force`, but gives up (raises) once the deadline has passed."""
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        return super().force(state, remaining, mine, target)


class GenericAnalyser:
    """MCTS / IS-MCTS / solver analysis for any registered game.

    * Perfect information: UCT with MCTS-Solver proofs (:class:`MCTSAgent`) for most of the
      time; then, in two-player deterministic games, the exact solver deepens on every root
      move with the rest of the time and marks what it proves.
    * Hidden information: single-observer IS-MCTS (:class:`ISMCTSAgent`) from the view of the
      player to move; it never reads another seat's hidden cards.

    ``iterations`` caps the search as well as the clock (a seed plus a cap that the clock does
    not reach gives a reproducible analysis, which the tests use).
    """

    solver_share = 0.3
    """Share of the time given to the exact solver where it applies."""

    def __init__(
        self,
        game: Game,
        seed: int | None = 0,
        iterations: int | None = None,
        determinizer: Determinizer | None = None,
    ) -> None:
        self.game = game
        # Only tests pass a determinizer (a peeking one proves the view check has teeth).
        self.determinizer = determinizer
        self.seed = seed
        self.iterations = iterations
        spec = game.spec
        self.hidden = spec.hidden_information
        self.solvable = not (spec.chance or spec.hidden_information or spec.simultaneous)
        self._low = spec.min_utility
        self._span = (spec.max_utility - spec.min_utility) or 1.0

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The best ``top`` moves of ``state`` (all searched moves when ``top`` <= 0)."""
        if not seconds > 0 or math.isinf(seconds):
            raise AnalysisError(
                f"analysis time must be a positive number of seconds, not {seconds}"
            )
        me = check_analysable(state)
        search = self._ismcts if self.hidden else self._mcts
        # the clock never cuts a search before it has looked at the moves asked for (a loaded
        # machine would otherwise answer with fewer moves than the position has)
        least = min(top, len(state.legal_actions())) if top > 0 else 1
        moves = search(state, me, seconds, least)
        moves.sort(key=_rank)
        return moves if top <= 0 else moves[:top]

    # --- perfect information ---------------------------------------------------------------
    def _mcts(self, state: State, me: int, seconds: float, least: int) -> list[MoveAnalysis]:
        clock = time.perf_counter()
        budget = seconds * (1.0 - self.solver_share) if self.solvable else seconds
        agent = MCTSAgent(self.game, self.seed, iterations=1, reuse_tree=False)
        root = Node(-1, -1, agent.players)
        cap = self.iterations
        done = 0
        deadline = clock + budget
        while root.proven is None and (cap is None or done < cap):
            agent.iterate(root, state.clone())
            done += 1
            if _time_up(root.children, deadline, done, least):
                break
        moves: dict[int, MoveAnalysis] = {}
        for action, child in root.children.items():
            if child.visits == 0 and child.proven is None:
                continue
            solved = self._proof(child.proven, me)
            value = _SOLVED_VALUE[solved] if solved else child.mean(me)
            if child.proven is not None and solved is None:
                value = child.proven[me]
            moves[action] = MoveAnalysis(
                action, state.action_to_string(action), value, solved, self._pv(state, child)
            )
        if self.solvable:
            now = time.perf_counter()
            self._solve(state, moves, min(clock + seconds, now + seconds * self.solver_share))
        return list(moves.values())

    def _proof(self, proven: list[float] | None, me: int) -> str | None:
        """The name of a proven value for ``me`` (two players: win/draw/loss; more: win only)."""
        if proven is None:
            return None
        value = proven[me]
        if value >= 1.0:
            return "win"
        if self.game.spec.num_players == 2:
            if value <= 0.0:
                return "loss"
            if abs(value - 0.5) < 1e-9:
                return "draw"
        return None

    def _pv(self, state: State, child: Node) -> tuple[str, ...]:
        """Follow the most visited children from ``child``; stop at chance or at the limit."""
        walk = state.clone()
        line = [walk.action_to_string(child.action)]
        walk.apply_action(child.action)
        node = child
        while node.children and len(line) < PV_LIMIT and not walk.is_terminal():
            if walk.is_chance_node():
                break
            node = max(node.children.values(), key=_node_order)
            line.append(walk.action_to_string(node.action))
            walk.apply_action(node.action)
        return tuple(line)

    def _solve(self, state: State, moves: dict[int, MoveAnalysis], deadline: float) -> None:
        """Deepen the exact solver on the root moves until the deadline; record its proofs."""
        solver = _TimedSolver(self.game, deadline)
        solver.me = state.current_player()
        two = self.game.spec.num_players == 2
        children: list[tuple[int, State]] = []
        for action in state.legal_actions():
            known = moves.get(action)
            if known is not None and known.solved is not None:
                continue
            child = state.clone()
            child.apply_action(action)
            children.append((action, child))
        depth = 0
        if any(m.solved == "win" for m in moves.values()):
            return  # the position is won: nothing can be better than the proven win
        try:
            while children and time.perf_counter() < deadline:
                depth += 1
                open_children = []
                for action, child in children:
                    verdict = solver.classify(child, depth - 1)
                    if verdict == "win" or (two and verdict in ("loss", "draw")):
                        moves[action] = self._solved_move(state, action, verdict, moves)
                        if verdict == "win":
                            return
                    else:
                        open_children.append((action, child))
                children = open_children
                if depth >= self.game.spec.max_game_length:
                    break
        except _OutOfTime:
            return

    def _solved_move(
        self, state: State, action: int, verdict: str, moves: dict[int, MoveAnalysis]
    ) -> MoveAnalysis:
        known = moves.get(action)
        pv = known.pv if known is not None else (state.action_to_string(action),)
        return MoveAnalysis(
            action, state.action_to_string(action), _SOLVED_VALUE[verdict], verdict, pv
        )

    # --- hidden information ---------------------------------------------------------------
    def _ismcts(self, state: State, me: int, seconds: float, least: int) -> list[MoveAnalysis]:
        agent = ISMCTSAgent(self.game, self.seed, iterations=1, determinizer=self.determinizer)
        root = ISNode(-1, agent.players)
        deadline = time.perf_counter() + seconds
        first = agent.determinize(state, me, agent.rng)
        legal = first.legal_actions()
        cap = self.iterations
        done = 0
        while cap is None or done < cap:
            world = first.clone() if done == 0 else agent.determinize(state, me, agent.rng)
            agent.iterate(root, world, me)
            done += 1
            if _time_up(root.children, deadline, done, least):
                break
        moves = []
        for action in legal:
            child = root.children.get(action)
            if child is None or child.visits == 0:
                continue
            value = child.total[me] / child.visits
            pv = self._is_pv(first, action, child)
            moves.append(MoveAnalysis(action, first.action_to_string(action), value, None, pv))
        return moves

    @staticmethod
    def _is_pv(world: State, action: int, child: ISNode) -> tuple[str, ...]:
        """The most visited line of the observer's tree, played out in one of its worlds; it
        stops where the observer cannot see (a hidden move or draw) or at a chance node."""
        walk = world.clone()
        line = [walk.action_to_string(action)]
        walk.apply_action(action)
        node = child
        while node.children and len(line) < PV_LIMIT and not walk.is_terminal():
            if walk.is_chance_node():
                break
            key, node = max(node.children.items(), key=lambda item: item[1].visits)
            if key == HIDDEN_EDGE or key not in walk.legal_actions():
                break
            line.append(walk.action_to_string(key))
            walk.apply_action(key)
        return tuple(line)


def _node_order(node: Node) -> tuple[int, int]:
    """Proven children first where they are wins for their mover, then by visits."""
    won = 1 if node.proven is not None and node.mover >= 0 and node.proven[node.mover] >= 1.0 else 0
    return (won, node.visits)


def _rank(move: MoveAnalysis) -> tuple[int, float]:
    """Sort key, best first: proven wins, then open moves and draws by value, proven losses last."""
    order = {"win": 0, None: 1, "draw": 1, "loss": 2}[move.solved]
    return (order, -move.value)


OVERRUN_ITERATIONS = 50
"""Iterations per move asked for that a search may run past its time to reach those moves."""


def _time_up(children: Mapping[int, Any], deadline: float, done: int, least: int) -> bool:
    """Whether a search stops now: its time is spent and it has visited (or proven) ``least``
    root moves, or it has run :data:`OVERRUN_ITERATIONS` per move asked for whatever it saw."""
    if time.perf_counter() <= deadline:
        return False
    if done >= OVERRUN_ITERATIONS * least:
        return True
    seen = sum(1 for child in children.values() if child.visits or getattr(child, "proven", None))
    return seen >= least


class CheckedAnalyser:
    """Another analyser's answer, completed with the one-ply facts any analysis must show: in a
    perfect-information game without chance, a move that ends the game is given its exact result
    (a search that stopped early, or misses a mate in one, cannot hide a winning move)."""

    def __init__(self, inner: Analyser) -> None:
        self.inner = inner

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The inner analysis, with every game-ending move's exact result, best first."""
        me = check_analysable(state)
        moves = {m.action: m for m in self.inner.analyse(state, seconds, top)}
        spec = state.game.spec
        if not (spec.chance or spec.hidden_information or spec.simultaneous):
            low, span = spec.min_utility, (spec.max_utility - spec.min_utility) or 1.0
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                if not child.is_terminal():
                    continue
                value = (child.returns()[me] - low) / span
                solved = "win" if value >= 1.0 else None
                if spec.num_players == 2:
                    solved = {1.0: "win", 0.0: "loss", 0.5: "draw"}.get(value)
                text = state.action_to_string(action)
                moves[action] = MoveAnalysis(action, text, value, solved, (text,))
        ranked = sorted(moves.values(), key=_rank)
        return ranked if top <= 0 else ranked[:top]


_PREFERENCE = ("expert", "hard", "medium", "easy")
"""Registered names tried first when looking for an agent that analyses (strongest first)."""


def analyser_for(game: Game, seed: int | None = 0) -> Analyser:
    """The strongest analyser for ``game``: a registered agent with an ``analyse`` method (the
    levels first, strongest first; wrapped in :class:`CheckedAnalyser`), else
    :class:`GenericAnalyser`."""
    names: list[Hashable] = [n for n in _PREFERENCE if n in AGENTS]
    names += sorted(n for n in AGENTS if n not in _PREFERENCE)
    for name in names:
        try:
            agent = make_agent(str(name), game, seed)
        except ValueError:
            continue  # unfit for this game
        if callable(getattr(agent, "analyse", None)):
            return CheckedAnalyser(agent)  # type: ignore[arg-type]
    return GenericAnalyser(game, seed)


@dataclass(frozen=True)
class PlyAnalysis:
    """The analysis of one decision of a game: who moved, the best moves, the move played, its
    value and judgement (``played_value`` is ``None`` when the search could not value it)."""

    ply: int
    mover: int
    best: tuple[MoveAnalysis, ...]
    played: str
    played_value: float | None
    loss: float | None
    label: str | None


def analyse_game(
    states: Sequence[State],
    analyser: Analyser,
    seconds: float,
    top: int = 3,
    seat: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[PlyAnalysis]:
    """Analyse every decision of a replayed game (``states[i]`` before move ``i``, the last
    state after the last move), or only those of ``seat``. Chance plies are skipped.

    The played move's value is read from the analysis when the search valued it; otherwise
    from the final result, or (two-player perfect-information games) from the next decision's
    best value, turned round when the other player decides it. ``progress(done, total)`` is
    called after each ply.
    """
    plies = [
        i
        for i in range(len(states) - 1)
        if not states[i].is_terminal()
        and states[i].current_player() >= 0
        and (seat is None or states[i].current_player() == seat)
    ]
    found: dict[int, list[MoveAnalysis]] = {}
    for done, i in enumerate(plies, 1):
        state = states[i]
        wide = max(top, len(state.legal_actions()))
        budget = seconds if len(state.legal_actions()) > 1 else min(seconds, 0.05)
        found[i] = analyser.analyse(state, budget, wide)
        if progress is not None:
            progress(done, len(plies))
    out = []
    for i in plies:
        moves = found[i]
        state, after = states[i], states[i + 1]
        mover = state.current_player()
        action = after.history()[len(state.history())]
        played_text = state.action_to_string(action)
        played = next((m for m in moves if m.action == action), None)
        if played is None:
            if i + 1 not in found and _may_look_ahead(states[i + 1]):
                # not analysed (another seat's ply): perfect information, so no view is crossed
                found[i + 1] = analyser.analyse(states[i + 1], seconds, 1)
            played = _played_from_next(states, i, mover, action, played_text, found)
        loss, label = None, None
        if played is not None and moves:
            verdict = judge(moves[0], played)
            loss, label = verdict.loss, verdict.label
        out.append(
            PlyAnalysis(
                ply=i,
                mover=mover,
                best=tuple(moves[: max(top, 1)]),
                played=played_text,
                played_value=None if played is None else played.value,
                loss=loss,
                label=label,
            )
        )
    return out


def _may_look_ahead(after: State) -> bool:
    """Whether the position after a move may be analysed to value the move: a two-player
    perfect-information game, a decision still to make."""
    spec = after.game.spec
    return (
        spec.num_players == 2
        and not spec.hidden_information
        and not after.is_terminal()
        and after.current_player() >= 0
    )


def _played_from_next(
    states: Sequence[State],
    i: int,
    mover: int,
    action: int,
    text: str,
    found: dict[int, list[MoveAnalysis]],
) -> MoveAnalysis | None:
    """Value a played move the search did not reach, from what followed it (two players)."""
    after = states[i + 1]
    game = after.game
    if after.is_terminal():
        low, span = game.spec.min_utility, (game.spec.max_utility - game.spec.min_utility) or 1.0
        value = (after.returns()[mover] - low) / span
        solved = (
            {1.0: "win", 0.0: "loss", 0.5: "draw"}.get(value)
            if game.spec.num_players == 2
            else None
        )
        return MoveAnalysis(action, text, value, solved, (text,))
    following = found.get(i + 1)
    # Hidden cards: the next decision was analysed from another seat's view; not used here.
    hidden = game.spec.hidden_information
    if hidden or game.spec.num_players != 2 or not following or after.current_player() < 0:
        return None
    best = following[0]
    if after.current_player() == mover:
        return MoveAnalysis(action, text, best.value, best.solved, (text, *best.pv))
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}.get(best.solved or "")
    return MoveAnalysis(action, text, 1.0 - best.value, flipped, (text, *best.pv))


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Analyser",
    "AnalysisError",
    "CheckedAnalyser",
    "GenericAnalyser",
    "Judgement",
    "MoveAnalysis",
    "PlyAnalysis",
    "analyse_game",
    "analyser_for",
    "check_analysable",
    "judge",
]
