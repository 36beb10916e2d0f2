"""Core of gameshelf: the game protocol, specs, errors, registry, game strings, RNG, records."""

from .errors import (
    GameOver,
    GameshelfError,
    IllegalMove,
    InvalidData,
    InvalidGameString,
    InvalidMove,
    InvalidOption,
    InvalidPosition,
    InvalidRecord,
    NotYourTurn,
    UnknownGame,
)
from .game import CHANCE, SIMULTANEOUS, TERMINAL, Game, Move, State
from .options import OptionSpec, format_game_string, parse_game_string
from .registry import (
    ENTRY_POINT_GROUP,
    GameEntry,
    RegistryError,
    available_games,
    game_entry,
    load,
    register,
)
from .spec import GameSpec

__all__ = [
    "CHANCE",
    "ENTRY_POINT_GROUP",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "GameEntry",
    "GameOver",
    "GameSpec",
    "GameshelfError",
    "IllegalMove",
    "InvalidData",
    "InvalidGameString",
    "InvalidMove",
    "InvalidOption",
    "InvalidPosition",
    "InvalidRecord",
    "Move",
    "NotYourTurn",
    "OptionSpec",
    "RegistryError",
    "State",
    "UnknownGame",
    "available_games",
    "format_game_string",
    "game_entry",
    "load",
    "parse_game_string",
    "register",
]
