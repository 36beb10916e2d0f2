"""The game registry: names → factories, and ``load(game_string)``.

Game packages under ``gameshelf.games`` register themselves on import; :func:`load` imports
them on first use, so ``available_games()`` always lists every shipped game.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import UnknownGame
from .game import Game
from .options import OptionSpec, parse_game_string, resolve_options


@dataclass(frozen=True)
class GameEntry:
    """A registered game: name, title, one-line summary, options and factory."""

    name: str
    title: str
    summary: str
    options: tuple[OptionSpec, ...]
    factory: Callable[[Mapping[str, Any]], Game]


_REGISTRY: dict[str, GameEntry] = {}
_discovered = False


def register(entry: GameEntry) -> None:
    """Add a game to the registry (a second registration of a name replaces the first)."""
    _REGISTRY[entry.name] = entry


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import gameshelf.games as games_package

    for module in pkgutil.iter_modules(games_package.__path__):
        importlib.import_module(f"gameshelf.games.{module.name}")


def available_games() -> list[str]:
    """Names of every registered game, sorted."""
    _discover()
    return sorted(_REGISTRY)


def game_entry(name: str) -> GameEntry:
    """The registry entry of ``name``; :class:`UnknownGame` lists the known names."""
    _discover()
    entry = _REGISTRY.get(name.lower())
    if entry is None:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGame(f"unknown game {name!r}; available games: {known}")
    return entry


def load(game_string: str) -> Game:
    """Create a configured game from a game string such as ``cage(players=3)``."""
    parsed = parse_game_string(game_string)
    entry = game_entry(parsed.name)
    values = resolve_options(entry.name, entry.options, parsed.options)
    return entry.factory(values)
