"""The setup: Scoring cards (picked in batches, drafted, or dealt at random in a first game),
the starting hands and the explore-regions redraw, up to the first placement.

Functions take the state and change it in place; the rounds begin in :mod:`.rounds`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    C_HAND,
    C_SCORE,
    C_SLOT,
    MULLIGAN,
    PHASE_MULLIGAN,
    PHASE_SCORE_PICK,
    SCORE_PLACE,
    PickScoring,
)
from .rounds import start_place

if TYPE_CHECKING:
    from .rules import AxiaState

STARTING_HAND = 4
"""Territory cards dealt to each Slayer before the first placement."""


def start_setup(state: AxiaState) -> None:
    """Queue the scoring-card setup (or the first game's random deal of six)."""
    game = state.game
    if game.first_game:
        for seat in range(game.players):
            state.chance_queue.extend((C_SLOT, seat, slot) for slot in range(6))
        deal_territory(state)
    else:
        start_batch(state)


def scoring_plan(state: AxiaState) -> tuple[int, int, int]:
    """(cards dealt per batch, picks per batch, batches) of the Scoring-card setup: the
    draft variant deals 7 and passes them on one pick at a time; solo deals 3, keeps 2,
    three times; otherwise 4, keep 3, twice."""
    if state.game.prioritize_objectives:
        return 7, 1, 6
    if state.game.players == 1:
        return 3, 2, 3
    return 4, 3, 2


def start_batch(state: AxiaState) -> None:
    """Deal a batch of Scoring cards (the draft deals only once) and start its picks."""
    deal, picks, _ = scoring_plan(state)
    if not state.game.prioritize_objectives or state.scoring_batch == 0:
        for seat in range(state.game.players):
            state.chance_queue.extend((C_SCORE, seat, 0) for _ in range(deal))
    state.phase = PHASE_SCORE_PICK
    state.current_seat = 0
    state.picks_left = picks


def pick_scoring(state: AxiaState, move: PickScoring) -> None:
    """The mover puts an offered Scoring card in an empty slot."""
    seat = state.current_seat
    state.scoring_slots[seat][move.slot] = move.card
    state.scoring_offers[seat].remove(move.card)
    state.picks_left -= 1
    if state.picks_left == 0:
        _end_picks(state)


def _end_picks(state: AxiaState) -> None:
    """A seat has picked its share: the next seat picks, or the batch is over (the draft
    passes what is left to the left; otherwise what is left is discarded)."""
    game = state.game
    _, picks, batches = scoring_plan(state)
    state.current_seat += 1
    state.picks_left = picks
    if state.current_seat < game.players:
        return
    state.scoring_batch += 1
    offers = state.scoring_offers
    if game.prioritize_objectives:
        state.scoring_offers = [offers[(p - 1) % game.players] for p in range(game.players)]
    else:
        state.scoring_offers = [[] for _ in range(game.players)]
    if state.scoring_batch < batches:
        start_batch(state)
        return
    state.scoring_offers = [[] for _ in range(game.players)]
    deal_territory(state)


def deal_territory(state: AxiaState) -> None:
    """Deal the starting hands; the redraw (a variant) or the first placement follows."""
    for seat in range(state.game.players):
        state.chance_queue.extend((C_HAND, seat, 0) for _ in range(STARTING_HAND))
    state.current_seat = 0
    state.seats_done = 0
    if state.game.explore_regions:
        state.phase = PHASE_MULLIGAN
    else:
        start_place(state)


def redraw(state: AxiaState, mask: int) -> None:
    """Explore regions: the mover discards the cards picked by ``mask`` and draws as many."""
    seat = state.current_seat
    hand = state.hands[seat]
    dropped = [card for i, card in enumerate(hand) if mask >> i & 1]
    for card in dropped:
        hand.remove(card)
        state.territory_discard.append(card)
    state.chance_queue.extend((C_HAND, seat, 0) for _ in dropped)
    state.current_seat += 1
    if state.current_seat == state.game.players:
        start_place(state)


def pick_actions(state: AxiaState) -> list[int]:
    """The mover's picks: each offered card into each empty slot, ascending ids."""
    seat = state.current_seat
    empty = [slot for slot in range(6) if state.scoring_slots[seat][slot] < 0]
    return sorted(
        SCORE_PLACE + card * 6 + slot for card in state.scoring_offers[seat] for slot in empty
    )


def redraw_actions(state: AxiaState) -> list[int]:
    """Every subset of the mover's hand to redraw (the empty one keeps it)."""
    return [MULLIGAN + mask for mask in range(1 << len(state.hands[state.current_seat]))]
