"""What a network client may ask a server to build: game strings, data sets, option caps, seeds.

A game string from the network never makes the server open a file: an option that can name a
file (``OptionSpec.names_file``, e.g. AXIA's ``cards``) accepts only the data sets (card sets)
this server knows by name — the one its game ships (``standard``) and those the operator
registered at start-up with ``--card-set NAME=FILE``. Which game takes data sets, and how they
are read and checked, is the game's registry entry's ``data_sets``. Every match is *pinned* to
the content of its data set: the content is stored once per digest with the match, so it
replays with the cards it was dealt even after the operator changes a file or the package
ships new card data.

Functions here do blocking work (loading a game, reading the operator's files) and are called
through ``asyncio.to_thread``, never on the event loop.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameshelf.core.errors import InvalidData, InvalidOption
from gameshelf.core.game import Game
from gameshelf.core.options import OptionSpec, ParsedGameString, parse_game_string
from gameshelf.core.registry import DataSets, available_games, game_entry, load

from .errors import ServerError
from .store import MatchExtras

log = logging.getLogger("gameshelf.server")

CAPPED_OPTIONS = ("max_plies",)
"""Integer options bounded by ``ServerSettings.max_plies`` in network matches."""


@dataclass(frozen=True)
class CardSetEntry:
    """A card set a server accepts by name: its parsed JSON content and digest."""

    name: str
    data: Any
    digest: str
    content: str = ""
    """The canonical JSON text stored with matches (made once, not at every create)."""

    def __post_init__(self) -> None:
        if not self.content:
            canonical = json.dumps(self.data, sort_keys=True, separators=(",", ":"))
            object.__setattr__(self, "content", canonical)


def data_set_game() -> str | None:
    """The registered game whose file-naming option takes named data sets (its entry's
    ``data_sets``), or ``None``. A server keeps one catalog of them, for one game: a second
    game offering data sets is refused by name rather than served from the wrong catalog."""
    offering = [name for name in available_games() if game_entry(name).data_sets is not None]
    if len(offering) > 1:
        raise InvalidData(
            f"the games {', '.join(offering)} all take named data sets; this server keeps "
            "the data sets (--card-set) of one game only"
        )
    return offering[0] if offering else None


def _data_sets(game: str) -> DataSets | None:
    return game_entry(game).data_sets


class CardSetCatalog:
    """The data sets (card sets) of one server, for the game that takes them: the set the game
    ships plus those registered at start-up. A shelf where no game takes them has none, and
    the operator's files are then refused."""

    def __init__(self, files: dict[str, Path] | None = None) -> None:
        self.game = data_set_game()
        self.sets: dict[str, CardSetEntry] = {}
        self.standard = ""
        provider = None if self.game is None else _data_sets(self.game)
        if provider is None:
            if files:
                raise InvalidData("no game of this shelf takes named data sets (--card-set)")
            return
        self.standard = provider.standard
        standard = provider.standard_data()
        self.sets[self.standard] = CardSetEntry(self.standard, standard, provider.digest(standard))
        for name, path in (files or {}).items():
            self.sets[name] = self._read(provider, name, path)

    @staticmethod
    def _read(provider: DataSets, name: str, path: Path) -> CardSetEntry:
        """Read and validate an operator's card file (start-up only; errors stop the start)."""
        if not path.is_file():
            raise InvalidData(f"card set {name!r}: {path} is not a regular file")
        if path.stat().st_size > 4 * 1024 * 1024:
            raise InvalidData(f"card set {name!r}: {path} is larger than 4 MiB")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InvalidData(f"card set {name!r}: cannot read {path}: {exc}") from None
        provider.register(name, data)  # validates every card; named errors stop the start
        return CardSetEntry(name, data, provider.digest(data))

    def names(self) -> list[str]:
        """Names a client may give, the shipped set first."""
        return [name for name in self.sets if name == self.standard] + sorted(
            name for name in self.sets if name != self.standard
        )

    def offers(self, game: str) -> bool:
        """Whether the sets of this catalog are ``game``'s (another game's file-naming option
        takes no value over the network)."""
        return game == self.game


@dataclass(frozen=True)
class VettedGame:
    """A game a client may play here: its public game string and the pinned game to run."""

    display: str
    game: Game
    extras: MatchExtras


def _pinned_key(name: str, digest: str) -> str:
    return f"{name}@{digest[:16]}"


def _format(parsed: ParsedGameString) -> str:
    if not parsed.options:
        return parsed.name
    return f"{parsed.name}({','.join(f'{k}={v}' for k, v in parsed.options)})"


def _with_option(display: str, option: str, value: str) -> str:
    parsed = parse_game_string(display)
    options = (*tuple((k, v) for k, v in parsed.options if k != option), (option, value))
    return _format(ParsedGameString(parsed.name, options))


def _file_option(parsed: ParsedGameString) -> str | None:
    """The name of the game's option that can name a file (``None`` if it has none)."""
    for spec in game_entry(parsed.name).options:
        if spec.names_file:
            return spec.name
    return None


def network_option(spec: OptionSpec, catalog: CardSetCatalog, game: str) -> tuple[str, str, str]:
    """An option of ``game`` with its default, allowed values and description as this server
    takes it (``GET /api/games``).

    The option that can name a file (AXIA's ``cards``) defaults to no value in the engine, and
    the engine then plays the shipped set: on the network that is the shipped set's name
    (``standard``), which is also the name a client may give for it; and a path is never
    taken there, only the set names (none, for a game whose sets this catalog does not hold)."""
    if not spec.names_file:
        return spec.format(spec.default), spec.describe_allowed(), spec.doc
    if not catalog.offers(game):
        return spec.format(spec.default), "none here (files are never opened)", spec.doc
    default = catalog.standard if spec.default is None else spec.format(spec.default)
    names = ", ".join(catalog.names())
    return (
        default,
        f"a card set of this server: {names} (GET /api/card-sets; no file paths)",
        f"a card set by name: '{catalog.standard}' (shipped) or one this server's operator "
        "registered",
    )


def _refuse_paths(parsed: ParsedGameString, catalog: CardSetCatalog) -> None:
    """Refuse any file-naming option whose value is not a known set name (no file is touched)."""
    option = _file_option(parsed)
    known = catalog.names() if catalog.offers(parsed.name) else []
    for key, value in parsed.options:
        if key == option and value not in known:
            raise InvalidOption(
                f"option {key} names a card set; this server knows only: "
                f"{', '.join(known) or 'none'} (files are never opened for network clients)"
            )


def vet_network_game(text: str, catalog: CardSetCatalog, max_plies: int) -> VettedGame:
    """Check a client's game string against the server's rules and build its pinned game."""
    parsed = parse_game_string(text)
    _refuse_paths(parsed, catalog)
    option = _file_option(parsed) if catalog.offers(parsed.name) else None
    given = dict(parsed.options)
    set_name = given.get(option, catalog.standard) if option else None
    public = ParsedGameString(
        parsed.name,
        tuple((k, v) for k, v in parsed.options if not (k == option and v == catalog.standard)),
    )
    display = load(_format(public)).game_string
    extras = MatchExtras()
    if option is not None and set_name is not None:
        entry = catalog.sets[set_name]
        extras = MatchExtras(
            data_option=option,
            data_name=entry.name,
            data_digest=entry.digest,
            data_content=entry.content,
        )
    game = load_pinned(display, extras)
    for name in CAPPED_OPTIONS:
        value = game.spec.params.get(name)
        if isinstance(value, int) and value > max_plies:
            raise InvalidOption(
                f"option {name}={value} is above this server's cap {max_plies} for network matches"
            )
    return VettedGame(display, game, extras)


def load_pinned(display: str, extras: MatchExtras) -> Game:
    """The game of a stored match, with the card content it was created with (never a file)."""
    parsed = parse_game_string(display)
    provider = _data_sets(parsed.name)
    if extras.data_option is None or extras.data_digest is None:
        option = _file_option(parsed)
        if option is not None and option in dict(parsed.options):
            value = dict(parsed.options)[option]
            if provider is None or provider.registered(value) is None:
                raise InvalidData(f"{display}: option {option} names no card set this server knows")
        return load(display)
    if extras.data_content is None:
        raise InvalidData(f"{display}: its card set {extras.data_digest[:16]} is not stored")
    if provider is None:
        raise InvalidData(f"{display}: a card set is stored with it, but its game takes none")
    key = _pinned_key(extras.data_name or "set", extras.data_digest)
    if provider.registered(key) is None:
        data = json.loads(extras.data_content)
        if provider.digest(data) != extras.data_digest:
            raise InvalidData(f"{display}: stored card set does not match its digest")
        provider.register(key, data)
    return load(_with_option(display, extras.data_option, key))


def seed_commitment(salt: str, seed: int) -> str:
    """The published commitment to a match's seed: SHA-256 of ``"<salt>:<seed>"`` in hex."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def choose_seed(game: Game, human_seats: int, client_seed: int | None) -> tuple[int, str, bool]:
    """The match seed, its commitment salt and whether the client chose it.

    A client may choose the seed only where nobody else can be hurt by knowing every card and
    die in advance: games without chance, or a single human seat (solo, or against bots).
    """
    salt = secrets.token_hex(16)
    if client_seed is None:
        return secrets.randbits(63), salt, False
    if game.spec.chance and human_seats > 1:
        raise ServerError(
            "request/seed-not-allowed",
            "a seed cannot be chosen for a game with chance and more than one human seat "
            "(whoever knows it knows every card and die); the server draws a secret seed and "
            "publishes its commitment",
        )
    return client_seed, salt, True
