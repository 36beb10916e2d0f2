"""What a tournament is given and what it returns, apart from how it runs (no cycle:
the report and the backends read these types, the tournament module drives them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gameshelf.core.errors import GameshelfError

from .ratings import Tally

BACKENDS = ("local", "ray")
SEATINGS = ("all", "rotate")
"""How a table of three or more agents is seated: every turn order, or the listed one rotated."""


class ArenaError(GameshelfError):
    """A tournament that cannot be set up (bad agents, games, backend)."""

    code = "arena/bad-request"


@dataclass
class TournamentConfig:
    """What to play and where."""

    game: str
    agents: list[str]
    games: int
    seed: int = 0
    jobs: int = 1
    backend: str = "local"
    address: str | None = None
    out: Path | None = None
    seating: str = "all"
    """``all``: every turn order of a table of three or more, each rotated through the seats;
    ``rotate``: the listed order only, rotated (two-player tables are the same either way)."""


@dataclass
class OrderTally:
    """The games of one turn order (three or more players): wins per agent and draws."""

    order: tuple[str, ...]
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0

    def to_json(self) -> dict[str, Any]:
        """This order's counts for ``summary.json``."""
        return {
            "order": list(self.order),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
        }


@dataclass
class TournamentResult:
    """Every game's result plus the per-agent tallies and ratings."""

    config: TournamentConfig
    game_string: str
    players: int
    results: list[dict[str, Any]] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=dict)
    rated_games: int = 0
    orders: dict[tuple[str, ...], OrderTally] = field(default_factory=dict)
    """Three or more players: the games of each turn order, in the order first played."""

    def summary(self) -> dict[str, Any]:
        """The JSON summary written to ``summary.json``."""
        return {
            "game": self.game_string,
            "players": self.players,
            "agents": self.config.agents,
            "games_per_table": self.config.games,
            "seed": self.config.seed,
            "backend": self.config.backend,
            "total_games": len(self.results),
            "rated_games": self.rated_games,
            "seating": self.config.seating,
            "table": [t.to_json() for t in self.ranked()],
            "orders": [tally.to_json() for tally in self.orders.values()],
            "games": [
                {k: v for k, v in r.items() if k not in ("record", "moves")} for r in self.results
            ],
        }

    def ranked(self) -> list[Tally]:
        """Tallies, best first (by rating when there is one, else by win rate / mean score)."""

        def key(t: Tally) -> tuple[float, float]:
            if t.mu is not None:
                return (t.mu - 3 * (t.sigma or 0.0), t.mu)
            if t.scored:
                return (t.score_sum / t.scored, 0.0)
            return (t.wins / t.games if t.games else 0.0, 0.0)

        return sorted(self.tallies.values(), key=key, reverse=True)
