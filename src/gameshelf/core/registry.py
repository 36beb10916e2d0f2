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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, TypeVar

from .errors import GameshelfError, UnknownGame
from .game import Game, State
from .options import OptionSpec, parse_game_string, resolve_options

PluginT = TypeVar("PluginT")

ENTRY_POINT_GROUP = "gameshelf.games"


@dataclass(frozen=True)
class NotationExample:
    """One move written in a game's notation, and what it does (help for people)."""

    text: str
    meaning: str


@dataclass(frozen=True)
class RulesSection:
    """A titled list of short rule statements: one part of a rules summary."""

    title: str
    items: tuple[str, ...]


RulesSummary = Callable[[Mapping[str, Any]], Sequence[RulesSection]]
"""A game's rules summary for resolved option values (the summary follows the options)."""


MoveDetails = Callable[[State], Sequence[Mapping[str, Any]]]
"""A game's legal moves of a state as structures, each with its notation under ``"move"``."""


def _state_move_details(state: State) -> Sequence[Mapping[str, Any]]:
    """The state's own :meth:`~.game.State.legal_move_details` (a game may override it)."""
    return state.legal_move_details()


@dataclass(frozen=True)
class DataSets:
    """The named data sets that a game's file-naming option (``OptionSpec.names_file``) takes
    in place of a path, for a program that must never open a file for others (the server):
    the set shipped with the game, and sets registered by name from data already read.

    ``register`` validates the data (parsed JSON) and makes it loadable under the name, raising
    :class:`~.errors.InvalidData` that names what is wrong; ``registered`` gives what is loadable
    under a name, or ``None``; ``digest`` identifies data by content (the same data, the same
    digest), so that a match can be pinned to what it was dealt.
    """

    standard: str
    standard_data: Callable[[], Any]
    digest: Callable[[Any], str]
    register: Callable[[str, Any], object]
    registered: Callable[[str], object | None]


@dataclass(frozen=True)
class GameFacts:
    """What people are told about one configured game: its title, what its seats are called,
    examples of its notation and its rules in short. The long form is the game's docs page."""

    title: str
    seats: tuple[str, ...]
    notation: tuple[NotationExample, ...]
    rules: tuple[RulesSection, ...]


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its name, options and factory, and what people are told about it.

    Everything after ``name`` is given by keyword. Only ``options`` and ``factory`` are
    required; a game that leaves the rest out still plays everywhere, with generic words:
    its name for a title, the engine's ``describe_player`` for its seats (``player 1``, ...),
    no notation examples and no rules summary.

    ``notation`` holds examples of the game's moves with what each does; ``rules`` gives the
    rules summary for resolved option values, so that it states the table's actual options.

    ``move_details`` lists a state's legal moves as structures (``{"move": notation, ...}``
    with the parts a table chooses on); it defaults to the state's own
    :meth:`~.game.State.legal_move_details`, which names only the notation.

    Optional capabilities, for the tools that offer them (``None``: the game has none):
    ``render_svg`` draws a state as an SVG picture (``gameshelf show --svg``); ``load_listing``
    reads a position from a listing that does not say who is to move, given that player's name
    (``--to-move``); ``format_cards`` prints the game's card data, or a user's own card file
    checked (``gameshelf cards``); ``picture_key`` says what the terminal picture's short codes
    mean (the terminal's ``key`` command); ``card_words`` gives each card id of a configured
    game's card data with what the card is, in words (the terminal's list of a player's hand);
    ``data_sets`` are the named data sets its file-naming option takes (the server's card sets).

    ``view_type`` and ``move_type`` are the ``TypedDict`` (or union of them) that the game's
    views and structured moves follow, for a browser board of the game's own: the server's
    contract export gives them to the browser as TypeScript types named after the game
    (``AxiomView``, ``AxiomMove``). A game without them is drawn by the generic board.

    ``featured`` puts the game first where a table offers one game to start from (the lobby's
    preselected game); the others follow by name.

    ``test_option_sets`` lists representative option sets in game-string syntax without the
    name (``""`` for the defaults, ``"players=3,stock=12:12"``): the contract test suite runs
    every check on each of them, so a game declares here the options that change its rules.
    """

    name: str
    _: KW_ONLY
    title: str = ""
    summary: str = ""
    options: tuple[OptionSpec, ...]
    factory: Callable[[Mapping[str, Any]], Game]
    test_option_sets: tuple[str, ...] = ("",)
    notation: tuple[NotationExample, ...] = ()
    rules: RulesSummary | None = None
    move_details: MoveDetails = _state_move_details
    render_svg: Callable[[State], str] | None = None
    load_listing: Callable[[Game, str, str], State] | None = None
    format_cards: Callable[[str | None], str] | None = None
    picture_key: Callable[[Game], str] | None = None
    card_words: Callable[[Game], Mapping[str, str]] | None = None
    data_sets: DataSets | None = None
    view_type: object | None = None
    move_type: object | None = None
    featured: bool = False

    def __post_init__(self) -> None:
        if not self.title:  # a plug-in without a title is shown by its name
            object.__setattr__(self, "title", self.name)

    def test_game_strings(self) -> list[str]:
        """The game strings of :attr:`test_option_sets` (``cage``, ``cage(players=3)``, ...)."""
        return [f"{self.name}({opts})" if opts else self.name for opts in self.test_option_sets]

    def facts(self, game: Game) -> GameFacts:
        """The facts of ``game``, a game of this entry: its seats' names come from the engine
        and its rules summary from the game's resolved options."""
        if game.spec.name != self.name:
            raise RegistryError(f"{game.game_string} is not a game of the entry {self.name!r}")
        state = game.new_initial_state(0)
        seats = tuple(state.describe_player(p) for p in range(game.spec.num_players))
        rules = () if self.rules is None else tuple(self.rules(game.spec.params))
        return GameFacts(title=self.title, seats=seats, notation=self.notation, rules=rules)


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


def load_plugin(
    point: EntryPoint, kind: type[PluginT], what: str, error: type[GameshelfError]
) -> PluginT:
    """Load a plug-in's entry point: a ``kind`` or a function returning one. A point that does
    not load or gives something else is refused with ``error``, naming the point and why."""
    try:
        target = point.load()
    except Exception as exc:  # a broken plug-in: say which one, and why
        raise error(
            f"the {what} entry point {point.name} = {point.value!r} does not load: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    loaded = target() if callable(target) and not isinstance(target, kind) else target
    if not isinstance(loaded, kind):
        raise error(
            f"the {what} entry point {point.name} = {point.value!r} gives a "
            f"{type(loaded).__name__}, not a {kind.__name__} (or a function returning one)"
        )
    return loaded


def entry_from_point(point: EntryPoint) -> GameEntry:
    """Load one entry point of the group and check that it names a game under its own name."""
    entry = load_plugin(point, GameEntry, "game", RegistryError)
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


def offered_games() -> list[str]:
    """Names of every registered game in the order a table offers them: the featured games
    first, then the others, each group sorted by name."""
    return sorted(available_games(), key=lambda name: not _REGISTRY[name].featured)


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


def facts_of(game: Game) -> GameFacts:
    """The facts of a configured game, from its registry entry."""
    return game_entry(game.spec.name).facts(game)
