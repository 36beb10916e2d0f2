"""Named strength levels: ``easy``, ``medium``, ``hard``, ``expert``, each a search plus a time
budget per move chosen per game (see ``docs/agents.md``).

A level thinks for its ``time_limit`` seconds a move (``--think`` and the server's bot seats may
give another time); its ``budget`` (iterations or nodes) is then only a safety net, multiplied
by :data:`CAP_FACTOR`. The *fixed-budget* mode (``build_level(..., fixed=True)``) searches
exactly ``budget`` iterations or nodes with no clock, so a seed reproduces every decision (tests,
reproducible arena runs). Every level's worst move stays within twice its budget on the
reference machine (measured in ``docs/strength.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game

from .alphabeta import AlphaBetaAgent
from .base import Agent, register_agent
from .ismcts import ROLLOUT_DEPTH, ISMCTSAgent
from .mcts import MCTSAgent
from .simple import GreedyAgent

if TYPE_CHECKING:
    from .axiom_search import AxiomSearchAgent

LEVELS = ("easy", "medium", "hard", "expert")
AXIA_ROLLOUT = 6
"""AXIA playouts stop after 6 plies and the heuristic judges the rest: random dice play spends
what no player would, so a long random playout says less than the heuristic
(docs/decisions/012-axia-search.md)."""
CAP_FACTOR = 20
"""On the clock, a level may search up to this many times its fixed budget (a safety net
against a runaway count on a fast machine, not a limit that binds in practice)."""
MIN_THINK = 0.01
MAX_THINK = 600.0
"""The range of seconds a move accepted by :func:`check_think` (a server caps it lower)."""


class BadThinkTime(GameshelfError):
    """A time per move that is not a number of seconds in the accepted range."""

    code = "agent/bad-think-time"


def check_think(seconds: float | str, cap: float = MAX_THINK) -> float:
    """``seconds`` as a float if it is a usable time per move (at most ``cap``), else raise
    :class:`BadThinkTime` naming the range."""
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise BadThinkTime(f"think time must be a number of seconds, got {seconds!r}") from None
    if not MIN_THINK <= value <= cap:  # also refuses NaN
        raise BadThinkTime(
            f"think time must be between {MIN_THINK:g} and {cap:g} seconds a move, got {value:g}"
        )
    return value


THINK_MARK = "@"
"""A bot seat with its own time per move is named ``NAME@SECONDS`` (e.g. ``hard@0.8``)."""


def split_think(agent: str) -> tuple[str, float | None]:
    """``("hard", 0.8)`` from ``"hard@0.8"``; ``(agent, None)`` when no time is attached.
    A malformed time raises :class:`BadThinkTime`."""
    name, mark, seconds = agent.partition(THINK_MARK)
    if not mark:
        return agent, None
    return name, check_think(seconds)


def with_think(agent: str, seconds: float | None) -> str:
    """The seat name of bot ``agent`` thinking ``seconds`` a move (``agent`` itself for None)."""
    return agent if seconds is None else f"{agent}{THINK_MARK}{seconds:g}"


NODE_SEARCHES = ("alphabeta", "axiom-search", "cage-alphabeta", "cage-paranoid")
"""Searches whose fixed budget counts nodes (the others count iterations)."""


@dataclass(frozen=True)
class LevelSpec:
    """One level for one kind of game: the search, its fixed budget and its time per move."""

    algorithm: str
    budget: int
    time_limit: float
    depth: int = 0
    rollout_depth: int | None = None

    @property
    def playout_depth(self) -> int:
        """Plies a playout runs: the level's own cut, else the IS-MCTS default."""
        return ROLLOUT_DEPTH if self.rollout_depth is None else self.rollout_depth

    @property
    def seconds(self) -> float:
        """The time budget per move (``0`` for the instant greedy player)."""
        return self.time_limit

    def describe(self) -> str:
        """A short human description, e.g. ``cage-search, 0.5 s a move``."""
        if self.algorithm == "greedy":
            return "greedy one-ply"
        unit = "nodes" if self.algorithm in NODE_SEARCHES else "iterations"
        extra = f", depth <= {self.depth}" if self.depth else ""
        if self.rollout_depth is not None:
            extra += f", playouts cut at {self.rollout_depth} plies"
        return (
            f"{self.algorithm}, {self.time_limit:g} s a move{extra} (fixed: {self.budget} {unit})"
        )


PARANOID = LevelSpec("cage-paranoid", 12000, 1.0)
"""The agent ``cage-paranoid``: the three- and four-player Cage hard level before the Cage MCTS."""

_TABLE: dict[str, dict[str, LevelSpec]] = {
    "cage": {
        "easy": LevelSpec("mcts", 150, 0.1),
        "medium": LevelSpec("mcts", 600, 0.25),
        "hard": LevelSpec("cage-alphabeta", 12000, 1.0),
        "expert": LevelSpec("cage-alphabeta", 36000, 3.0),
    },
    "cage-multi": {
        "easy": LevelSpec("mcts", 150, 0.1),
        "medium": LevelSpec("mcts", 600, 0.25),
        # The Cage MCTS (agents/cage_search.py: lines in one in the tree, threat-aware
        # playouts, and the opponent model: a seat seen to play like greedy is predicted so in
        # the tree). It replaced the paranoid alpha-beta (still the agent "cage-paranoid"),
        # which lost the games where another seat was handed lines by greedy
        # (docs/decisions/009-cage-multiplayer-mcts-opponent-model.md).
        "hard": LevelSpec("cage-search", 6000, 1.0),
        "expert": LevelSpec("cage-search", 18000, 3.0),
    },
    "axiom": {
        "easy": LevelSpec("greedy", 0, 0.0),
        "medium": LevelSpec("axiom-search", 300, 0.3),
        "hard": LevelSpec("axiom-search", 2000, 1.5),
        "expert": LevelSpec("axiom-search", 8000, 5.0),
    },
    "axia": {
        # IS-MCTS with equivalent dice merged, the heuristic as a root bias and the score race
        # on a wider scale (agents/axia_search.py), which beats plain IS-MCTS against greedy
        # (docs/decisions/012-axia-search.md).
        "easy": LevelSpec("greedy", 0, 0.0),
        "medium": LevelSpec("axia-search", 80, 0.25, rollout_depth=AXIA_ROLLOUT),
        "hard": LevelSpec("axia-search", 400, 1.0, rollout_depth=AXIA_ROLLOUT),
        "expert": LevelSpec("axia-search", 2000, 4.0, rollout_depth=AXIA_ROLLOUT),
    },
    "axia-multi": {
        # 3-4 players: the same search judging each leaf at once (no random playout: cheaper
        # iterations, no noise from random dice use) with a tighter exploration
        # (axia_search.MULTI_EXPLORATION); solo and 2 players keep the table above.
        "easy": LevelSpec("greedy", 0, 0.0),
        "medium": LevelSpec("axia-search", 80, 0.25, rollout_depth=0),
        "hard": LevelSpec("axia-search", 400, 1.0, rollout_depth=0),
        "expert": LevelSpec("axia-search", 2000, 4.0, rollout_depth=0),
    },
}


def level_spec(game: Game, level: str) -> LevelSpec:
    """The algorithm and budget of ``level`` for ``game``."""
    name = game.spec.name
    if name == "cage" and game.spec.num_players > 2:
        name = "cage-multi"
    if name == "axia" and game.spec.num_players > 2:
        name = "axia-multi"
    table = _TABLE.get(name)
    if table is None:
        table = _TABLE["axia"] if game.spec.hidden_information else _TABLE["cage"]
    return table[level]


def build_level(
    game: Game,
    level: str,
    seed: int | None,
    time_limit: float | None = None,
    fixed: bool = False,
) -> Agent:
    """An agent playing ``game`` at ``level``.

    ``time_limit`` replaces the level's seconds a move; ``fixed`` searches exactly the level's
    budget with no clock instead (reproducible from the seed).
    """
    spec = level_spec(game, level)
    if spec.algorithm == "greedy":
        return GreedyAgent(game, seed)
    clock: float | None = None if fixed else (time_limit or spec.time_limit)
    cap = spec.budget if fixed else spec.budget * CAP_FACTOR
    if spec.algorithm == "alphabeta":
        return AlphaBetaAgent(game, seed, max_depth=spec.depth, node_budget=cap, time_limit=clock)
    if spec.algorithm == "ismcts":
        return ISMCTSAgent(
            game,
            seed,
            iterations=cap,
            time_limit=clock,
            rollout_depth=spec.playout_depth,
        )
    if spec.algorithm == "axia-search":
        from .axia_search import AxiaSearchAgent

        return AxiaSearchAgent(
            game, seed, iterations=cap, time_limit=clock, rollout_depth=spec.playout_depth
        )
    if spec.algorithm == "axiom-search":
        from .axiom_eval import learned_value_scale, learned_weights
        from .axiom_search import AxiomSearchAgent

        return AxiomSearchAgent(
            game,
            seed,
            time_limit=clock,
            node_budget=cap,
            weights=learned_weights(),
            value_scale=learned_value_scale(),
        )
    if spec.algorithm == "cage-alphabeta":
        from .cage_eval import learned_weights as cage_weights
        from .cage_search import CageAlphaBetaAgent

        return CageAlphaBetaAgent(
            game, seed, node_budget=cap, time_limit=clock, weights=cage_weights()
        )
    if spec.algorithm == "cage-paranoid":
        from .cage_multi import CageParanoidAgent

        return CageParanoidAgent(game, seed, node_budget=cap, time_limit=clock)
    if spec.algorithm == "cage-search":
        from .cage_search import CageSearchAgent

        return CageSearchAgent(
            game,
            seed,
            iterations=cap,
            time_limit=clock,
            model_opponents=game.spec.num_players > 2,
        )
    return MCTSAgent(game, seed, iterations=cap, time_limit=clock)


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
    register_agent("cage-paranoid", _paranoid)
    register_agent("axiom-classic", _classic_axiom)
    register_agent("axiom-hard-book", _book_axiom)
    register_agent("axiom-hand-eval", _hand_eval_axiom)
    register_agent("cage-hard-threats", _threats_cage)
    register_agent("cage-hand-eval", _hand_eval_cage)


def _paranoid(game: Game, seed: int | None) -> Agent:
    """``cage-paranoid`` by name: the Cage paranoid alpha-beta on the hard level's clock (the
    three- and four-player hard level before the Cage MCTS replaced it)."""
    from .cage_multi import CageParanoidAgent

    spec = PARANOID
    return CageParanoidAgent(
        game, seed, node_budget=spec.budget * CAP_FACTOR, time_limit=spec.time_limit
    )


def _threats_cage(game: Game, seed: int | None) -> Agent:
    """``cage-hard-threats``: the two-player Cage hard level's budget with the threat search
    around its alpha-beta (``CageThreatsAgent``, with the hand-written evaluation it was
    measured with). Tried as hard itself and not adopted: checking for chains cost time and
    good moves (docs/decisions/005-cage-two-player-alpha-beta.md); kept to reproduce."""
    from .cage_search import CageThreatsAgent

    spec = _two_player_cage(game, "cage-hard-threats")
    return CageThreatsAgent(
        game, seed, node_budget=spec.budget * CAP_FACTOR, time_limit=spec.time_limit
    )


def _two_player_cage(game: Game, name: str) -> LevelSpec:
    """The two-player Cage hard level's spec, for the arena agent ``name`` that varies it."""
    if game.spec.name != "cage" or game.spec.num_players != 2:
        raise ValueError(f"{name} plays the two-player Cage only, not {game.game_string}")
    return level_spec(game, "hard")


def _hand_eval_cage(game: Game, seed: int | None) -> Agent:
    """``cage-hand-eval``: the two-player Cage hard level with the hand-written threat
    evaluator instead of the learned weights (docs/decisions/006-cage-learned-evaluation.md);
    kept to reproduce."""
    from .cage_search import CageAlphaBetaAgent

    spec = _two_player_cage(game, "cage-hand-eval")
    return CageAlphaBetaAgent(
        game, seed, node_budget=spec.budget * CAP_FACTOR, time_limit=spec.time_limit
    )


CLASSIC_TIME_FACTOR = 3.0
"""How many times ``hard``'s seconds a move the classical Axiom engine gets (the strength
target pits hard against an alpha-beta engine given three times its time)."""


def _hard_axiom(game: Game, seed: int | None, name: str) -> AxiomSearchAgent:
    """The hard level's Axiom search, for the arena agent ``name`` that varies it."""
    from .axiom_search import AxiomSearchAgent

    if game.spec.name != "axiom":
        raise ValueError(f"{name} plays Axiom only, not {game.game_string}")
    agent = build_level(game, "hard", seed)
    assert isinstance(agent, AxiomSearchAgent)
    return agent


def _book_axiom(game: Game, seed: int | None) -> Agent:
    """``axiom-hard-book``: the hard level answering from the second player's opening book
    (``agents/axiom_book.py``). Tried as hard itself and not adopted: it won no more games
    against the classical engine than hard without it (docs/decisions/010-axiom-search.md);
    kept to reproduce."""
    agent = _hard_axiom(game, seed, "axiom-hard-book")
    agent.book = True
    return agent


def _hand_eval_axiom(game: Game, seed: int | None) -> Agent:
    """``axiom-hand-eval``: the hard level with the hand-written evaluation weights, which the
    levels played with before the weights learned from self-play (``tools/learn/axiom.py``);
    kept to measure one against the other."""
    from .axiom_eval import DEFAULT_WEIGHTS
    from .axiom_search import VALUE_SCALE

    agent = _hard_axiom(game, seed, "axiom-hand-eval")
    agent.weights = DEFAULT_WEIGHTS
    agent.value_scale = VALUE_SCALE
    return agent


def _classic_axiom(game: Game, seed: int | None) -> Agent:
    """A classical alpha-beta Axiom engine: negamax deepened on the clock with a transposition
    table, killer and history ordering, and the plain evaluation (cubes and a little mobility),
    given :data:`CLASSIC_TIME_FACTOR` times ``hard``'s seconds a move and no node cap. The arena
    agent ``axiom-classic`` stands in for an external alpha-beta engine given three times
    hard's time, which this project does not have."""
    if game.spec.name != "axiom":
        raise ValueError(f"axiom-classic plays Axiom only, not {game.game_string}")
    seconds = CLASSIC_TIME_FACTOR * level_spec(game, "hard").time_limit
    return AlphaBetaAgent(game, seed, max_depth=64, node_budget=1 << 62, time_limit=seconds)


_register()
