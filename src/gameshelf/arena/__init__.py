"""The arena: seat-rotated tournaments between agents, ratings, charts and saved records.

``run_tournament(TournamentConfig(...))`` plays the games locally (a process pool) or on a Ray
cluster and returns a :class:`~gameshelf.arena.tournament.TournamentResult`; the CLI commands
live in :mod:`gameshelf.arena.cli`.
"""

from . import opponents as opponents  # registers the agent "openspiel-mcts"
from .match import MatchResult, MatchSpec, play_match
from .tournament import TournamentConfig, TournamentResult, run_tournament

__all__ = [
    "MatchResult",
    "MatchSpec",
    "TournamentConfig",
    "TournamentResult",
    "play_match",
    "run_tournament",
]
