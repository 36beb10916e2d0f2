"""AXIA's legal moves as structures: what a table chooses a move by, next to its notation.

Each move names its kind and its parts as the view names the things on the table: a die by
its name (``"P1"``, as in the view's ``dice``), a space of the mover's territory by its index
``row * 6 + column`` (the view's ``marks``), a card cell by its index ``row * 3 + column``
(``grid``), a scoring slot by its index (``scoring``: R1-R3 are 0-2, C1-C3 are 3-5), a face-up
card by its place in ``face_up``, and cards and items by their ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict, cast

from gameshelf.core.errors import InvalidPosition
from gameshelf.core.game import State

from .actions import (
    ChangeDie,
    Decision,
    Decline,
    DrawFromDeck,
    EndTurn,
    Hit,
    HitPair,
    PickScoring,
    Place,
    PlayItem,
    Redraw,
    TakeFaceUp,
    Target,
    Waste,
    ZorakHit,
    decode,
)
from .effects import DEFEATING_EFFECTS

if TYPE_CHECKING:  # the state module is imported by the package only
    from .rules import AxiaState

AxiaMoveKind = Literal[
    "score",
    "redraw",
    "place",
    "take",
    "deck",
    "hit",
    "waste",
    "target",
    "zorak",
    "hit_pair",
    "item",
    "change",
    "end",
    "decline",
    "chance",
]


class AxiaMove(TypedDict):
    """One move: its notation, its kind and the parts that kind has (the others are absent).

    ``score``: ``card`` to ``slot``; ``redraw``: the hand ``cards`` put back (none: keep the
    hand); ``place``: ``card`` to ``cell``; ``take``: the face-up card at ``index``; ``hit``:
    ``die`` on ``space``; ``waste``: ``die`` taken with no hit; ``target``: the waiting
    effect's target ``space`` (``defeat``: it defeats rather than hits); ``zorak``: ``die``'s
    hit on ``space``, the die kept; ``hit_pair``: both ``spaces``; ``item``: play ``item``;
    ``change``: ``die`` shows ``value``; ``deck``, ``end``, ``decline``: nothing more;
    ``chance``: a chance outcome (never a seat's move).
    """

    move: str
    kind: AxiaMoveKind
    die: NotRequired[str]
    space: NotRequired[int]
    spaces: NotRequired[list[int]]
    card: NotRequired[str]
    cards: NotRequired[list[str]]
    cell: NotRequired[int]
    slot: NotRequired[int]
    index: NotRequired[int]
    item: NotRequired[str]
    value: NotRequired[int]
    defeat: NotRequired[bool]


def _parts(state: AxiaState, text: str, move: Decision) -> AxiaMove:
    """The structure of one decoded player move (``text`` is its notation)."""
    cards = state.game.cards
    die = state.game.die_name
    if isinstance(move, PickScoring):
        return {
            "move": text,
            "kind": "score",
            "card": cards.scoring[move.card].id,
            "slot": move.slot,
        }
    if isinstance(move, Redraw):
        hand = state.hands[state.current_seat]
        chosen = [cards.territory[c].id for i, c in enumerate(hand) if move.mask >> i & 1]
        return {"move": text, "kind": "redraw", "cards": chosen}
    if isinstance(move, Place):
        card = cards.territory[move.card].id
        return {"move": text, "kind": "place", "card": card, "cell": move.cell}
    if isinstance(move, TakeFaceUp):
        return {"move": text, "kind": "take", "index": move.index}
    if isinstance(move, Hit):
        return {"move": text, "kind": "hit", "die": die(move.die), "space": move.space}
    if isinstance(move, Waste):
        return {"move": text, "kind": "waste", "die": die(move.die)}
    if isinstance(move, Target):
        effect = state.effect_stack[-1][0] if state.effect_stack else -1
        defeat = effect in DEFEATING_EFFECTS
        return {"move": text, "kind": "target", "space": move.space, "defeat": defeat}
    if isinstance(move, ZorakHit):
        return {"move": text, "kind": "zorak", "die": die(move.die), "space": move.space}
    if isinstance(move, HitPair):
        return {"move": text, "kind": "hit_pair", "spaces": [move.first, move.second]}
    if isinstance(move, PlayItem):
        return {"move": text, "kind": "item", "item": cards.items[move.item].id}
    if isinstance(move, ChangeDie):
        return {"move": text, "kind": "change", "die": die(move.die), "value": move.value}
    return {"move": text, "kind": _ONE_WORD[type(move)]}


_ONE_WORD: dict[type[Decision], AxiaMoveKind] = {
    DrawFromDeck: "deck",
    EndTurn: "end",
    Decline: "decline",
}
"""The kinds whose moves have no parts."""


def legal_move_details(any_state: State) -> list[AxiaMove]:
    """Every legal move of ``any_state`` (an AXIA state) as a structure, in the order of
    ``legal_moves()`` (a chance node's outcomes are of kind ``chance``)."""
    if any_state.game.spec.name != "axia":
        raise InvalidPosition(f"{any_state.game.game_string} is not an AXIA game")
    state = cast("AxiaState", any_state)
    moves = state.legal_moves()
    if state.is_chance_node():
        return [{"move": move.text, "kind": "chance"} for move in moves]
    return [_parts(state, move.text, decode(move.action)) for move in moves]
