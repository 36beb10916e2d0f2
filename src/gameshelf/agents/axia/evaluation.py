"""AXIA's evaluators: the look-ahead heuristic, and the bare score that greedy maximises."""

from __future__ import annotations

from gameshelf.games.axia import AxiaState

from ..evaluators import relative
from .policies import heuristic as axia_heuristic


def _axia_values(state: AxiaState, values: list[float]) -> list[float]:
    """Solo: the value itself; else each player's lead turned into a winning chance."""
    if len(values) == 1:
        return [min(values[0], state.game.spec.max_utility)]
    return [(v + 1.0) / 2.0 for v in relative(values, 10.0)]


def axia_evaluator(state: AxiaState) -> list[float]:
    """AXIA: each sheet's score plus the potential of its Scoring cards (lines nearly ready to
    activate), wounds and kept items — the AXIA engine's look-ahead heuristic."""
    n = state.game.spec.num_players
    return _axia_values(state, [axia_heuristic(state, p) for p in range(n)])


def axia_score_evaluator(state: AxiaState) -> list[float]:
    """AXIA: the score sheets as they stand (what a naive greedy player looks at)."""
    n = state.game.spec.num_players
    return _axia_values(state, [float(state.score_sheet(p)["total"]) for p in range(n)])
