"""Which bots can take a seat in a given game, ordered by strength, each with one line.

The lobby, the server's create check and the terminal's ``play --help`` all read this one list.
Fitness is not restated here: an agent that cannot play a game refuses at construction (e.g.
alpha-beta outside two-player perfect-information games), and :func:`unfit_reason` asks it.
"""

from __future__ import annotations

from dataclasses import dataclass

from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game

from .base import AGENTS, make_agent
from .levels import LEVELS, level_spec
from .packs import all_packs


class UnfitAgent(GameshelfError):
    """A bot that exists but cannot play this game (or this player count)."""

    code = "agent/unfit"


@dataclass(frozen=True)
class AgentInfo:
    """A bot as shown to people: its name, a strength rank (higher plays better) and a line."""

    name: str
    strength: int
    summary: str
    level: bool = False
    """One of the named levels a player picks from; the rest are variants for research."""


_RAW = {
    "random": (0, "plays a uniformly random legal move"),
    "greedy": (10, "one ply: the move whose result looks best right now"),
    "mcts": (25, "Monte Carlo tree search with default settings (IS-MCTS where cards are hidden)"),
    "ismcts": (26, "information-set Monte Carlo tree search, default settings"),
    "alphabeta": (27, "alpha-beta search with default depth and node budget"),
    "openspiel-mcts": (24, "OpenSpiel's own MCTSBot for the arena, on the hard level's clock"),
}
"""The generic bots' lines; a pack's bots bring their own (:class:`~.packs.PackBot`)."""
_LEVEL_STRENGTH = {"easy": 20, "medium": 30, "hard": 40, "expert": 50}
# What a player chooses between: the search levels and the two plain baselines below them.
# Everything else (trials, fixed-budget twins, raw searches) stays for the arena and research.
NAMED_LEVELS = frozenset({"random", "greedy", "master", *_LEVEL_STRENGTH})


def _describe(name: str, game: Game | None) -> tuple[int, str]:
    level, _, fixed = name.partition("-")
    if fixed == "fixed" and level in _LEVEL_STRENGTH:  # the arena's exact-replay levels
        return _LEVEL_STRENGTH[level] - 1, f"level {level} on a fixed budget (replays exactly)"
    if name in _LEVEL_STRENGTH:
        line = f"level {name}"
        if game is not None:
            line += f": {level_spec(game, name).describe()}"
        return _LEVEL_STRENGTH[name], line
    for pack in all_packs():
        for bot in pack.bots:
            if bot.name == name:
                return bot.strength, bot.summary
    return _RAW.get(name, (15, "a registered bot"))


def unfit_reason(name: str, game: Game) -> str | None:
    """Why bot ``name`` cannot play ``game`` (``None`` if it can); unknown names raise."""
    try:
        make_agent(name, game, 0)
    except GameshelfError:
        raise
    except ValueError as error:
        return str(error)
    return None


def check_agent(name: str, game: Game) -> None:
    """Raise :class:`UnfitAgent` (or ``UnknownAgent``) unless ``name`` can play ``game``."""
    reason = unfit_reason(name, game)
    if reason is not None:
        raise UnfitAgent(f"bot {name!r} cannot play {game.game_string}: {reason}")


def agent_catalogue(game: Game | None = None) -> list[AgentInfo]:
    """Every bot (only those fit for ``game`` when one is given), weakest first."""
    infos = []
    for name in AGENTS:
        if game is not None and unfit_reason(name, game) is not None:
            continue
        strength, summary = _describe(name, game)
        infos.append(AgentInfo(name, strength, summary, name in NAMED_LEVELS))
    return sorted(infos, key=lambda info: (info.strength, info.name))


__all__ = [
    "LEVELS",
    "NAMED_LEVELS",
    "AgentInfo",
    "UnfitAgent",
    "agent_catalogue",
    "check_agent",
    "unfit_reason",
]
