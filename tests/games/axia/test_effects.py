"""Scenario tests: hits, critical hits, die types, every beast effect and every item."""

from __future__ import annotations

import pytest

from gameshelf.core.errors import IllegalMove
from gameshelf.core.game import CHANCE

from .conftest import QUIET, make_turn_state, put


def marks(state, *spaces):  # type: ignore[no-untyped-def]
    from gameshelf.games.axia.actions import parse_space

    return [state.marks[0][parse_space(s)] for s in spaces]


def trigger(state, space: str, beast: str) -> None:  # type: ignore[no-untyped-def]
    """Put a non-magical ``beast`` on ``space`` and set die P1 so that it defeats it at once."""
    from .conftest import _ANY

    g = put(state, space, beast=beast, magic=False, critical=_ANY)
    state.dice[0] = state.game.tables.critical[g] or 1


def legal(state) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(m) for m in state.legal_moves()}


# --- hits and critical hits ---------------------------------------------------------------
def test_non_critical_hit_wounds_then_second_hit_defeats() -> None:
    s = make_turn_state(1, dice=(2, 2, 5))
    put(s, "a1", beast=QUIET, magic=False, critical=4)
    s.play("P1>a1")
    assert marks(s, "a1") == [1]
    s.play("end") if "end" in legal(s) else None
    assert s.current_seat == 0 and not s.die_taken  # solo: second consecutive turn
    s.play("P2>a1")
    assert marks(s, "a1") == [2]


def test_critical_number_defeats_at_once() -> None:
    s = make_turn_state(1, dice=(4, 1, 1))
    put(s, "b2", beast=QUIET, magic=False, critical=4)
    s.play("P1>b2")
    assert marks(s, "b2") == [2]


def test_no_printed_number_means_every_hit_is_critical() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    put(s, "b2", beast=QUIET, magic=False, critical=None)
    s.play("P1>b2")
    assert marks(s, "b2") == [2]


def test_magic_die_is_wild_and_magical_beast_refuses_physical() -> None:
    s = make_turn_state(1, dice=(1, 1, 6))
    put(s, "a1", beast=QUIET, magic=True)
    put(s, "a2", beast=QUIET, magic=False)
    moves = legal(s)
    assert "P1>a1" not in moves and "P2>a1" not in moves
    assert {"M1>a1", "M1>a2", "P1>a2"} <= moves
    before = s.position()
    with pytest.raises(IllegalMove, match="magical"):
        s.play("P1>a1")
    assert s.position() == before


def test_defeated_beast_cannot_be_targeted() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    put(s, "a1", beast=QUIET, magic=False, mark=2)
    put(s, "a2", beast=QUIET, magic=False)
    assert "P1>a1" not in legal(s)
    with pytest.raises(IllegalMove, match="already defeated"):
        s.play("P1>a1")


def test_waste_only_when_no_die_can_hit() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    put(s, "a1", beast=QUIET, magic=True)
    assert legal(s) == {"M1>a1"}
    s2 = make_turn_state(1, dice=(1, 1, 1), options="must_hit_if_possible=false")
    put(s2, "a1", beast=QUIET, magic=True)
    assert legal(s2) == {"M1>a1", "P1>-", "P2>-"}
    s3 = make_turn_state(1, dice=(1, 1, 1))
    put(s3, "a1", beast=QUIET, magic=True, mark=2)
    assert legal(s3) == {"P1>-", "P2>-", "M1>-"}
    s3.play("P1>-")
    assert s3.dice_taken_by[0] == 0 and s3.die_taken is False  # the turn ended: next turn begins


# --- beast effects --------------------------------------------------------------------------
def test_sentinel_hits_a_beast_of_its_region_even_magical() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "a1", "sentinel_lake")
    put(s, "c1", beast=QUIET, magic=True, region="lake")
    put(s, "d1", beast=QUIET, magic=False, region="forest")
    s.play("P1>a1")
    assert s.task() is not None and s.task()[0] == "sentinel"  # type: ignore[index]
    assert legal(s) == {"hit c1", "decline"}
    s.play("hit c1")
    assert marks(s, "c1") == [1]  # an effect hit is never critical


def test_temple_sentinel_defeats_a_temple_beast() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "a1", "temple_sentinel")
    put(s, "b1", beast="acolyte_2", magic=False)
    put(s, "c1", beast=QUIET, region="forest")
    s.play("P1>a1")
    assert legal(s) == {"defeat b1", "decline"}
    s.play("defeat b1")
    assert marks(s, "b1") == [2]


def test_torcha_hits_only_magical_beasts() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "a1", "torcha")
    put(s, "f6", beast=QUIET, magic=True)
    put(s, "a2", beast=QUIET, magic=False)
    s.play("P1>a1")
    assert legal(s) == {"hit f6", "decline"}
    with pytest.raises(IllegalMove, match="not a legal target of the torcha effect"):
        s.play("hit a2")
    with pytest.raises(IllegalMove, match="first resolve the torcha effect"):
        s.play("P2>a2")


def test_cadra_defeats_a_magical_beast_in_its_row_or_column() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "c3", "cadra")
    put(s, "f3", beast=QUIET, magic=True)  # same row
    put(s, "c6", beast="ariak", magic=True)  # same column
    put(s, "d4", beast=QUIET, magic=True)  # neither
    put(s, "a3", beast=QUIET, magic=False)  # same row, not magical
    s.play("P1>c3")
    assert legal(s) == {"defeat f3", "defeat c6", "decline"}
    s.play("defeat c6")
    assert marks(s, "c6") == [2]


def test_rut_draws_an_item_as_a_chance_event() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "a1", "rut")
    s.play("P1>a1")
    assert s.current_player() == CHANCE
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 24 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    s.play("draw I05")
    assert s.items[0] == [4] and len(s.item_deck) == 23


def test_zorak_copies_an_unused_die_but_not_a_used_one() -> None:
    s = make_turn_state(1, dice=(3, 6, 2))
    trigger(s, "a1", "zorak")
    put(s, "b1", beast=QUIET, magic=False, critical=6)
    put(s, "c1", beast=QUIET, magic=True)
    s.play("P1>a1")  # P1 is now used
    moves = legal(s)
    assert not any(m.startswith("zorak P1") for m in moves)
    with pytest.raises(IllegalMove):
        s.play("zorak P1>b1")
    # the copy follows die rules: a Physical copy cannot hit a magical beast
    assert "zorak P2>c1" not in moves and "zorak M1>c1" in moves
    s.play("zorak P2>b1")  # copy of a 6 on a beast with critical 6: defeated
    assert marks(s, "b1") == [2]
    assert s.dice_taken_by[1] == -1  # the copied die stays available


def test_foga_hits_two_adjacent_beasts_and_chains() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "b2", "foga")
    put(s, "b3", beast="foga", magic=False, mark=1)  # wounded Foga below
    put(s, "c2", beast=QUIET, magic=True)
    put(s, "a2", beast=QUIET, magic=False)
    put(s, "a4", beast=QUIET, magic=False)  # adjacent to b3's neighbour... not to b2
    put(s, "b4", beast="ariak", magic=False)  # adjacent to b3 only
    s.play("P1>b2")
    assert s.view(0)["effect"] == {"name": "foga", "space": "b2"}
    moves = legal(s)
    assert "hit c2+b3" in moves and "hit a2+b3" in moves and "hit a2+c2" in moves
    assert not any("b4" in m for m in moves)
    s.play("hit c2+b3")
    assert marks(s, "b3", "c2") == [2, 1]
    # the second Foga chains: its neighbours a3(empty), c3(empty), b2 (defeated), b4
    assert legal(s) == {"hit b4", "decline"}
    s.play("hit b4")
    assert marks(s, "b4") == [1]


def test_foga_with_no_target_fizzles() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "a1", "foga")
    put(s, "f6", beast=QUIET, magic=False)
    s.play("P1>a1")
    assert s.task() is None and s.current_seat == 0 and not s.die_taken  # fizzled; next (solo) turn


# --- items ----------------------------------------------------------------------------------
def give(state, effect: str, region: str | None = None) -> str:  # type: ignore[no-untyped-def]
    for i, item in enumerate(state.game.cards.items):
        if item.effect == effect and (region is None or item.region == region):
            state.items[0].append(i)
            return f"item {item.id}"
    raise LookupError(effect)


def test_item_defeat_nonmagical() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "defeat_nonmagical")
    put(s, "a1", beast=QUIET, magic=True)
    put(s, "a2", beast=QUIET, magic=False)
    s.play(play)
    assert legal(s) == {"defeat a2"}
    s.play("defeat a2")
    assert marks(s, "a2") == [2] and s.items[0] == []


def test_item_defeat_region_includes_magical_and_triggers_effects() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "defeat_region", "temple")
    g = put(s, "a1", beast="temple_sentinel")
    put(s, "a2", beast="acolyte_1")
    assert s.game.tables.region[g] == 4
    s.play(play)
    assert legal(s) == {"defeat a1", "defeat a2"}
    s.play("defeat a1")
    assert legal(s) == {"defeat a2", "decline"}  # the Temple Sentinel's effect follows
    s.play("defeat a2")
    assert marks(s, "a1", "a2") == [2, 2]


def test_item_physical_as_magic() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "physical_as_magic")
    put(s, "a1", beast=QUIET, magic=True, critical="miss")
    assert "P1>a1" not in legal(s)
    s.play(play)
    assert "P1>a1" in legal(s)
    s.play("P1>a1")
    assert marks(s, "a1") == [1]


def test_item_change_die_value() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "change_die")
    g = put(s, "a1", beast=QUIET, magic=False, critical="miss")
    crit = s.game.tables.critical[g]
    s.play(play)
    assert "P1=1" not in legal(s) and f"P1={crit}" in legal(s)
    s.play(f"P1={crit}")
    s.play("P1>a1")
    assert marks(s, "a1") == [2]


def test_item_hit_two_diagonal_beasts() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "hit_diagonal")
    put(s, "b2", beast=QUIET, magic=False)
    put(s, "c3", beast=QUIET, magic=False)
    put(s, "c2", beast=QUIET, magic=False)
    s.play(play)
    assert legal(s) == {"hit b2+c3"}
    s.play("hit b2+c3")
    assert marks(s, "b2", "c3") == [1, 1]


def test_only_one_item_per_turn_before_or_after_the_hit() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    first = give(s, "defeat_nonmagical")
    second = give(s, "change_die")
    put(s, "a1", beast=QUIET, magic=False)
    put(s, "a2", beast=QUIET, magic=False)
    s.play(first)
    s.play("defeat a1")
    assert second not in legal(s)
    with pytest.raises(IllegalMove, match="already played an item"):
        s.play(second)
    s.play("P1>a2")  # turn over (no item playable): next turn allows an item again
    assert second in legal(s)


def test_item_after_the_hit_then_end() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "defeat_nonmagical")
    put(s, "a1", beast=QUIET, magic=False)
    put(s, "a2", beast=QUIET, magic=False)
    s.play("P1>a1")
    assert legal(s) == {play, "end"}
    s.play(play)
    s.play("defeat a2")
    assert s.turn == 1 and not s.die_taken
