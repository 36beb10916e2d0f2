"""``GameSpec``: the facts of one configured game, as data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .options import OptionSpec


@dataclass(frozen=True)
class GameSpec:
    """Facts about a configured game that search, adapters and the server rely on.

    ``num_distinct_actions`` bounds every player action id; ``max_chance_outcomes`` bounds the
    chance action ids. Utilities lie in ``[min_utility, max_utility]``; when the game is
    constant-sum, ``utility_sum`` is that constant, else ``None``.
    """

    name: str
    title: str
    num_players: int
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    simultaneous: bool
    num_distinct_actions: int
    max_chance_outcomes: int
    min_utility: float
    max_utility: float
    utility_sum: float | None
    max_game_length: int
    rules_version: str
    options: tuple[OptionSpec, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
