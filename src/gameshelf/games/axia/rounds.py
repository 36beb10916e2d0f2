"""The rounds: place a card (all at once), refill, then the hit step, eight times.

Every round has the same four steps. Placements are committed one seat at a time and revealed
together; the refill goes round from the starting Slayer; in the hit step each Slayer takes
turns in ``game.turn_order`` (one die a turn, then items, then ``end``). :func:`advance`
resolves every automatic step until a chance node or a decision is reached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gameshelf.core.game import TERMINAL

from .actions import (
    C_FACEUP,
    C_HAND,
    C_ITEM,
    C_ROLL,
    DECK,
    DECLINE,
    END,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_TURN,
    PLACE,
    REFILL,
    ROUNDS,
    Hit,
    Place,
    TakeFaceUp,
    Waste,
)
from .board import CELL_SPACES
from .chance import chance_pool
from .effects import EFFECT_RUT, OPTIONAL_EFFECTS, effect_actions
from .hits import die_hit, hit_actions
from .items import item_actions

if TYPE_CHECKING:
    from .rules import AxiaState


def start_place(state: AxiaState) -> None:
    """The place step: every seat commits a card, from the starting Slayer on."""
    state.phase = PHASE_PLACE
    state.current_seat = state.starting_seat
    state.seats_done = 0


def place(state: AxiaState, move: Place) -> None:
    """The mover commits a card to a cell; the last commitment reveals them all."""
    seat = state.current_seat
    state.hands[seat].remove(move.card)
    state.placements[seat] = move.card * 9 + move.cell
    state.seats_done += 1
    state.current_seat = (seat + 1) % state.game.players
    if state.seats_done == state.game.players:
        _reveal(state)


def _reveal(state: AxiaState) -> None:
    """All placements are committed: put them on the grids together."""
    for seat in range(state.game.players):
        card, cell = divmod(state.placements[seat], 9)
        state.grid[seat][cell] = card
        for local, space in enumerate(CELL_SPACES[cell]):
            state.card_spaces[seat][space] = card * 4 + local
        state.placements[seat] = -1
    if state.round == 0:
        state.chance_queue.extend((C_FACEUP, 0, i) for i in range(state.game.face_up_size))
        _start_round(state)
    else:  # every round has its refill step, the 8th included ("the same four steps")
        state.phase = PHASE_REFILL
        state.current_seat = state.starting_seat
        state.seats_done = 0
        state.took_face_up = False


def _start_round(state: AxiaState) -> None:
    """A new round: the dice are rolled, then the place step."""
    state.round += 1
    num_dice = state.game.num_dice
    state.dice = [0] * num_dice
    state.dice_taken_by = [-1] * num_dice
    state.chance_queue.extend((C_ROLL, 0, die) for die in range(num_dice))
    start_place(state)


def refill(state: AxiaState, move: TakeFaceUp | None) -> None:
    """The mover takes a face-up card (refilled from the deck), or draws (``None``)."""
    seat = state.current_seat
    if move is not None:
        card = state.face_up[move.index]
        state.face_up[move.index] = -1
        state.hands[seat].append(card)
        state.hands[seat].sort()
        state.took_face_up = True
        state.chance_queue.append((C_FACEUP, 0, move.index))
    else:
        state.chance_queue.append((C_HAND, seat, 0))
        if state.game.players == 1:
            _refresh_face_up(state)
    _end_refill_turn(state)


def _end_refill_turn(state: AxiaState) -> None:
    """The next seat refills; after the last, a row nobody took from is replaced."""
    game = state.game
    state.seats_done += 1
    state.current_seat = (state.current_seat + 1) % game.players
    if state.seats_done < game.players:
        return
    if game.players > 1 and not state.took_face_up:
        _refresh_face_up(state)
    state.phase = PHASE_TURN
    state.turn = 0
    _begin_turn(state)


def _refresh_face_up(state: AxiaState) -> None:
    """Discard the face-up row and reveal a new one."""
    for i, card in enumerate(state.face_up):
        if card >= 0:
            state.territory_discard.append(card)
        state.face_up[i] = -1
        state.chance_queue.append((C_FACEUP, 0, i))


def _begin_turn(state: AxiaState) -> None:
    """The next turn of the hit step: nothing taken or played yet."""
    game = state.game
    state.current_seat = (state.starting_seat + game.turn_order[state.turn]) % game.players
    state.die_taken = False
    state.item_played = False
    state.physical_as_magic = False


def take_die(state: AxiaState, move: Hit | Waste) -> None:
    """The mover takes this turn's die, hitting with it (a :class:`Hit`) or not."""
    state.dice_taken_by[move.die] = state.current_seat
    state.die_taken = True
    if isinstance(move, Hit):
        die_hit(state, state.dice[move.die], move.space)


def end_turn(state: AxiaState) -> None:
    """The turn ends: the next one, or the round's end (the starting Slayer moves left)."""
    state.turn += 1
    if state.turn < len(state.game.turn_order):
        _begin_turn(state)
        return
    state.dice_taken_by = [-1] * state.game.num_dice
    state.starting_seat = (state.starting_seat + 1) % state.game.players
    if state.round == ROUNDS:
        state.phase = PHASE_OVER
        state.current_seat = TERMINAL
    else:
        _start_round(state)


def advance(state: AxiaState) -> None:
    """Resolve automatic steps until a chance node or a decision is reached."""
    while True:
        queue = state.chance_queue
        if queue:
            kind = queue[0][0]
            if kind in (C_HAND, C_FACEUP) and not state.territory_deck and state.territory_discard:
                state.territory_deck = sorted(state.territory_discard)
                state.territory_discard = []
            if chance_pool(state, kind):
                return
            queue.pop(0)  # the deck is exhausted: the draw fizzles
            continue
        if state.phase == PHASE_REFILL and not state.legal_actions():
            _end_refill_turn(state)  # nothing left to draw anywhere
            continue
        if state.phase != PHASE_TURN:
            return
        stack = state.effect_stack
        if stack:
            if stack[-1][0] == EFFECT_RUT:  # Rut: draw an Item card, nothing to choose
                stack.pop()
                queue.append((C_ITEM, state.current_seat, 0))
                continue
            if not effect_actions(state, stack[-1]):
                stack.pop()  # no target: the effect fizzles
                continue
            return
        if not state.die_taken:
            return
        if not state.item_played and item_actions(state):
            return
        end_turn(state)
        if state.phase == PHASE_OVER:
            return


def place_actions(state: AxiaState) -> list[int]:
    """Each card of the mover's hand into each empty cell, ascending ids."""
    seat = state.current_seat
    empty = [cell for cell in range(9) if state.grid[seat][cell] < 0]
    return sorted(PLACE + card * 9 + cell for card in state.hands[seat] for cell in empty)


def refill_actions(state: AxiaState) -> list[int]:
    """Each face-up card left, then the deck while any card is left to draw."""
    out = [REFILL + i for i, card in enumerate(state.face_up) if card >= 0]
    if state.territory_deck or state.territory_discard:
        out.append(DECK)
    return out


def turn_actions(state: AxiaState) -> list[int]:
    """The hit step's moves, ascending ids: an effect's targets while one waits (with the
    items playable and ``decline`` for a beast's optional effect); otherwise this turn's die
    hits and items, then the items and ``end`` once the die is taken."""
    stack = state.effect_stack
    if stack:
        entry = stack[-1]
        out = effect_actions(state, entry)
        if entry[0] in OPTIONAL_EFFECTS:
            out = [*out, *item_actions(state), DECLINE]
        return out
    if not state.die_taken:
        return hit_actions(state) + item_actions(state)
    return [*item_actions(state), END]
