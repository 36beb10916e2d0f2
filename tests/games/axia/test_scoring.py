"""Scoring: each criterion kind, activation, beast scoring effects, Acolyte sets, items, ties."""

from __future__ import annotations

import pytest

from gameshelf.games.axia import format_score_sheet, score_sheet
from gameshelf.games.axia.actions import PHASE_OVER, parse_space
from gameshelf.games.axia.cards import Criterion
from gameshelf.games.axia.scoring import (
    acolyte_sets,
    criterion_count,
    slot_active,
    solo_rank,
)

from .conftest import _ANY, make_turn_state, put


def board():  # type: ignore[no-untyped-def]
    """Row 1 (spaces a1..f1) and a few more, with known regions and marks."""
    s = make_turn_state(1)
    put(s, "a1", beast="rakya", region="forest", magic=False, critical=_ANY, mark=2)
    put(s, "b1", beast="rakya", region="forest", magic=True, critical=_ANY, mark=1)
    put(s, "c1", beast="acolyte_1", magic=False, critical=_ANY, mark=2)
    put(s, "d1", beast="acolyte_2", magic=False, critical=_ANY, mark=0)
    put(s, "e1", beast="ariak", region="lake", magic=False, critical=_ANY, mark=2)
    put(s, "f1", beast="rut", region="desert", magic=True, critical=_ANY, mark=2)
    put(s, "a6", beast="ariak", region="forest", critical=_ANY, mark=2)  # outside rows 1-2
    return s


def count(s, crit: Criterion, slot: int = 0) -> int:  # type: ignore[no-untyped-def]
    return criterion_count(s.game.tables, crit, slot, s.card_spaces[0], s.marks[0])


def test_region_spaces_counts_placed_spaces_in_the_linked_lines() -> None:
    s = board()
    assert count(s, Criterion("region_spaces", 2, "lines", region="forest")) == 2
    assert count(s, Criterion("region_spaces", 2, "lines", region="temple")) == 2


def test_two_region_spaces_counts_the_whole_territory() -> None:
    s = board()
    crit = Criterion("two_region_spaces", 1, "territory", regions=("forest", "lake"))
    assert count(s, crit) == 4


def test_defeated_region_lines_or_territory() -> None:
    s = board()
    assert count(s, Criterion("defeated_region", 3, "lines", region="forest")) == 1
    assert count(s, Criterion("defeated_region", 1, "territory", region="forest")) == 2


def test_type_spaces_magical_acolyte_rakya() -> None:
    s = board()
    assert count(s, Criterion("type_spaces", 2, "lines", type="magical")) == 2
    assert count(s, Criterion("type_spaces", 2, "lines", type="acolyte")) == 2
    assert count(s, Criterion("type_spaces", 2, "lines", type="rakya")) == 2


def test_defeated_type() -> None:
    s = board()
    assert count(s, Criterion("defeated_type", 2, "lines", type="magical")) == 1
    assert count(s, Criterion("defeated_type", 2, "lines", type="acolyte")) == 1
    assert count(s, Criterion("defeated_type", 2, "territory", type="rakya")) == 1


def test_defeated_any_lines_vs_territory() -> None:
    s = board()
    assert count(s, Criterion("defeated_any", 1, "lines")) == 4
    assert count(s, Criterion("defeated_any", 1, "territory")) == 5


def test_majority_region() -> None:
    s = board()
    assert count(s, Criterion("majority_region", 1, "lines")) == 2  # forest 2 = temple 2
    assert count(s, Criterion("majority_region", 1, "territory")) == 3  # forest 3


def test_activation_needs_one_whole_line_wounded_or_defeated() -> None:
    s = board()
    assert not slot_active(0, s.card_spaces[0], s.marks[0])  # d1 unharmed
    s.marks[0][parse_space("d1")] = 1  # type: ignore[index]
    assert slot_active(0, s.card_spaces[0], s.marks[0])  # wounded is enough
    assert not slot_active(
        3, s.card_spaces[0], s.marks[0]
    )  # column slot C1 (columns a, b): not full


def test_inactive_card_scores_zero_and_active_card_scores_both_lines() -> None:
    s = board()
    for name in ("a2", "b2", "c2", "d2", "e2", "f2"):
        put(s, name, beast="rakya", region="desert", critical=_ANY)
    # find a scoring card whose row side counts forest spaces
    s.scoring_slots[0][0] = 0
    card = s.game.cards.scoring[0]
    sheet = s.score_sheet(0)["scoring_cards"][0]
    assert sheet["active"] is False and sheet["points"] == 0
    s.marks[0][parse_space("d1")] = 1  # type: ignore[index]
    sheet = s.score_sheet(0)["scoring_cards"][0]
    expected = card.row.points * count(s, card.row, 0)
    assert sheet["active"] is True and sheet["points"] == expected


def test_beast_scoring_effects() -> None:
    s = make_turn_state(1)
    put(s, "a1", beast="ariak", critical=_ANY, mark=2)
    put(s, "b1", beast="ariak", critical=_ANY, mark=1)  # wounded: nothing
    put(s, "c1", beast="king_lake", critical=_ANY, mark=2)
    put(s, "d1", beast="rakya", magic=True, critical=_ANY, mark=2)
    put(s, "e1", beast="ryde", critical=_ANY, mark=2)
    put(s, "f1", beast="corvo", critical=_ANY, mark=2)
    put(s, "a2", beast="temple_guardian", critical=_ANY, mark=2)
    put(s, "b2", beast="acolyte_master", critical=_ANY, mark=2)
    put(s, "c2", beast="acolyte_3", critical=_ANY, mark=0)
    beasts = s.score_sheet(0)["beasts"]
    t = s.game.tables
    defeated = [
        s.card_spaces[0][i] for i in range(36) if s.card_spaces[0][i] >= 0 and s.marks[0][i] == 2
    ]
    lake = sum(1 for g in defeated if t.region[g] == 3)
    magical = sum(1 for g in defeated if t.magic[g])
    assert magical >= 1
    assert beasts["ariak"] == 3
    assert beasts["king_lake"] == lake
    assert beasts["ryde"] == 2
    assert beasts["corvo"] == magical
    temple = sum(1 for g in defeated if t.region[g] == 4)
    assert temple >= 2  # the guardian and the master at least
    assert beasts["temple_guardian"] == 2 * temple
    assert beasts["acolyte_master"] == 2  # master + acolyte III, whatever their state


@pytest.mark.parametrize(
    ("counts", "sizes", "points"),
    [
        ([1, 0, 0, 0, 0, 0], [1], 3),
        ([1, 1, 0, 0, 0, 0], [2], 7),
        ([1, 1, 1, 0, 0, 0], [3], 13),
        ([1, 1, 1, 1, 0, 0], [4], 23),
        ([1, 1, 1, 1, 1, 0], [5], 35),
        ([1, 1, 1, 1, 1, 1], [6], 50),
        ([2, 1, 1, 0, 0, 0], [3, 1], 16),
        ([3, 3, 0, 0, 0, 1], [3, 2, 2], 27),
    ],
)
def test_acolyte_sets(counts: list[int], sizes: list[int], points: int) -> None:
    from gameshelf.games.axia.scoring import ACOLYTE_SET_POINTS

    assert acolyte_sets(counts) == sizes
    assert sum(ACOLYTE_SET_POINTS[k] for k in sizes) == points


def test_acolyte_sets_in_a_territory_and_items_kept() -> None:
    s = make_turn_state(1)
    for space, beast in (("a1", "acolyte_1"), ("b1", "acolyte_2"), ("c1", "acolyte_2")):
        put(s, space, beast=beast, critical=_ANY, mark=2)
    s.items[0] = [0, 1]
    sheet = s.score_sheet(0)
    assert sheet["acolyte_sets"] == [2, 1] and sheet["acolytes"] == 10
    assert sheet["items"] == s.game.cards.items[0].vp + s.game.cards.items[1].vp
    assert sheet["total"] == 10 + sheet["items"]


def _finished(p0: list[tuple[str, str]], p1: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    s = make_turn_state(2)
    for player, beasts in ((0, p0), (1, p1)):
        for space, beast in beasts:
            put(s, space, beast=beast, critical=_ANY, mark=2, player=player)
    s.phase = PHASE_OVER
    return s


def test_tie_breaker_most_defeated_beasts() -> None:
    s = _finished([("a1", "ariak"), ("a2", "zorak")], [("a1", "ariak")])
    assert s.returns() == [1.0, 0.0] and s.winners() == [0]


def test_tie_breaker_most_defeated_rakya() -> None:
    s = _finished([("a1", "ariak"), ("a2", "zorak")], [("a1", "ariak"), ("a2", "rakya")])
    assert s.returns() == [0.0, 1.0]


def test_shared_victory_when_everything_ties() -> None:
    s = _finished([("a1", "ariak"), ("a2", "rakya")], [("a1", "ariak"), ("b2", "rakya")])
    totals = [s.score_sheet(p)["total"] for p in range(2)]
    assert s.returns() == [1.0, 1.0] and totals[0] == totals[1]
    assert s.winners() == [0, 1]
    names = f"{s.describe_player(0)} and {s.describe_player(1)}"
    assert s.result_text() == f"{names} share the victory (scores {totals[0]}, {totals[1]})"


def test_higher_score_wins_before_tie_breakers() -> None:
    s = _finished([("a1", "ariak")], [("a1", "rakya"), ("a2", "rakya"), ("a3", "zorak")])
    assert s.returns() == [1.0, 0.0]


@pytest.mark.parametrize(
    ("score", "rank"),
    [
        (0, "Apprentice"),
        (80, "Apprentice"),
        (81, "Novice"),
        (110, "Novice"),
        (111, "Slayer"),
        (150, "Slayer"),
        (151, "Elite"),
        (200, "Elite"),
        (201, "Legend"),
        (400, "Legend"),
    ],
)
def test_solo_ranks_at_their_boundaries(score: int, rank: str) -> None:
    assert solo_rank(score) == rank


def test_solo_returns_score_and_rank_in_score_sheet() -> None:
    s = make_turn_state(1)
    put(s, "a1", beast="ariak", critical=_ANY, mark=2)
    s.phase = PHASE_OVER
    assert s.returns() == [3.0] and s.solo_rank() == "Apprentice"
    data = score_sheet(s)
    assert data["players"][0]["rank"] == "Apprentice" and data["final"]
    table = format_score_sheet(s)
    assert "TOTAL" in table and "rank" in table and "Apprentice" in table


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_totals_agree_with_the_itemised_sheet_all_game_long(players: int) -> None:
    import random

    from gameshelf.core.registry import load

    rng = random.Random(players)
    checked = 0
    for _ in range(6):
        state = load(f"axia(players={players})").new_initial_state()
        while not state.is_terminal():
            state.apply_action(
                state.sample_chance(rng)
                if state.is_chance_node()
                else rng.choice(state.legal_actions())
            )
            if rng.random() < 0.1 or state.is_terminal():
                for p in range(players):
                    sheet = state.score_sheet(p)
                    want = (sheet["total"], sheet["defeated"], sheet["defeated_rakya"])
                    assert state.ranking_key(p) == want
                    checked += 1
        if players == 1:
            assert state.returns() == [float(state.score_sheet(0)["total"])]
    assert checked >= 6 * players * 5  # a few checks per seat and game, the final one included
