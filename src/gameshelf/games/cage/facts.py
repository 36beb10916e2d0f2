"""What people are told about a Cage table: notation examples and a rules summary that states
the table's options. The long form is ``docs/games/cage.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameshelf.core.registry import NotationExample, RulesSection

from .geometry import COLOUR_NAMES, COLOURS
from .options import CageConfig, make_config

NOTATION = (
    NotationExample("R3", "drop a red cubie into column 3 (columns 0-7 counter-clockwise)"),
    NotationExample("T1+", "twist layer 1 a quarter turn counter-clockwise (T1- clockwise)"),
    NotationExample("F", "flip the cage"),
)

_SIMULTANEOUS = {
    "draw": "If one move makes lines for several players, the game is a draw.",
    "mover_priority": "If one move makes lines for several players, the mover wins if one of "
    "them is the mover's, else the game is a draw.",
    "shared": "If one move makes lines for several players, they share the win.",
}

_NO_REVERSE = {
    "syntactic": "No direct reversal: you may not undo the move just made (after T1+ no T1-, "
    "after F no F). A drop forbids nothing.",
    "semantic": "No reversal: you may not twist or flip the cage back to the board as it was "
    "before the last move. A drop forbids nothing.",
    "off": "Any move may undo the one just made.",
}


def rules_summary(values: Mapping[str, Any]) -> tuple[RulesSection, ...]:
    """The Cage's rules in short, for these resolved option values."""
    config = make_config(values)
    return (
        RulesSection(
            "Goal",
            (
                "Make a line of three cubies of one of your colours on an outer face of the "
                "cage: a row, a column or a diagonal of a side face.",
                "Three cubies of different colours do not count; a line made for another "
                "player on your move still wins for its owner.",
                _SIMULTANEOUS[config.simultaneous],
            ),
        ),
        RulesSection("A turn: exactly one of", _turn(config)),
        RulesSection("Players and the end", _players_and_end(config)),
    )


def _turn(config: CageConfig) -> tuple[str, ...]:
    items = [
        "Drop one of your cubies into a column that is not full: it falls to the lowest "
        "free cell. Columns 0-7 run counter-clockwise seen from above, 0 = front-left.",
        "Twist one horizontal layer (0 bottom to 2 top) a quarter turn either way; then every "
        "cubie falls down as far as it can.",
        "Flip the whole cage upside down; cubies settle again. New cubies enter at the top.",
        _NO_REVERSE[config.no_reverse],
    ]
    if not config.allow_noop_twists:
        items.append("A twist that changes nothing may not be played.")
    return tuple(items)


def _players_and_end(config: CageConfig) -> tuple[str, ...]:
    owned = "; ".join(
        f"player {player + 1}: " + ", ".join(_colour(c, config.stock[c]) for c in colours)
        for player, colours in enumerate(config.colours)
    )
    items = [f"{config.players} players. {owned}."]
    if config.continue_after_last_drop:
        items.append("Once every cubie is in the cage, play goes on with twists and flips.")
    else:
        items.append(
            "Right after the last cubie is dropped the game is a draw, unless that drop "
            "made a line."
        )
    if config.repetition_draw:
        items.append(
            f"A position that occurs for the {_ordinal(config.repetition_draw)} time is a draw."
        )
    items.append(f"After {config.max_plies} plies the game is a draw.")
    return tuple(items)


def _colour(colour: int, count: int) -> str:
    return f"{COLOUR_NAMES[colour]} ({COLOURS[colour]}, {count} cubies)"


def _ordinal(number: int) -> str:
    """``2nd``, ``3rd``, ``11th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"
