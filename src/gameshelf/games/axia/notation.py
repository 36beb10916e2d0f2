"""Move notation of AXIA (text ↔ action id) and the reasons a move is illegal.

Player moves: ``S07>R1`` (scoring card to a slot), ``redraw T03,T12`` / ``redraw none``,
``T12@B2`` (place a card), ``take 2`` / ``deck`` (refill), ``P1>c4`` (take a die and hit),
``P1>-`` (take a die, no hit), ``hit c4`` / ``defeat c4`` (effect target), ``hit c4+d5``
(two targets), ``zorak M1>c4``, ``item I07``, ``P2=5`` (change a die), ``end``, ``decline`` (a
beast's effect).
Chance: ``roll P1 4``, ``deal S07``, ``draw T12``, ``reveal T12``, ``draw I07``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gameshelf.core.errors import IllegalMove, InvalidMove

from .actions import (
    C_FACEUP,
    C_HAND,
    C_ITEM,
    C_ROLL,
    CHANGE,
    DECK,
    DECLINE,
    DIE_HIT,
    END,
    ITEM,
    MULLIGAN,
    NUM_ACTIONS,
    PAIR,
    PHASE_MULLIGAN,
    PHASE_NAMES,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_SCORE_PICK,
    PHASE_TURN,
    PLACE,
    REFILL,
    SCORE_PLACE,
    TARGET,
    WASTE,
    ZORAK,
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
    cell_name,
    decode,
    parse_cell,
    parse_slot,
    parse_space,
    slot_name,
    space_name,
)
from .effects import DEFEATING_EFFECTS, EFFECT_RULES
from .items import item_problem
from .scoring import DEFEATED

if TYPE_CHECKING:
    from .rules import AxiaState


def _chance_text(state: AxiaState, action: int) -> str:
    g = state.game
    kind, _, slot = state.chance_queue[0]
    if kind == C_ROLL:
        return f"roll {g.die_name(slot)} {action + 1}"
    if kind == C_ITEM:
        return f"draw {g.cards.items[action].id}" if action < len(g.cards.items) else f"?{action}"
    if kind in (C_HAND, C_FACEUP):
        word = "draw" if kind == C_HAND else "reveal"
        return (
            f"{word} {g.cards.territory[action].id}"
            if action < len(g.cards.territory)
            else f"?{action}"
        )
    return f"deal {g.cards.scoring[action].id}" if action < len(g.cards.scoring) else f"?{action}"


def action_text(state: AxiaState, action: object) -> str:
    """Notation of ``action``, a legal action (or chance outcome) of ``state``.

    :class:`IllegalMove` for any other id (a bool, a negative or out-of-range id, one of
    another step): ids are read relative to the state (``-1`` would index the last card of a
    deck), so an id that is not legal here would print the text of something else.
    """
    if isinstance(action, bool) or not isinstance(action, int):
        raise IllegalMove(f"action {action!r} is not an action id (an int)")
    if action not in state.legal_actions():
        raise IllegalMove(f"action {action} is no legal move or chance outcome in this state")
    return legal_action_text(state, action)


def legal_action_text(state: AxiaState, action: int) -> str:
    """Notation of ``action``, known to be legal in ``state`` (not checked again: the fast
    path of :meth:`AxiaState.legal_moves`, which formats every legal id)."""
    if state.chance_queue:
        return _chance_text(state, action)
    text = _move_text(state, decode(action))
    return f"?{action}" if text is None else text


def _move_text(state: AxiaState, move: Decision) -> str | None:
    """The text of a tagged move (``None`` when it names a card the game does not have)."""
    cards = state.game.cards
    if isinstance(move, PickScoring):
        if move.card >= len(cards.scoring):
            return None
        return f"{cards.scoring[move.card].id}>{slot_name(move.slot)}"
    if isinstance(move, Redraw):
        return _redraw_text(state, move.mask)
    if isinstance(move, Place):
        if move.card >= len(cards.territory):
            return None
        return f"{cards.territory[move.card].id}@{cell_name(move.cell)}"
    if isinstance(move, TakeFaceUp):
        return f"take {move.index + 1}"
    if isinstance(move, Hit):
        return f"{_die(state, move.die)}>{space_name(move.space)}"
    if isinstance(move, Waste):
        return f"{_die(state, move.die)}>-"
    if isinstance(move, Target):
        effect = state.effect_stack[-1][0] if state.effect_stack else -1
        word = "defeat" if effect in DEFEATING_EFFECTS else "hit"
        return f"{word} {space_name(move.space)}"
    if isinstance(move, ZorakHit):
        return f"zorak {_die(state, move.die)}>{space_name(move.space)}"
    if isinstance(move, HitPair):
        return f"hit {space_name(move.first)}+{space_name(move.second)}"
    if isinstance(move, PlayItem):
        return f"item {cards.items[move.item].id}" if move.item < len(cards.items) else None
    if isinstance(move, ChangeDie):
        return f"{_die(state, move.die)}={move.value}"
    return _WORDS[type(move)]


_WORDS: dict[type[Decision], str] = {DrawFromDeck: "deck", EndTurn: "end", Decline: "decline"}
"""The moves written as one word."""


def _redraw_text(state: AxiaState, mask: int) -> str | None:
    seat = state.current_seat
    hand = state.hands[seat] if 0 <= seat < state.game.players else []
    if mask >= 1 << len(hand):
        return None
    cards = [state.game.cards.territory[c].id for i, c in enumerate(hand) if mask >> i & 1]
    return "redraw " + (",".join(cards) if cards else "none")


def _die(state: AxiaState, die: int) -> str:
    return state.game.die_name(die) if die < state.game.num_dice else f"D{die + 1}"


def _bad(text: str, why: str) -> InvalidMove:
    return InvalidMove(f"{text!r} is not AXIA notation: {why}")


def _parse_chance(state: AxiaState, text: str) -> int:
    g = state.game
    kind = state.chance_queue[0][0]
    words = text.split()
    if kind == C_ROLL:
        if len(words) == 3 and words[0] == "roll" and words[2] in "123456" and len(words[2]) == 1:
            return int(words[2]) - 1
        raise _bad(text, "a roll is written 'roll P1 4'")
    if len(words) != 2:
        raise _bad(text, "a draw is written 'draw T12', 'reveal T12' or 'deal S07'")
    index = {
        C_ITEM: g.item_index,
        C_HAND: g.territory_index,
        C_FACEUP: g.territory_index,
    }.get(kind, g.scoring_index).get(words[1])
    if index is None:
        raise _bad(text, f"{words[1]!r} is not a card of the deck being drawn from")
    return index


def parse_action(state: AxiaState, text: object) -> int:
    """The action id that ``text`` writes in ``state`` (legality is not checked here)."""
    if not isinstance(text, str):
        raise InvalidMove("a move must be text")
    g = state.game
    text = text.strip()
    if state.chance_queue and not state.is_terminal():
        try:
            return _parse_chance(state, text)
        except InvalidMove:
            pass  # maybe a player move given at the wrong time: legality explains it
    if text == "end":
        return END
    if text == "decline":
        return DECLINE
    if text == "deck":
        return DECK
    if m := re.fullmatch(r"take ([1-3])", text):
        return REFILL + int(m.group(1)) - 1
    if m := re.fullmatch(r"(\S+)>([RC][1-3])", text):
        card = g.scoring_index.get(m.group(1))
        slot = parse_slot(m.group(2))
        if card is None or slot is None:
            raise _bad(text, f"{m.group(1)!r} is not a Scoring card")
        return SCORE_PLACE + card * 6 + slot
    if m := re.fullmatch(r"(\S+)@([A-C][1-3])", text):
        tcard = g.territory_index.get(m.group(1))
        cell = parse_cell(m.group(2))
        if tcard is None or cell is None:
            raise _bad(text, f"{m.group(1)!r} is not a Territory card")
        return PLACE + tcard * 9 + cell
    if m := re.fullmatch(r"redraw (\S+)", text):
        return MULLIGAN + _mask(state, text, m.group(1))
    if m := re.fullmatch(r"(zorak )?([PM][1-9])>([a-f][1-6]|-)", text):
        die = g.parse_die(m.group(2))
        if die is None:
            raise _bad(text, f"there is no die {m.group(2)} with {g.players} player(s)")
        if m.group(3) == "-":
            if m.group(1):
                raise _bad(text, "zorak must name a target space")
            return WASTE + die
        space = parse_space(m.group(3))
        assert space is not None
        return (ZORAK if m.group(1) else DIE_HIT) + die * 36 + space
    if m := re.fullmatch(r"(?:hit|defeat) ([a-f][1-6])", text):
        space = parse_space(m.group(1))
        assert space is not None
        return TARGET + space
    if m := re.fullmatch(r"hit ([a-f][1-6])\+([a-f][1-6])", text):
        a, b = parse_space(m.group(1)), parse_space(m.group(2))
        assert a is not None and b is not None
        if a == b:
            raise _bad(text, "the two targets must be different beasts")
        return PAIR + min(a, b) * 36 + max(a, b)
    if m := re.fullmatch(r"item (\S+)", text):
        item = g.item_index.get(m.group(1))
        if item is None:
            raise _bad(text, f"{m.group(1)!r} is not an Item card")
        return ITEM + item
    if m := re.fullmatch(r"([PM][1-9])=([1-6])", text):
        die = g.parse_die(m.group(1))
        if die is None:
            raise _bad(text, f"there is no die {m.group(1)} with {g.players} player(s)")
        return CHANGE + die * 6 + int(m.group(2)) - 1
    raise _bad(text, "see docs/games/axia.md for the move forms (e.g. 'P1>c4', 'T12@B2')")


def _mask(state: AxiaState, text: str, body: str) -> int:
    if body == "none":
        return 0
    if state.phase != PHASE_MULLIGAN or state.chance_queue:
        return 0  # which cards does not matter: legality refuses it as another step's move
    hand = state.hands[state.current_seat] if 0 <= state.current_seat < state.game.players else []
    mask = 0
    for name in body.split(","):
        card = state.game.territory_index.get(name)
        if card is None:
            raise _bad(text, f"{name!r} is not a Territory card")
        if card not in hand:
            raise IllegalMove(f"{text!r}: {name} is not in your hand")
        mask |= 1 << hand.index(card)
    return mask


def _step_of(move: Decision) -> int:
    """The step (an index of ``PHASE_NAMES``) whose moves ``move`` is one of."""
    if isinstance(move, PickScoring):
        return PHASE_SCORE_PICK
    if isinstance(move, Redraw):
        return PHASE_MULLIGAN
    if isinstance(move, Place):
        return PHASE_PLACE
    if isinstance(move, (TakeFaceUp, DrawFromDeck)):
        return PHASE_REFILL
    return PHASE_TURN


def explain_illegal(state: AxiaState, action: int, text: str) -> str:
    """A precise reason why ``action`` (written ``text``) is not legal in ``state``."""
    head = f"move {text!r} is not legal"
    if state.chance_queue:
        first = _chance_text(state, state.legal_actions()[0])
        return f"{head}: a chance event comes next ({first} ...)"
    if not 0 <= action < NUM_ACTIONS:
        return f"{head}: there is no action id {action}"
    move = decode(action)
    step = _step_of(move)
    if step != state.phase:
        who = state.describe_player(state.current_seat)
        return (
            f"{head}: it belongs to another step (the {PHASE_NAMES[step]} step); "
            f"this is the {PHASE_NAMES[state.phase]} step, {who} to move"
        )
    if state.phase != PHASE_TURN:
        return f"{head}: {_setup_problem(state, move)}"
    if state.effect_stack:
        return _explain_waiting(state, move, head)
    return f"{head}: {_turn_problem(state, move)}"


def _setup_problem(state: AxiaState, move: Decision) -> str:
    """Why a move of the current set-up, place or refill step is not legal."""
    seat = state.current_seat
    if isinstance(move, PickScoring):
        if move.card not in state.scoring_offers[seat]:
            return "that Scoring card is not among the cards offered to you"
        return f"slot {slot_name(move.slot)} already holds a Scoring card"
    if isinstance(move, Place):
        if move.card not in state.hands[seat]:
            return f"{state.game.cards.territory[move.card].id} is not in your hand"
        return f"cell {cell_name(move.cell)} already holds a card"
    if isinstance(move, (TakeFaceUp, DrawFromDeck)):
        return "that face-up place is empty or the deck is exhausted"
    return "not a legal choice of the explore-regions step"


def _explain_waiting(state: AxiaState, move: Decision, head: str) -> str:
    """Why a move is not legal while an effect waits for its target."""
    effect = state.effect_stack[-1][0]
    rule = EFFECT_RULES[effect]
    legal = ", ".join(str(m) for m in state.legal_moves()[:8])
    if isinstance(move, (Target, ZorakHit, HitPair, ChangeDie)):
        return (
            f"{head}: not a legal target of the {rule.name} effect, which takes {rule.target} "
            f"(legal: {legal})"
        )
    if isinstance(move, PlayItem) and rule.optional:
        return f"{head}: {_turn_problem(state, move)}"
    if isinstance(move, Decline):
        return f"{head}: the {rule.name} effect comes from an item and cannot be declined"
    return f"{head}: first resolve the {rule.name} effect (legal: {legal})"


def _turn_problem(state: AxiaState, move: Decision) -> str:
    """Why a move of the hit step is not legal (no effect waiting, or an item meanwhile)."""
    if isinstance(move, (Hit, Waste)):
        return _die_problem(state, move)
    if isinstance(move, PlayItem):
        return item_problem(state, move.item)
    if isinstance(move, EndTurn):
        return "take a die and hit first"
    if isinstance(move, Decline):
        return "no beast's effect is waiting to be declined"
    return "no effect is waiting for a target"


def _die_problem(state: AxiaState, move: Hit | Waste) -> str:
    """Why taking this die (and hitting this space) is not legal."""
    game = state.game
    if state.die_taken:
        return "you already took a die this turn (play an item or 'end')"
    if move.die >= game.num_dice:
        return "there is no such die"
    if state.dice_taken_by[move.die] >= 0:
        return f"die {game.die_name(move.die)} was already used this round"
    if isinstance(move, Waste):
        return f"die {game.die_name(move.die)} can hit a beast, so you must hit with a usable die"
    seat, space = state.current_seat, space_name(move.space)
    if state.card_spaces[seat][move.space] < 0:
        return f"there is no card on {space}"
    if state.marks[seat][move.space] == DEFEATED:
        return f"the beast on {space} is already defeated"
    return f"the beast on {space} is magical and needs a Magic die"
