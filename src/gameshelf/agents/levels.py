"""Named strength levels: ``easy``, ``medium``, ``hard``, ``expert``, each a search plus a time
budget per move. A game's pack (:mod:`gameshelf.agents.packs`) gives its own table; a game
without one gets :func:`generic_levels` (see ``docs/agents.md``).

A level thinks for its ``time_limit`` seconds a move (``--think`` and the server's bot seats may
give another time); its ``budget`` (iterations or nodes) is then only a safety net, multiplied
by :data:`CAP_FACTOR`. The *fixed-budget* mode (``build_level(..., fixed=True)``) searches
exactly ``budget`` iterations or nodes with no clock, so a seed reproduces every decision (tests,
reproducible arena runs). Every level's worst move stays within twice its budget on the
reference machine (measured in ``docs/strength.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game

from .alphabeta import AlphaBetaAgent
from .base import Agent, register_agent
from .ismcts import ROLLOUT_DEPTH, ISMCTSAgent
from .mcts import MCTSAgent
from .packs import GamePack, PackBot, Search, on_pack, pack_for
from .simple import GreedyAgent

LEVELS = ("easy", "medium", "hard", "expert")
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
        search = _SEARCHES.get(self.algorithm)
        unit = "iterations" if search is None else search.counts
        extra = f", depth <= {self.depth}" if self.depth else ""
        if self.rollout_depth is not None:
            extra += f", playouts cut at {self.rollout_depth} plies"
        return (
            f"{self.algorithm}, {self.time_limit:g} s a move{extra} (fixed: {self.budget} {unit})"
        )


def _build_mcts(
    game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None
) -> Agent:
    return MCTSAgent(game, seed, iterations=cap, time_limit=clock)


def _build_ismcts(
    game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None
) -> Agent:
    return ISMCTSAgent(
        game, seed, iterations=cap, time_limit=clock, rollout_depth=spec.playout_depth
    )


def _build_alphabeta(
    game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None
) -> Agent:
    return AlphaBetaAgent(game, seed, max_depth=spec.depth, node_budget=cap, time_limit=clock)


_SEARCHES: dict[str, Search] = {
    "mcts": Search(_build_mcts),
    "ismcts": Search(_build_ismcts),
    "alphabeta": Search(_build_alphabeta, counts="nodes"),
}
"""Every search a level may name: the generic ones, then each pack's (added as packs load)."""


def register_search(name: str, search: Search) -> None:
    """Make ``search`` available to level tables as the algorithm ``name``."""
    _SEARCHES[name] = search


def _levels(algorithm: str, depth: int = 0) -> dict[str, LevelSpec]:
    """The generic budgets (the Cage's MCTS ones, carried up to hard and expert)."""
    budgets = {"easy": (150, 0.1), "medium": (600, 0.25), "hard": (2400, 1.0)}
    budgets["expert"] = (7200, 3.0)
    return {
        level: LevelSpec(algorithm, budget, seconds, depth=depth)
        for level, (budget, seconds) in budgets.items()
    }


def generic_levels(game: Game) -> Mapping[str, LevelSpec]:
    """The levels of a game whose pack gives none: MCTS by time budget (IS-MCTS where cards
    are hidden); hard and expert search alpha-beta to the game's length where the game is a
    two-player deterministic perfect-information one and its pack gives an evaluator (without
    one, alpha-beta sees nothing before a game's end, and MCTS playouts judge better)."""
    spec = game.spec
    if spec.hidden_information:
        return _levels("ismcts")
    table = _levels("mcts")
    two_player_exact = spec.num_players == 2 and not (spec.chance or spec.simultaneous)
    if two_player_exact and pack_for(game).knowledge is not None:
        nodes = {"hard": 12000, "expert": 36000}
        for level, budget in nodes.items():
            seconds = table[level].time_limit
            table[level] = LevelSpec("alphabeta", budget, seconds, depth=spec.max_game_length)
    return table


def level_spec(game: Game, level: str) -> LevelSpec:
    """The algorithm and budget of ``level`` for ``game`` (its pack's, else the generic)."""
    if level not in LEVELS:
        raise ValueError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
    table = pack_for(game).levels or generic_levels
    return table(game)[level]


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
    search = _SEARCHES.get(spec.algorithm)
    if search is None:
        raise ValueError(
            f"the level {level} of {game.game_string} names the search {spec.algorithm!r}, "
            "which neither gameshelf nor a pack registers"
        )
    return search.build(game, seed, spec, cap, clock)


def _factory(level: str) -> Callable[[Game, int | None], Agent]:
    def make(game: Game, seed: int | None) -> Agent:
        return build_level(game, level, seed)

    return make


def _plain_mcts(game: Game, seed: int | None) -> Agent:
    """``mcts`` by name: UCT, or IS-MCTS where plain MCTS would see hidden cards."""
    if game.spec.hidden_information and game.spec.num_players > 1:
        return ISMCTSAgent(game, seed)
    return MCTSAgent(game, seed)


_PACK_BOTS: dict[str, dict[str, PackBot]] = {}
"""Each pack bot's name to the packs' bots of that name, by game (several packs may add a bot of
one name, each for its own game)."""


def _add_pack(pack: GamePack) -> None:
    """Register a pack's searches and its named bots (each refusing the games of no pack that
    adds it)."""
    for name, search in pack.searches.items():
        register_search(name, search)
    for bot in pack.bots:
        _PACK_BOTS.setdefault(bot.name, {})[pack.game] = bot
        register_agent(bot.name, _own_games_only(bot.name))


def _own_games_only(name: str) -> Callable[[Game, int | None], Agent]:
    def make(game: Game, seed: int | None) -> Agent:
        bot = _PACK_BOTS[name].get(game.spec.name)
        if bot is None:
            games = ", ".join(sorted(_PACK_BOTS[name]))
            raise ValueError(f"{name} plays {games} only, not {game.game_string}")
        return bot.factory(game, seed)

    return make


def _register() -> None:
    for level in LEVELS:
        register_agent(level, _factory(level))
    register_agent("mcts", _plain_mcts)
    register_agent("ismcts", lambda game, seed: ISMCTSAgent(game, seed))
    register_agent("alphabeta", lambda game, seed: AlphaBetaAgent(game, seed))
    on_pack(_add_pack)


_register()
