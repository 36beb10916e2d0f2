"""Options of AXIA (see ``docs/games/axia.md``): the only place that knows their defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gameshelf.core.errors import InvalidOption
from gameshelf.core.options import OptionSpec

from .cardsets import resolve_cards

RAKYA_EFFECTS = ("hit_non_magical", "none")
"""Values of the ``rakya_effect`` option."""


def _cards_path(text: str) -> str:
    if not text:
        raise ValueError("empty path")
    resolve_cards(text)  # every named violation is reported now, as InvalidData
    return text


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", "int", 2, "number of Slayers (1 = solo mode)", minimum=1, maximum=4),
    OptionSpec(
        "cards",
        "str",
        None,
        "a card set: 'standard' (shipped), a registered set's name, or a card file's path",
        parser=_cards_path,
        allowed="standard, a registered card set's name, or a card file's path "
        "(see docs/games/axia.md)",
        names_file=True,
        default_text="standard",  # no value plays the shipped set, which is this name
    ),
    OptionSpec(
        "first_game", "bool", False, "deal 6 Scoring cards at random and place them randomly"
    ),
    OptionSpec(
        "prioritize_objectives",
        "bool",
        False,
        "variant: draft Scoring cards (7, pick 1, pass left)",
    ),
    OptionSpec("explore_regions", "bool", False, "variant: one redraw of the starting hand"),
    OptionSpec(
        "must_hit_if_possible",
        "bool",
        True,
        "forbid taking a die you cannot use while a usable die remains",
    ),
    OptionSpec(
        "rakya_effect",
        "choice",
        RAKYA_EFFECTS[0],
        "a defeated Rakya hits a non-magical beast (the Overview's eighth immediate effect), "
        "or has no effect",
        choices=RAKYA_EFFECTS,
    ),
)


@dataclass(frozen=True)
class AxiaConfig:
    """Resolved options of one AXIA game."""

    players: int
    cards: str | None
    first_game: bool
    prioritize_objectives: bool
    explore_regions: bool
    must_hit_if_possible: bool
    rakya_effect: str


def make_config(values: Mapping[str, Any]) -> AxiaConfig:
    """An :class:`AxiaConfig` from option values; an option not given takes its declared default.

    The registry passes every option already parsed; a caller building a game by hand may give
    only some, and the defaults then come from :data:`OPTIONS`, never from a second copy.
    """
    unknown = sorted(set(values) - {spec.name for spec in OPTIONS})
    if unknown:
        known = ", ".join(spec.name for spec in OPTIONS)
        raise InvalidOption(f"unknown AXIA option(s) {', '.join(unknown)}; known: {known}")
    merged = {spec.name: spec.default for spec in OPTIONS}
    merged.update(values)
    cards = merged["cards"]
    return AxiaConfig(
        players=int(merged["players"]),
        cards=None if cards is None else str(cards),
        first_game=bool(merged["first_game"]),
        prioritize_objectives=bool(merged["prioritize_objectives"]),
        explore_regions=bool(merged["explore_regions"]),
        must_hit_if_possible=bool(merged["must_hit_if_possible"]),
        rakya_effect=str(merged["rakya_effect"]),
    )
