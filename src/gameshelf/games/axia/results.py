"""Results of a state: score sheets, the tie-breaker ranking, returns and the result in words.

The scores themselves are computed by :mod:`.scoring` from a territory's cards and marks; this
module reads them off a state for one seat or all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gameshelf.core.game import State

from .actions import PHASE_OVER
from .scoring import score_breakdown, score_totals, solo_rank

if TYPE_CHECKING:
    from .rules import AxiaState

SOLO_SCORE_CAP = 1000
"""A solo game's return is its score, up to the spec's ``max_utility``."""


def score_sheet(state: AxiaState, p: int) -> dict[str, Any]:
    """Seat ``p``'s score so far (final at the end) with every part itemised."""
    game = state.game
    return score_breakdown(
        game.cards, game.tables, state.card_spaces[p], state.marks[p],
        state.scoring_slots[p], state.items[p],
    )  # fmt: skip


def ranking_key(state: AxiaState, p: int) -> tuple[int, int, int]:
    """(score, defeated beasts, defeated Rakya): the rulebook's order of tie-breakers."""
    game = state.game
    return score_totals(
        game.cards, game.tables, state.card_spaces[p], state.marks[p],
        state.scoring_slots[p], state.items[p],
    )  # fmt: skip


def final_returns(state: AxiaState) -> list[float]:
    """Solo: the final score. Otherwise 1 for each winner after tie-breakers, 0 for others."""
    players = state.game.players
    if state.phase != PHASE_OVER:
        return [0.0] * players
    if players == 1:
        return [float(min(ranking_key(state, 0)[0], SOLO_SCORE_CAP))]
    keys = [ranking_key(state, p) for p in range(players)]
    best = max(keys)
    return [1.0 if key == best else 0.0 for key in keys]


def result_in_words(state: AxiaState) -> str:
    """The result in words; a solo game reports its score and Slayer rank."""
    players = state.game.players
    if not state.is_terminal():
        return State.result_text(state)
    if players == 1:
        total = score_sheet(state, 0)["total"]
        return f"solo score {total}: {solo_rank(total)}"
    totals = [score_sheet(state, p)["total"] for p in range(players)]
    scores = " (scores " + ", ".join(str(t) for t in totals) + ")"
    winners = state.winners()
    if len(winners) == 1:
        return State.result_text(state) + scores
    names = " and ".join(state.describe_player(p) for p in winners)
    return f"{names} share the victory{scores}"
