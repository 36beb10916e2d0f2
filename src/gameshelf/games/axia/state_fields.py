"""The fields of a state, named once for what carries them whole: pickling and copying.

A compiled state has no ``__dict__``: pickling goes field by field through
:func:`gameshelf.core.game.restore_state`, and a copy is made by the constructor, which takes
every field here (one by one: compiled, a loop over names would go through ``getattr``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import AxiaState

STATE_FIELDS = (
    "phase", "round", "starting_seat", "current_seat", "picks_left", "seats_done",
    "scoring_batch", "chance_queue", "grid", "marks", "card_spaces", "hands", "items",
    "scoring_slots", "scoring_offers", "placements", "territory_deck", "territory_discard",
    "item_deck", "scoring_deck", "face_up", "dice", "dice_taken_by", "took_face_up", "turn",
    "die_taken", "item_played", "physical_as_magic", "effect_stack", "actions_played",
    "_returns",
)  # fmt: skip
"""Every field of a state but its game (what pickling carries; keep in step with
:func:`copy_fields` and ``AxiaState.__init__``)."""


def copy_fields(state: AxiaState, original: AxiaState) -> None:
    """Take ``original``'s fields, copying every list one level deep."""
    state.game = original.game
    state.phase = original.phase
    state.round = original.round
    state.starting_seat = original.starting_seat
    state.current_seat = original.current_seat
    state.picks_left = original.picks_left
    state.seats_done = original.seats_done
    state.scoring_batch = original.scoring_batch
    state.chance_queue = list(original.chance_queue)
    state.grid = [list(x) for x in original.grid]
    state.marks = [list(x) for x in original.marks]
    state.card_spaces = [list(x) for x in original.card_spaces]
    state.hands = [list(x) for x in original.hands]
    state.items = [list(x) for x in original.items]
    state.scoring_slots = [list(x) for x in original.scoring_slots]
    state.scoring_offers = [list(x) for x in original.scoring_offers]
    state.placements = list(original.placements)
    state.territory_deck = list(original.territory_deck)
    state.territory_discard = list(original.territory_discard)
    state.item_deck = list(original.item_deck)
    state.scoring_deck = list(original.scoring_deck)
    state.face_up = list(original.face_up)
    state.dice = list(original.dice)
    state.dice_taken_by = list(original.dice_taken_by)
    state.took_face_up = original.took_face_up
    state.turn = original.turn
    state.die_taken = original.die_taken
    state.item_played = original.item_played
    state.physical_as_magic = original.physical_as_magic
    state.effect_stack = list(original.effect_stack)
    state.actions_played = list(original.actions_played)
    state._returns = original._returns
