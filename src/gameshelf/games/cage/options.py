"""Options of the Rubik's Cage (see ``docs/games/cage.md``) and the colour set-up they imply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gameshelf.core.errors import InvalidOption
from gameshelf.core.options import OptionSpec, parse_decimal

from .geometry import CELLS, COLOURS

STANDARD_COLOURS: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((0, 1, 2), (3, 4, 5)),
    3: ((0, 1), (2, 3), (4, 5)),
    4: ((0,), (1,), (2,), (3,)),
}
CUBIES_PER_COLOUR = 4


def _parse_stock(text: str) -> tuple[int, ...] | None:
    if text.lower() in {"", "standard", "none"}:
        return None
    parts = text.split(":")
    try:
        counts = tuple(parse_decimal(part, max_digits=3) for part in parts)
    except ValueError as exc:
        raise ValueError(f"counts must be integers separated by ':' ({exc})") from None
    if sum(counts) == 0:
        raise ValueError("at least one cubie must be in play")
    if sum(counts) > CELLS:
        raise ValueError(f"the cage holds {CELLS} cubies, the counts add up to {sum(counts)}")
    return counts


def _format_stock(value: tuple[int, ...] | None) -> str:
    return "standard" if value is None else ":".join(str(count) for count in value)


def _parse_repetition(text: str) -> int:
    value = parse_decimal(text, max_digits=4)
    if value != 0 and not 2 <= value <= 1000:
        raise ValueError("0 (off) or an occurrence count from 2 to 1000")
    return value


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", "int", 2, "number of players", minimum=2, maximum=4),
    OptionSpec(
        "stock",
        "str",
        None,
        "analysis variant: one colour per player with these cubie counts, e.g. 12:12",
        parser=_parse_stock,
        formatter=_format_stock,
        allowed="standard, or one count per player separated by ':' (total at most 24)",
    ),
    OptionSpec(
        "simultaneous",
        "choice",
        "draw",
        "who wins when one move makes lines for several players",
        choices=("draw", "mover_priority", "shared"),
    ),
    OptionSpec(
        "no_reverse",
        "choice",
        "syntactic",
        "which move the next player may not play after a move",
        choices=("syntactic", "semantic", "off"),
    ),
    OptionSpec("allow_noop_twists", "bool", True, "may a twist that changes nothing be played"),
    OptionSpec(
        "continue_after_last_drop",
        "bool",
        False,
        "play on with twists and flips once every cubie is in the cage",
    ),
    OptionSpec(
        "max_plies",
        "int",
        200,
        "the game is drawn after this many plies",
        minimum=1,
        maximum=100_000,
    ),
    OptionSpec(
        "repetition_draw",
        "int",
        3,
        "draw on this occurrence of the same position (0 = off)",
        parser=_parse_repetition,
        allowed="0 (off) or an integer 2..1000",
    ),
)


@dataclass(frozen=True)
class CageConfig:
    """Resolved options plus the colour set-up derived from them."""

    players: int
    colours: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    simultaneous: str
    no_reverse: str
    allow_noop_twists: bool
    continue_after_last_drop: bool
    max_plies: int
    repetition_draw: int

    @property
    def owner(self) -> tuple[int, ...]:
        """Owner of each colour (``-1`` for a colour set aside)."""
        owners = [-1] * len(COLOURS)
        for player, colours in enumerate(self.colours):
            for colour in colours:
                owners[colour] = player
        return tuple(owners)

    @property
    def colours_in_play(self) -> tuple[int, ...]:
        """Colours that some player owns, ascending."""
        return tuple(sorted(c for colours in self.colours for c in colours))


def make_config(values: Mapping[str, Any]) -> CageConfig:
    """Build a :class:`CageConfig`, checking options that depend on each other."""
    players = int(values["players"])
    stock_counts = values["stock"]
    stock = [0] * len(COLOURS)
    if stock_counts is None:
        colours = STANDARD_COLOURS[players]
        for owned in colours:
            for colour in owned:
                stock[colour] = CUBIES_PER_COLOUR
    else:
        if len(stock_counts) != players:
            raise InvalidOption(
                f"option stock={_format_stock(stock_counts)} gives {len(stock_counts)} counts "
                f"but the game has players={players}; give one count per player"
            )
        colours = tuple((player,) for player in range(players))
        for player, count in enumerate(stock_counts):
            stock[player] = count
    return CageConfig(
        players=players,
        colours=colours,
        stock=tuple(stock),
        simultaneous=str(values["simultaneous"]),
        no_reverse=str(values["no_reverse"]),
        allow_noop_twists=bool(values["allow_noop_twists"]),
        continue_after_last_drop=bool(values["continue_after_last_drop"]),
        max_plies=int(values["max_plies"]),
        repetition_draw=int(values["repetition_draw"]),
    )
