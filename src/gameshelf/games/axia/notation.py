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

from . import actions as A
from .actions import (
    BEAST_TASKS,
    C_FACEUP,
    C_HAND,
    C_ITEM,
    C_ROLL,
    DEFEAT_TASKS,
    PHASE_MULLIGAN,
    PHASE_NAMES,
    PHASE_TURN,
)

if TYPE_CHECKING:
    from .rules import AxiaState


def _chance_text(state: AxiaState, action: int) -> str:
    g = state.game
    kind, _, slot = state.chance[0]
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
    g = state.game
    if state.chance:
        return _chance_text(state, action)
    if A.SCORE_PLACE <= action < A.MULLIGAN:
        card, slot = divmod(action, 6)
        return (
            f"{g.cards.scoring[card].id}>{A.slot_name(slot)}"
            if card < len(g.cards.scoring)
            else f"?{action}"
        )
    if action < A.PLACE:
        mask = action - A.MULLIGAN
        hand = state.hands[state.cur] if 0 <= state.cur < g.n else []
        cards = [g.cards.territory[c].id for i, c in enumerate(hand) if mask >> i & 1]
        return (
            "redraw " + (",".join(cards) if cards else "none")
            if mask < 1 << len(hand)
            else f"?{action}"
        )
    if action < A.REFILL:
        card, cell = divmod(action - A.PLACE, 9)
        if card >= len(g.cards.territory):
            return f"?{action}"
        return f"{g.cards.territory[card].id}@{A.cell_name(cell)}"
    if action < A.DECK:
        return f"take {action - A.REFILL + 1}"
    if action == A.DECK:
        return "deck"
    if action < A.WASTE:
        die, s = divmod(action - A.DIE_HIT, 36)
        return f"{_die(state, die)}>{A.space_name(s)}"
    if action < A.TARGET:
        return f"{_die(state, action - A.WASTE)}>-"
    if action < A.ZORAK:
        task = state.stack[-1][0] if state.stack else -1
        word = "defeat" if task in DEFEAT_TASKS else "hit"
        return f"{word} {A.space_name(action - A.TARGET)}"
    if action < A.PAIR:
        die, s = divmod(action - A.ZORAK, 36)
        return f"zorak {_die(state, die)}>{A.space_name(s)}"
    if action < A.ITEM:
        a, b = divmod(action - A.PAIR, 36)
        return f"hit {A.space_name(a)}+{A.space_name(b)}"
    if action < A.CHANGE:
        item = action - A.ITEM
        return f"item {g.cards.items[item].id}" if item < len(g.cards.items) else f"?{action}"
    if action < A.END:
        die, value = divmod(action - A.CHANGE, 6)
        return f"{_die(state, die)}={value + 1}"
    if action == A.END:
        return "end"
    if action == A.DECLINE:
        return "decline"
    return f"?{action}"


def _die(state: AxiaState, die: int) -> str:
    return state.game.die_name(die) if die < state.game.num_dice else f"D{die + 1}"


def _bad(text: str, why: str) -> InvalidMove:
    return InvalidMove(f"{text!r} is not AXIA notation: {why}")


def _parse_chance(state: AxiaState, text: str) -> int:
    g = state.game
    kind = state.chance[0][0]
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
    if state.chance and not state.is_terminal():
        try:
            return _parse_chance(state, text)
        except InvalidMove:
            pass  # maybe a player move given at the wrong time: legality explains it
    if text == "end":
        return A.END
    if text == "decline":
        return A.DECLINE
    if text == "deck":
        return A.DECK
    if m := re.fullmatch(r"take ([1-3])", text):
        return A.REFILL + int(m.group(1)) - 1
    if m := re.fullmatch(r"(\S+)>([RC][1-3])", text):
        card = g.scoring_index.get(m.group(1))
        slot = A.parse_slot(m.group(2))
        if card is None or slot is None:
            raise _bad(text, f"{m.group(1)!r} is not a Scoring card")
        return A.SCORE_PLACE + card * 6 + slot
    if m := re.fullmatch(r"(\S+)@([A-C][1-3])", text):
        tcard = g.territory_index.get(m.group(1))
        cell = A.parse_cell(m.group(2))
        if tcard is None or cell is None:
            raise _bad(text, f"{m.group(1)!r} is not a Territory card")
        return A.PLACE + tcard * 9 + cell
    if m := re.fullmatch(r"redraw (\S+)", text):
        return A.MULLIGAN + _mask(state, text, m.group(1))
    if m := re.fullmatch(r"(zorak )?([PM][1-9])>([a-f][1-6]|-)", text):
        die = g.parse_die(m.group(2))
        if die is None:
            raise _bad(text, f"there is no die {m.group(2)} with {g.n} player(s)")
        if m.group(3) == "-":
            if m.group(1):
                raise _bad(text, "zorak must name a target space")
            return A.WASTE + die
        space = A.parse_space(m.group(3))
        assert space is not None
        return (A.ZORAK if m.group(1) else A.DIE_HIT) + die * 36 + space
    if m := re.fullmatch(r"(?:hit|defeat) ([a-f][1-6])", text):
        space = A.parse_space(m.group(1))
        assert space is not None
        return A.TARGET + space
    if m := re.fullmatch(r"hit ([a-f][1-6])\+([a-f][1-6])", text):
        a, b = A.parse_space(m.group(1)), A.parse_space(m.group(2))
        assert a is not None and b is not None
        if a == b:
            raise _bad(text, "the two targets must be different beasts")
        return A.PAIR + min(a, b) * 36 + max(a, b)
    if m := re.fullmatch(r"item (\S+)", text):
        item = g.item_index.get(m.group(1))
        if item is None:
            raise _bad(text, f"{m.group(1)!r} is not an Item card")
        return A.ITEM + item
    if m := re.fullmatch(r"([PM][1-9])=([1-6])", text):
        die = g.parse_die(m.group(1))
        if die is None:
            raise _bad(text, f"there is no die {m.group(1)} with {g.n} player(s)")
        return A.CHANGE + die * 6 + int(m.group(2)) - 1
    raise _bad(text, "see docs/games/axia.md for the move forms (e.g. 'P1>c4', 'T12@B2')")


def _mask(state: AxiaState, text: str, body: str) -> int:
    if body == "none":
        return 0
    if state.phase != PHASE_MULLIGAN or state.chance:
        return 0  # which cards does not matter: legality refuses it as another step's move
    hand = state.hands[state.cur] if 0 <= state.cur < state.game.n else []
    mask = 0
    for name in body.split(","):
        card = state.game.territory_index.get(name)
        if card is None:
            raise _bad(text, f"{name!r} is not a Territory card")
        if card not in hand:
            raise IllegalMove(f"{text!r}: {name} is not in your hand")
        mask |= 1 << hand.index(card)
    return mask


#: The step each kind of move belongs to (an index of ``actions.PHASE_NAMES``).
_STEP_OF_KIND = {
    "score": 0,
    "mulligan": 1,
    "place": 2,
    "refill": 3,
    **{kind: 4 for kind in ("hit", "waste", "effect", "item", "end", "decline")},
}


def explain_illegal(state: AxiaState, action: int, text: str) -> str:
    """A precise reason why ``action`` (written ``text``) is not legal in ``state``."""
    head = f"move {text!r} is not legal"
    if state.chance:
        first = _chance_text(state, state.legal_actions()[0])
        return f"{head}: a chance event comes next ({first} ...)"
    phase = PHASE_NAMES[state.phase]
    kind = _kind(action)
    step = _STEP_OF_KIND[kind]
    if step != state.phase:
        who = state.describe_player(state.cur)
        return (
            f"{head}: it belongs to another step (the {PHASE_NAMES[step]} step); "
            f"this is the {phase} step, {who} to move"
        )
    if state.phase != PHASE_TURN:
        return _explain_setup(state, action, head, kind)
    if state.stack:
        return _explain_waiting(state, action, head, kind)
    return _explain_turn(state, action, head, kind)


def _explain_setup(state: AxiaState, action: int, head: str, kind: str) -> str:
    """Why a move of the current set-up, place or refill step is not legal."""
    g = state.game
    p = state.cur
    if kind == "score":
        card, slot = divmod(action, 6)
        if card not in state.offers[p]:
            return f"{head}: that Scoring card is not among the cards offered to you"
        return f"{head}: slot {A.slot_name(slot)} already holds a Scoring card"
    if kind == "place":
        card, cell = divmod(action - A.PLACE, 9)
        if card not in state.hands[p]:
            return f"{head}: {g.cards.territory[card].id} is not in your hand"
        return f"{head}: cell {A.cell_name(cell)} already holds a card"
    if kind == "refill":
        return f"{head}: that face-up place is empty or the deck is exhausted"
    return f"{head}: not a legal choice of the explore-regions step"


def _explain_waiting(state: AxiaState, action: int, head: str, kind: str) -> str:
    """Why a move is not legal while an effect waits for its target."""
    name = state.task()
    what = name[0] if name else "pending"
    legal = ", ".join(str(m) for m in state.legal_moves()[:8])
    if kind == "effect":
        return f"{head}: not a legal target of the {what} effect (legal: {legal})"
    if kind == "item" and state.stack[-1][0] in BEAST_TASKS:
        return _explain_turn(state, action, head, kind)
    if kind == "decline":
        return f"{head}: the {what} effect comes from an item and cannot be declined"
    return f"{head}: first resolve the {what} effect (legal: {legal})"


def _explain_turn(state: AxiaState, action: int, head: str, kind: str) -> str:
    g = state.game
    p = state.cur
    if kind in ("hit", "waste"):
        if state.hit_done:
            return f"{head}: you already took a die this turn (play an item or 'end')"
        die = (action - A.DIE_HIT) // 36 if kind == "hit" else action - A.WASTE
        if die >= g.num_dice:
            return f"{head}: there is no such die"
        if state.used[die] >= 0:
            return f"{head}: die {g.die_name(die)} was already used this round"
        if kind == "waste":
            return (
                f"{head}: die {g.die_name(die)} can hit a beast, so you must hit with a usable die"
            )
        s = (action - A.DIE_HIT) % 36
        if state.spc[p][s] < 0:
            return f"{head}: there is no card on {A.space_name(s)}"
        if state.marks[p][s] == 2:
            return f"{head}: the beast on {A.space_name(s)} is already defeated"
        return f"{head}: the beast on {A.space_name(s)} is magical and needs a Magic die"
    if kind == "item":
        item = action - A.ITEM
        if state.item_done:
            return f"{head}: you already played an item this turn"
        if item not in state.items[p]:
            return f"{head}: that item is not in your hand"
        return f"{head}: that item has no legal use now"
    if kind == "end":
        return f"{head}: take a die and hit first"
    if kind == "decline":
        return f"{head}: no beast's effect is waiting to be declined"
    return f"{head}: no effect is waiting for a target"


def _kind(action: int) -> str:
    bounds = (
        (A.MULLIGAN, "score"),
        (A.PLACE, "mulligan"),
        (A.REFILL, "place"),
        (A.DIE_HIT, "refill"),
        (A.WASTE, "hit"),
        (A.TARGET, "waste"),
        (A.ITEM, "effect"),
        (A.CHANGE, "item"),
        (A.END, "effect"),
        (A.DECLINE, "end"),
    )
    for bound, name in bounds:
        if action < bound:
            return name
    return "decline"
