"""The game registry: names → entries, and ``load(game_string)``.

Games are found through the ``gameshelf.games`` entry-point group: each entry point is named
after its game and points at the game package's :class:`GameEntry` (or at a function without
arguments that returns one). gameshelf declares its own three games that way in
``pyproject.toml``, so this module names no game, and another distribution adds a game by
declaring an entry point in the same group::

    [project.entry-points."gameshelf.games"]
    mygame = "mypackage.mygame:ENTRY"

Entry points are read from the installed metadata: in a source checkout, ``pip install -e .``
(``scripts/setup-venv.sh``) writes them, and again after ``pyproject.toml`` changes. Discovery
runs once, on the first call that needs the registry; :func:`register` adds a game by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .errors import GameshelfError, UnknownGame
from .game import Game
from .options import OptionSpec, parse_game_string, resolve_options

ENTRY_POINT_GROUP = "gameshelf.games"


@dataclass(frozen=True)
class GameEntry:
    """A registered game: name, title, one-line summary, options and factory.

    ``test_option_sets`` lists representative option sets in game-string syntax without the
    name (``""`` for the defaults, ``"players=3,stock=12:12"``): the contract test suite runs
    every check on each of them, so a game declares here the options that change its rules.
    """

    name: str
    title: str
    summary: str
    options: tuple[OptionSpec, ...]
    factory: Callable[[Mapping[str, Any]], Game]
    test_option_sets: tuple[str, ...] = ("",)

    def test_game_strings(self) -> list[str]:
        """The game strings of :attr:`test_option_sets` (``cage``, ``cage(players=3)``, ...)."""
        return [f"{self.name}({opts})" if opts else self.name for opts in self.test_option_sets]


class RegistryError(GameshelfError):
    """A game's entry point cannot be loaded or does not describe a game."""

    code = "game/bad-entry-point"


_REGISTRY: dict[str, GameEntry] = {}
_discovered = False


def register(entry: GameEntry) -> None:
    """Add a game to the registry (a second registration of a name replaces the first)."""
    if not isinstance(entry, GameEntry):
        raise RegistryError(f"register needs a GameEntry, not {type(entry).__name__}")
    _REGISTRY[entry.name] = entry


def entry_from_point(point: EntryPoint) -> GameEntry:
    """Load one entry point of the group and check that it names a game under its own name."""
    try:
        target = point.load()
    except Exception as exc:  # a broken plug-in: say which one, and why
        raise RegistryError(
            f"the game entry point {point.name} = {point.value!r} does not load: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    entry = target() if callable(target) and not isinstance(target, GameEntry) else target
    if not isinstance(entry, GameEntry):
        raise RegistryError(
            f"the game entry point {point.name} = {point.value!r} gives a "
            f"{type(entry).__name__}, not a GameEntry (or a function returning one)"
        )
    if entry.name != point.name:
        raise RegistryError(
            f"the game entry point {point.name} = {point.value!r} registers a game named "
            f"{entry.name!r}; name the entry point after its game"
        )
    return entry


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    found = [entry_from_point(point) for point in entry_points(group=ENTRY_POINT_GROUP)]
    _discovered = True
    for entry in found:
        _REGISTRY.setdefault(entry.name, entry)


def available_games() -> list[str]:
    """Names of every registered game, sorted."""
    _discover()
    return sorted(_REGISTRY)


def game_entry(name: str) -> GameEntry:
    """The registry entry of ``name``; :class:`UnknownGame` lists the known names."""
    _discover()
    entry = _REGISTRY.get(name.lower())
    if entry is None:
        known = ", ".join(sorted(_REGISTRY))
        if not known:
            raise UnknownGame(
                f"unknown game {name!r}: no game is registered (no {ENTRY_POINT_GROUP!r} entry "
                "point is installed; in a source checkout run scripts/setup-venv.sh or "
                "pip install -e .)"
            )
        raise UnknownGame(f"unknown game {name!r}; available games: {known}")
    return entry


def load(game_string: str) -> Game:
    """Create a configured game from a game string such as ``cage(players=3)``."""
    parsed = parse_game_string(game_string)
    entry = game_entry(parsed.name)
    values = resolve_options(entry.name, entry.options, parsed.options)
    return entry.factory(values)
