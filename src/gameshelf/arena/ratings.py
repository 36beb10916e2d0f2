"""Placement-based ratings (openskill's Plackett-Luce model) and per-agent tallies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def placements(returns: Sequence[float], scores: Sequence[float] | None = None) -> list[int]:
    """Rank of each seat (1 = best; equal results share a rank). Scores break equal returns."""
    keys = [(r, scores[i] if scores is not None else 0.0) for i, r in enumerate(returns)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def outcome(returns: Sequence[float], seat: int) -> str:
    """``win``, ``draw`` or ``loss`` of ``seat``: best and not all equal is a (possibly shared)
    win, all equal is a draw, anyone better is a loss."""
    mine = returns[seat]
    if all(r == mine for r in returns):
        return "draw"
    if any(r > mine for r in returns):
        return "loss"
    return "win"


@dataclass
class Tally:
    """Everything counted for one agent over a tournament."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    placement_sum: float = 0.0
    score_sum: float = 0.0
    scored: int = 0
    think_time: float = 0.0
    moves: int = 0
    ranks: dict[str, int] = field(default_factory=dict)
    mu: float | None = None
    sigma: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data for the JSON summary."""
        return {
            "agent": self.name,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.wins / self.games if self.games else None,
            "mean_placement": self.placement_sum / self.games if self.games else None,
            "mean_score": self.score_sum / self.scored if self.scored else None,
            "seconds_per_move": self.think_time / self.moves if self.moves else None,
            "solo_ranks": dict(self.ranks),
            "rating_mu": self.mu,
            "rating_sigma": self.sigma,
            "rating_ordinal": None if self.mu is None else self.mu - 3 * (self.sigma or 0.0),
        }


class Ratings:
    """Plackett-Luce ratings updated game by game from placements."""

    def __init__(self, names: Sequence[str]) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.ratings = {name: self.model.rating(name=name) for name in names}
        self.rated_games = 0

    def update(self, seats: Sequence[str], ranks: Sequence[int]) -> None:
        """Rate one game; skipped when an agent holds several seats (it cannot rank itself)."""
        if len(seats) < 2 or len(set(seats)) != len(seats):
            return
        teams = [[self.ratings[name]] for name in seats]
        new = self.model.rate(teams, ranks=list(ranks))
        for name, team in zip(seats, new, strict=True):
            self.ratings[name] = team[0]
        self.rated_games += 1

    def value(self, name: str) -> tuple[float, float]:
        """``(mu, sigma)`` of ``name``."""
        rating = self.ratings[name]
        return float(rating.mu), float(rating.sigma)
