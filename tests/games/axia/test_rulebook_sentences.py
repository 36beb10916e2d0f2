"""The rulebook's remaining sentences, each test built from its words.

Every test quotes the rulebook (``shared/seeds/axia-slayer-combo-rulebook.txt``) or the rules
page (``shared/rules/axia.md``) that decides it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from gameshelf.core import load
from gameshelf.core.errors import IllegalMove, InvalidData
from gameshelf.games.axia.actions import PHASE_OVER, PHASE_PLACE, PHASE_REFILL, PHASE_TURN
from gameshelf.games.axia.cards import DEFAULT_PATH, load_cards, parse_cards
from gameshelf.games.axia.rules import AxiaState

from .conftest import _ANY, make_turn_state, put
from .test_effects import give, legal, marks, trigger


def _finished(p0: list[tuple[str, str]], p1: list[tuple[str, str]], p2: Any = None) -> AxiaState:
    """A finished game whose territories hold the given defeated beasts."""
    players = 2 if p2 is None else 3
    s = make_turn_state(players)
    for player, beasts in enumerate([p0, p1] + ([] if p2 is None else [p2])):
        for space, beast in beasts:
            put(s, space, beast=beast, critical=_ANY, mark=2, player=player)
    s.phase = PHASE_OVER
    return s


# --- 1. "If there is still a tie, the Slayers share the victory." -------------------------
def test_a_complete_tie_is_a_shared_victory_not_a_draw() -> None:
    s = _finished([("a1", "ariak"), ("a2", "rakya")], [("a1", "ariak"), ("b2", "rakya")])
    totals = [s.score_sheet(p)["total"] for p in range(2)]
    assert s.returns() == [1.0, 1.0]
    assert s.winners() == [0, 1]
    names = f"{s.describe_player(0)} and {s.describe_player(1)}"
    assert s.result_text() == f"{names} share the victory (scores {totals[0]}, {totals[1]})"
    assert "draw" not in s.result_text()


def test_only_the_tied_slayers_share_the_victory() -> None:
    tied = [("a1", "ariak"), ("a2", "rakya")]
    s = _finished(tied, [("a1", "ariak")], [("a1", "ariak"), ("c3", "rakya")])
    assert s.winners() == [0, 2] and s.returns() == [1.0, 0.0, 1.0]
    assert s.result_text().startswith(
        f"{s.describe_player(0)} and {s.describe_player(2)} share the victory"
    )


# --- 2. "record them on the score sheet": at the end every score sheet is public -----------
def test_after_the_game_every_view_shows_every_final_score() -> None:
    s = _finished([("a1", "rakya")], [("a1", "rakya")])
    s.items[1] = [0]  # player 2 keeps an item: its VP count at the end
    vp = s.game.cards.items[0].vp
    assert vp > 0
    totals = [s.score_sheet(p)["total"] for p in range(2)]
    assert totals[1] == totals[0] + vp
    for viewer in (0, 1, None):
        view = s.view(viewer)
        assert [p["score"] for p in view["players"]] == totals
        assert [sheet["total"] for sheet in view["score_sheets"]] == totals
        assert view["winners"] == [1]
    json.dumps(s.view(0))


def test_before_the_end_kept_items_stay_private() -> None:
    s = make_turn_state(2)
    s.items[1] = [0]
    vp = s.game.cards.items[0].vp
    assert s.view(0)["players"][1]["score"] == s.score_sheet(1)["total"] - vp
    assert s.view(1)["players"][1]["score"] == s.score_sheet(1)["total"]
    assert "score_sheets" not in s.view(0)


# --- 3. "Each round follows these 4 steps in order": other steps' moves are refused ---------
@pytest.mark.parametrize("move", ["take 1", "deck", "T26@A1", "redraw none", "redraw T03"])
def test_moves_of_another_step_are_refused_during_the_hit_step(move: str) -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    put(s, "a2", beast="rakya", magic=False)
    assert s.grid[0][0] < 0  # A1 is empty: the cell is not the reason
    before = s.position()
    with pytest.raises(IllegalMove) as info:
        s.play(move)
    text = str(info.value)
    assert "belongs to another step" in text and "this is the hit step" in text
    assert s.position() == before


def test_a_hit_during_the_refill_step_belongs_to_another_step() -> None:
    rng = random.Random(14)
    state = load("axia(players=2)").new_initial_state()
    assert isinstance(state, AxiaState)
    while not (state.phase == PHASE_REFILL and not state.chance_queue):
        step = state.sample_chance(rng) if state.is_chance_node() else None
        state.apply_action(step if step is not None else rng.choice(state.legal_actions()))
    before = state.position()
    with pytest.raises(IllegalMove, match="belongs to another step \\(the hit step\\)"):
        state.play("P1>a1")
    assert state.position() == before


# --- 4. Overview: "Hit a non-magical beast." is Rakya's effect (option rakya_effect) ------
def test_defeated_rakya_hits_a_non_magical_beast() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "a1", "rakya")
    put(s, "b1", beast="ariak", magic=False, critical=_ANY)
    put(s, "c1", beast="ariak", magic=True)
    s.play("P1>a1")
    assert s.task() == ("rakya", 0)
    assert legal(s) == {"hit b1", "decline"}
    s.play("hit b1")
    assert marks(s, "b1", "c1") == [1, 0]  # one hit (a wound), never critical


def test_rakya_effect_chains_through_a_wounded_rakya() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "a1", "rakya")
    put(s, "b1", beast="rakya", magic=False, mark=1)
    put(s, "c1", beast="ariak", magic=False)
    s.play("P1>a1")
    s.play("hit b1")  # wounded: the hit defeats it, and its effect follows
    assert marks(s, "b1") == [2] and s.task() == ("rakya", 0)
    s.play("hit c1")
    assert marks(s, "c1") == [1]


def test_rakya_effect_none_option_gives_rakya_no_effect() -> None:
    s = make_turn_state(1, dice=(3, 1, 1), options="rakya_effect=none")
    trigger(s, "a1", "rakya")
    put(s, "b1", beast="ariak", magic=False)
    s.play("P1>a1")
    assert s.task() is None and s.current_seat == 0 and not s.die_taken  # straight to the next turn
    assert load("axia(rakya_effect=none)").game_string == "axia(rakya_effect=none)"
    with pytest.raises(Exception, match="rakya_effect"):
        load("axia(rakya_effect=heal)")


# --- 5. "Hit two diagonally adjacent beasts" + Magical "can only be wounded by magic hits" ---
def test_diagonal_item_cannot_hit_magical_beasts() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "hit_diagonal")
    put(s, "b2", beast="rakya", magic=True)
    put(s, "c3", beast="rakya", magic=False)
    put(s, "d2", beast="rakya", magic=False)
    s.play(play)
    assert legal(s) == {"hit d2+c3"}
    before = s.position()
    with pytest.raises(IllegalMove, match="not a legal target"):
        s.play("hit b2+c3")
    assert s.position() == before


def test_diagonal_item_with_only_magical_pairs_cannot_be_played() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "hit_diagonal")
    put(s, "b2", beast="rakya", magic=True)
    put(s, "c3", beast="rakya", magic=False)
    assert play not in legal(s)
    with pytest.raises(IllegalMove, match="no legal use"):
        s.play(play)


# --- 6. "you may hit two beasts" / "you may defeat one of the magical beasts" --------------
def test_cadra_effect_may_be_declined() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "c3", "cadra")
    put(s, "f3", beast="rakya", magic=True)
    s.play("P1>c3")
    assert legal(s) == {"defeat f3", "decline"}
    s.play("decline")
    assert marks(s, "f3") == [0] and s.task() is None
    assert s.current_seat == 0 and not s.die_taken  # the (solo) second turn begins


def test_foga_may_stop_after_its_first_hit() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    trigger(s, "b2", "foga")
    put(s, "a2", beast="rakya", magic=False)
    put(s, "c2", beast="rakya", magic=False)
    s.play("P1>b2")
    assert {"hit a2", "hit c2", "hit a2+c2", "decline"} == legal(s)
    s.play("hit c2")
    assert marks(s, "a2", "c2") == [0, 1] and s.task() is None


@pytest.mark.parametrize(
    "beast", ["sentinel_forest", "temple_sentinel", "torcha", "zorak", "foga", "rakya"]
)
def test_every_immediate_beast_effect_may_be_declined(beast: str) -> None:
    s = make_turn_state(1, dice=(3, 2, 2))
    trigger(s, "a1", beast)
    for space, region in (("a2", "forest"), ("b1", "temple"), ("c3", "lake")):
        beast_here = "acolyte_1" if region == "temple" else "ariak"
        put(s, space, beast=beast_here, region=region, magic=False)
    put(s, "f6", beast="ariak", magic=True)
    s.play("P1>a1")
    assert s.task() is not None and "decline" in legal(s)
    before = [list(m) for m in s.marks]
    s.play("decline")
    assert s.marks == before and s.task() is None


def test_an_item_effect_cannot_be_declined() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    play = give(s, "defeat_nonmagical")
    put(s, "a1", beast="ariak", magic=False)
    s.play(play)
    assert "decline" not in legal(s)
    with pytest.raises(IllegalMove, match="comes from an item and cannot be declined"):
        s.play("decline")


def test_decline_with_nothing_waiting_is_refused() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    put(s, "a1", beast="ariak", magic=False)
    with pytest.raises(IllegalMove, match="no beast's effect is waiting"):
        s.play("decline")


# --- 7. "Before, during, or after step 4 ... You can only play one item per turn." ---------
def test_an_item_may_be_played_while_an_effect_waits_for_its_target() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    first = give(s, "defeat_nonmagical")
    second = give(s, "change_die")
    trigger(s, "a1", "torcha")
    put(s, "b1", beast="ariak", magic=False)
    put(s, "f6", beast="ariak", magic=True)
    s.play("P1>a1")
    assert {first, second, "hit f6", "decline"} <= legal(s)
    s.play(first)
    assert s.task() is not None and s.task()[0].startswith("item")  # type: ignore[index]
    s.play("defeat b1")
    assert s.task() == ("torcha", 0)  # the effect still waits for its target
    assert second not in legal(s)
    with pytest.raises(IllegalMove, match="already played an item this turn"):
        s.play(second)
    s.play("hit f6")
    assert marks(s, "b1", "f6") == [2, 1]


def test_change_die_while_zorak_waits_changes_what_zorak_copies() -> None:
    s = make_turn_state(1, dice=(3, 1, 1))
    play = give(s, "change_die")
    trigger(s, "a1", "zorak")
    g = put(s, "b1", beast="ariak", magic=False, critical="miss")
    crit = s.game.tables.critical[g]
    s.play("P1>a1")
    s.play(play)
    s.play(f"P2={crit}")
    assert s.task() == ("zorak", 0)
    s.play("zorak P2>b1")
    assert marks(s, "b1") == [2]  # the copied die now matches the printed number


# --- 8. "Play the 8 rounds following the same four steps" ---------------------------------
@pytest.mark.parametrize("players", [1, 2])
def test_round_8_has_its_refill_step(players: int) -> None:
    rng = random.Random(22)
    state = load(f"axia(players={players})").new_initial_state()
    assert isinstance(state, AxiaState)
    seen: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        if state.phase == PHASE_REFILL and state.round not in seen:
            seen.append(state.round)
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen == list(range(1, 9))
    assert [len(hand) for hand in state.hands] == [3] * players  # not placed, never scored


def test_round_8_refill_comes_between_place_and_hit() -> None:
    rng = random.Random(5)
    state = load("axia(players=2)").new_initial_state()
    assert isinstance(state, AxiaState)
    while not (state.round == 8 and state.phase == PHASE_PLACE and not state.chance_queue):
        action = state.sample_chance(rng) if state.is_chance_node() else None
        state.apply_action(action if action is not None else rng.choice(state.legal_actions()))
    for _ in range(2):
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.phase == PHASE_REFILL and not state.chance_queue
    while state.phase == PHASE_REFILL:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    assert state.phase == PHASE_TURN and state.round == 8


# --- 9. "If there is no number in the die icon, any hit is critical" stays the exception ---
def test_at_most_a_third_of_the_shipped_spaces_print_no_critical_number() -> None:
    spaces = [space for card in load_cards().territory for space in card.spaces]
    criticals = Counter(space.critical for space in spaces)
    assert len(spaces) == 240 and criticals[None] <= 80
    assert all(criticals[n] > 0 for n in range(1, 7))


def test_a_card_file_with_too_many_no_number_spaces_is_refused() -> None:
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    spaces = [space for card in data["territory"] for space in card["spaces"]]
    for space in spaces[:81]:
        space["critical"] = None
    for value, space in zip(range(1, 7), spaces[81:87], strict=True):
        space["critical"] = value
    with pytest.raises(InvalidData, match=r"critical\.share: \d+ of 240 spaces"):
        parse_cards(data, "too-many-blanks")
