"""Immediate effects: what each defeated beast (and each targeted item) lets the mover do.

An effect waits on the state's effect stack as ``(effect, param)`` (``param``: a region index,
or the space of the beast that caused it). Each effect is written once, in
:data:`EFFECT_RULES`: its name, what its target must be (the words a refusal quotes), whether
it defeats or hits, and whether the mover may decline it; :func:`effect_targets` picks the
targets by that rule. The codes are part of the position format: never renumber them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .actions import (
    CHANGE,
    PAIR,
    TARGET,
    ZORAK,
    ChangeDie,
    Decision,
    HitPair,
    Target,
    ZorakHit,
)
from .board import ORTHOGONAL, SPACES
from .cards import REGULAR_REGIONS, TEMPLE
from .hits import alive, defeat, diagonal_pairs, die_hit, die_targets, hit, hits_in_order

if TYPE_CHECKING:
    from .rules import AxiaState

EFFECT_SENTINEL: Final = 0
EFFECT_ZORAK: Final = 1
EFFECT_RUT: Final = 2
EFFECT_FOGA: Final = 3
EFFECT_CADRA: Final = 4
EFFECT_TEMPLE_SENTINEL: Final = 5
EFFECT_TORCHA: Final = 6
ITEM_DEFEAT_NONMAGICAL: Final = 7
ITEM_DEFEAT_REGION: Final = 8
ITEM_CHANGE_DIE: Final = 9
ITEM_HIT_DIAGONAL: Final = 10
EFFECT_RAKYA: Final = 11


@dataclass(frozen=True)
class EffectRule:
    """One effect as the rules page states it."""

    name: str
    target: str
    """What a target must be, as a refusal says it."""
    defeats: bool
    """The target is defeated outright (otherwise it is hit)."""
    optional: bool
    """A beast's effect: "you may ...", so it can be declined, and an item played meanwhile."""


EFFECT_RULES: tuple[EffectRule, ...] = (
    EffectRule("sentinel", "a live beast of the Sentinel's region", False, True),
    EffectRule("zorak", "a space an unused die could hit", False, True),
    EffectRule("rut", "nothing (Rut draws an Item card)", False, False),
    EffectRule("foga", "one or two live beasts orthogonally next to Foga", False, True),
    EffectRule("cadra", "a live magical beast in Cadra's row or column (not Cadra)", True, True),
    EffectRule("temple sentinel", "a live beast of the temple", True, True),
    EffectRule("torcha", "a live magical beast", False, True),
    EffectRule("item: defeat a non-magical beast", "a live non-magical beast", True, False),
    EffectRule(
        "item: defeat a beast in a region", "a live beast of the item's region", True, False
    ),
    EffectRule("item: change a die", "an unused die and a new value", False, False),
    EffectRule(
        "item: hit two diagonal beasts", "two diagonal live non-magical beasts", False, False
    ),
    EffectRule("rakya", "a live non-magical beast", False, True),
)
"""Every effect, indexed by its code."""

EFFECT_NAMES: tuple[str, ...] = tuple(rule.name for rule in EFFECT_RULES)
"""The name of each effect, as views and explanations print it."""
DEFEATING_EFFECTS: frozenset[int] = frozenset(
    code for code, rule in enumerate(EFFECT_RULES) if rule.defeats
)
OPTIONAL_EFFECTS: frozenset[int] = frozenset(
    code for code, rule in enumerate(EFFECT_RULES) if rule.optional
)

OWN_SPACE: Final = -1
"""A beast's effect parameter meaning "the space of the defeated beast"."""
BEAST_EFFECTS: dict[str, tuple[int, int]] = {
    **{f"sentinel_{r}": (EFFECT_SENTINEL, i) for i, r in enumerate(REGULAR_REGIONS)},
    "zorak": (EFFECT_ZORAK, 0),
    "rut": (EFFECT_RUT, 0),
    "foga": (EFFECT_FOGA, OWN_SPACE),
    "cadra": (EFFECT_CADRA, OWN_SPACE),
    "temple_sentinel": (EFFECT_TEMPLE_SENTINEL, 0),
    "torcha": (EFFECT_TORCHA, 0),
    "rakya": (EFFECT_RAKYA, 0),
}
"""The immediate effect ``(code, param)`` of each beast that has one."""


def effect_targets(state: AxiaState, effect: int, param: int) -> list[int]:
    """The spaces a single-target effect may take, ascending (empty: it fizzles)."""
    live = alive(state)
    tables, card_spaces = state.game.tables, state.card_spaces[state.current_seat]
    if effect in (EFFECT_SENTINEL, ITEM_DEFEAT_REGION):
        return [s for s in live if tables.region[card_spaces[s]] == param]
    if effect == EFFECT_TEMPLE_SENTINEL:
        return [s for s in live if tables.region[card_spaces[s]] == TEMPLE]
    if effect == EFFECT_TORCHA:
        return [s for s in live if tables.magic[card_spaces[s]]]
    if effect == EFFECT_CADRA:
        row, col = divmod(param, 6)
        return [
            s
            for s in live
            if tables.magic[card_spaces[s]] and (s // 6 == row or s % 6 == col) and s != param
        ]
    if effect in (ITEM_DEFEAT_NONMAGICAL, EFFECT_RAKYA):
        return [s for s in live if not tables.magic[card_spaces[s]]]
    if effect == EFFECT_FOGA:
        near = set(ORTHOGONAL[param])
        return [s for s in live if s in near]
    return []


def effect_actions(state: AxiaState, entry: tuple[int, int]) -> list[int]:
    """The moves that resolve the effect ``entry``, ascending ids (empty: it fizzles)."""
    effect, param = entry
    if effect == EFFECT_ZORAK:
        out: list[int] = []
        for die in range(state.game.num_dice):
            if state.dice_taken_by[die] < 0:
                out.extend(ZORAK + die * SPACES + s for s in die_targets(state, die))
        return out
    if effect == ITEM_CHANGE_DIE:
        return [
            CHANGE + die * 6 + face
            for die in range(state.game.num_dice)
            if state.dice_taken_by[die] < 0
            for face in range(6)
            if face + 1 != state.dice[die]
        ]
    if effect == ITEM_HIT_DIAGONAL:
        return [PAIR + a * SPACES + b for a, b in diagonal_pairs(state)]
    targets = effect_targets(state, effect, param)
    singles = [TARGET + s for s in targets]
    if effect != EFFECT_FOGA:
        return singles
    # Foga: two different beasts, or one ("stop after the first hit"); singles sort first
    return singles + [
        PAIR + a * SPACES + b for i, a in enumerate(targets) for b in targets[i + 1 :]
    ]


def resolve(state: AxiaState, move: Decision) -> None:
    """Resolve the effect on top of the stack with ``move``, one of its legal targets."""
    effect, _ = state.effect_stack.pop()
    if isinstance(move, Target):
        if effect in DEFEATING_EFFECTS:
            defeat(state, move.space)
        else:
            hit(state, move.space, False)
    elif isinstance(move, ZorakHit):
        die_hit(state, state.dice[move.die], move.space)
    elif isinstance(move, HitPair):
        hits_in_order(state, [move.first, move.second], defeats=False)
    elif isinstance(move, ChangeDie):
        state.dice[move.die] = move.value
