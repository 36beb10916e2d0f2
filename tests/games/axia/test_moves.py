"""Tagged moves (each id decoded once) and the refusal reasons written with each item and effect."""

from __future__ import annotations

import pytest

from gameshelf.core.errors import IllegalMove
from gameshelf.games.axia.actions import (
    CHANGE,
    DECISIONS,
    DECK,
    DIE_HIT,
    NUM_ACTIONS,
    PAIR,
    PLACE,
    ChangeDie,
    DrawFromDeck,
    Hit,
    HitPair,
    Place,
    decode,
)
from gameshelf.games.axia.effects import EFFECT_NAMES, EFFECT_RULES, OPTIONAL_EFFECTS

from .conftest import QUIET, make_turn_state, put
from .test_effects import give, trigger


def test_each_id_decodes_once_to_the_tagged_move_of_its_kind() -> None:
    hit = decode(DIE_HIT + 2 * 36 + 5)
    assert isinstance(hit, Hit) and (hit.die, hit.space) == (2, 5)
    place = decode(PLACE + 7 * 9 + 4)
    assert isinstance(place, Place) and (place.card, place.cell) == (7, 4)
    change = decode(CHANGE + 1 * 6 + 0)
    assert isinstance(change, ChangeDie) and (change.die, change.value) == (1, 1)
    pair = decode(PAIR + 3 * 36 + 9)
    assert isinstance(pair, HitPair) and (pair.first, pair.second) == (3, 9)
    assert isinstance(decode(DECK), DrawFromDeck)
    assert decode(DIE_HIT) is decode(DIE_HIT) is DECISIONS[DIE_HIT]  # one table, no rebuilding
    assert len(DECISIONS) == NUM_ACTIONS


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS])
def test_an_id_outside_the_layout_is_refused_by_name(action: int) -> None:
    with pytest.raises(IndexError, match=f"action id {action}"):
        decode(action)


def test_every_effect_is_written_once_with_what_its_target_must_be() -> None:
    assert len(EFFECT_NAMES) == len(EFFECT_RULES) == 12
    assert all(rule.target for rule in EFFECT_RULES)
    assert {EFFECT_NAMES[code] for code in OPTIONAL_EFFECTS} == {
        "sentinel", "zorak", "foga", "cadra", "temple sentinel", "torcha", "rakya",
    }  # fmt: skip


def test_an_item_without_a_use_is_refused_with_its_reason() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "hit_diagonal")
    put(s, "b2", beast=QUIET, magic=False)
    put(s, "d4", beast=QUIET, magic=False)  # not diagonally adjacent to b2
    assert play not in {str(m) for m in s.legal_moves()}
    with pytest.raises(IllegalMove, match="no two live non-magical beasts are diagonally"):
        s.play(play)
    assert s.items[0] and not s.item_played  # the refusal changed nothing


def test_the_physical_as_magic_item_after_the_die_is_refused_with_its_reason() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "physical_as_magic")
    give(s, "defeat_nonmagical")
    put(s, "a1", beast=QUIET, magic=False, critical="miss")
    put(s, "a2", beast=QUIET, magic=False)
    s.play("P1>a1")
    with pytest.raises(IllegalMove, match="already took this turn's die"):
        s.play(play)


def test_a_wrong_target_names_what_the_effect_takes() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    trigger(s, "c3", "foga")
    put(s, "c4", beast=QUIET, magic=False)
    put(s, "f6", beast=QUIET, magic=False)
    s.play("P1>c3")
    assert s.task() == ("foga", 14)
    with pytest.raises(IllegalMove, match="orthogonally next to Foga"):
        s.play("hit f6")
