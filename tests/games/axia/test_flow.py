"""Setup, round flow, snake order, refill rule, placement reveal, records and bad input."""

from __future__ import annotations

import random

import pytest

from gameshelf.core import load
from gameshelf.core.errors import IllegalMove, InvalidMove, NotYourTurn
from gameshelf.core.game import CHANCE
from gameshelf.core.record import record_from_state, replay
from gameshelf.games.axia.actions import (
    DIE_HIT,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_SCORE_PICK,
    PHASE_TURN,
    TARGET,
    cell_name,
)
from gameshelf.games.axia.rules import AxiaState


def new(game_string: str) -> AxiaState:
    state = load(game_string).new_initial_state()
    assert isinstance(state, AxiaState)
    return state


def step(state: AxiaState, rng: random.Random) -> int:
    if state.is_chance_node():
        action = state.sample_chance(rng)
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def until(state: AxiaState, rng: random.Random, done) -> None:  # type: ignore[no-untyped-def]
    while not done(state):
        assert not state.is_terminal()
        step(state, rng)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_dice_pool_by_player_count(players: int) -> None:
    game = load(f"axia(players={players})")
    physical = 2 if players == 1 else players + 1
    magic = 1 if players == 1 else players
    names = [game.die_name(d) for d in range(game.num_dice)]  # type: ignore[attr-defined]
    assert names == [f"P{i + 1}" for i in range(physical)] + [f"M{i + 1}" for i in range(magic)]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_snake_order_and_starting_slayer_rotation(players: int) -> None:
    rng = random.Random(players)
    state = new(f"axia(players={players})")
    takers: dict[int, list[int]] = {}
    while not state.is_terminal():
        mover = state.current_player()
        rnd = state.round
        action = step(state, rng)
        if mover != CHANCE and DIE_HIT <= action < TARGET:
            takers.setdefault(rnd, []).append(mover)
    assert sorted(takers) == list(range(1, 9))
    for rnd, order in takers.items():
        start = (rnd - 1) % players
        first = [(start + i) % players for i in range(players)]
        expected = [0, 0] if players == 1 else first + first[::-1]
        assert order == expected, (rnd, order)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_full_game_fills_every_grid_and_ends_after_round_8(players: int) -> None:
    rng = random.Random(10 + players)
    state = new(f"axia(players={players})")
    until(state, rng, lambda s: s.is_terminal())
    assert state.round == 8
    for p in range(players):
        assert all(card >= 0 for card in state.grid[p])
        assert all(card >= 0 for card in state.scoring_slots[p])
        assert len(state.hands[p]) == 3  # round 8 refilled too; hands never score


def test_standard_scoring_setup_two_batches_of_three_from_four() -> None:
    rng = random.Random(3)
    state = new("axia(players=2)")
    assert state.current_player() == CHANCE
    until(state, rng, lambda s: not s.chance_queue)
    assert state.phase == PHASE_SCORE_PICK and [len(o) for o in state.scoring_offers] == [4, 4]
    for _ in range(3):
        step(state, rng)
    assert state.current_seat == 1 and len(state.scoring_offers[0]) == 1
    assert sum(c >= 0 for c in state.scoring_slots[0]) == 3
    until(state, rng, lambda s: s.scoring_batch == 1 and not s.chance_queue)
    assert [len(o) for o in state.scoring_offers] == [4, 4] and len(state.scoring_deck) == 32 - 16
    until(state, rng, lambda s: s.phase != PHASE_SCORE_PICK)
    assert all(all(c >= 0 for c in slots) for slots in state.scoring_slots)


def test_slot_choice_sets_the_side() -> None:
    rng = random.Random(4)
    state = new("axia(players=2)")
    until(state, rng, lambda s: not s.chance_queue)
    card = state.game.cards.scoring[state.scoring_offers[0][0]]
    state.play(f"{card.id}>C2")
    assert state.scoring_slots[0][4] == state.scoring_offers[0][0] or state.scoring_slots[0][4] >= 0
    sheet = state.score_sheet(0)["scoring_cards"]
    assert sheet[0]["slot"] == "C2" and sheet[0]["criterion"] == card.column.describe()


def test_solo_scoring_setup_three_times_choose_two_of_three() -> None:
    rng = random.Random(5)
    state = new("axia(players=1)")
    for batch in range(3):
        until(state, rng, lambda s, b=batch: s.scoring_batch == b and not s.chance_queue)
        assert len(state.scoring_offers[0]) == 3
        step(state, rng)
        step(state, rng)
    assert all(c >= 0 for c in state.scoring_slots[0]) and len(state.scoring_deck) == 32 - 9


def test_prioritize_objectives_draft_passes_left() -> None:
    rng = random.Random(6)
    state = new("axia(players=3,prioritize_objectives=true)")
    until(state, rng, lambda s: not s.chance_queue)
    assert [len(o) for o in state.scoring_offers] == [7, 7, 7]
    before = [list(o) for o in state.scoring_offers]
    for _ in range(3):
        step(state, rng)
    after = state.scoring_offers
    for p in range(3):
        assert set(after[(p + 1) % 3]) < set(before[p]) and len(after[(p + 1) % 3]) == 6
    until(state, rng, lambda s: s.phase != PHASE_SCORE_PICK)
    assert all(all(c >= 0 for c in slots) for slots in state.scoring_slots)


def test_first_game_deals_scoring_cards_at_random() -> None:
    rng = random.Random(7)
    state = new("axia(players=2,first_game=true)")
    assert state.current_player() == CHANCE
    until(state, rng, lambda s: not s.chance_queue)
    assert state.phase == PHASE_PLACE and all(all(c >= 0 for c in sl) for sl in state.scoring_slots)
    assert len(state.hands[0]) == 4


def test_explore_regions_redraws_once() -> None:
    rng = random.Random(8)
    state = new("axia(players=2,explore_regions=true)")
    until(state, rng, lambda s: not s.chance_queue and s.phase != PHASE_SCORE_PICK)
    hand = list(state.hands[0])
    ids = [state.game.cards.territory[c].id for c in hand[:2]]
    state.play("redraw " + ",".join(ids))
    assert state.current_player() == CHANCE and len(state.hands[0]) == 2
    until(state, rng, lambda s: not s.chance_queue)
    assert len(state.hands[0]) == 4 and set(hand[:2]) <= set(state.territory_discard)
    state.play("redraw none")
    assert state.phase == PHASE_PLACE


def test_placement_is_hidden_until_everyone_has_chosen() -> None:
    rng = random.Random(9)
    state = new("axia(players=3)")
    until(state, rng, lambda s: s.phase == PHASE_PLACE and s.round == 1 and not s.chance_queue)
    first = state.current_seat
    step(state, rng)
    assert state.placements[first] >= 0
    for other in range(3):
        view = state.view(other)
        assert view["players"][first]["committed"] is True
        assert ("pending" in view["players"][first]) == (other == first)
    grid_before = [list(g) for g in state.grid]
    step(state, rng)
    assert state.grid == grid_before  # nothing revealed yet
    step(state, rng)
    assert all(p == -1 for p in state.placements)
    assert [sum(c >= 0 for c in g) for g in state.grid] == [2, 2, 2]


def _to_refill(players: int, seed: int) -> AxiaState:
    rng = random.Random(seed)
    state = new(f"axia(players={players})")
    until(state, rng, lambda s: s.phase == PHASE_REFILL and not s.chance_queue)
    return state


def test_refill_take_face_up_reveals_a_replacement() -> None:
    state = _to_refill(2, 11)
    assert state.current_seat == state.starting_seat
    card = state.face_up[1]
    state.play("take 2")
    assert card in state.hands[0 if state.starting_seat == 0 else 1] and state.face_up[1] == -1
    assert state.current_player() == CHANCE
    assert str(state.legal_moves()[0]).startswith("reveal ")
    state.apply_action(state.legal_actions()[0])
    assert state.face_up[1] >= 0
    state.play("deck")
    state.apply_action(state.legal_actions()[0])
    assert state.phase == PHASE_TURN and card not in state.face_up


def test_refill_nobody_takes_face_up_so_the_row_is_replaced() -> None:
    state = _to_refill(3, 12)
    row = list(state.face_up)
    for _ in range(3):
        state.play("deck")
        state.apply_action(state.legal_actions()[0])
    assert state.face_up == [-1, -1, -1] and set(row) <= set(state.territory_discard)
    for _ in range(3):
        assert str(state.legal_moves()[0]).startswith("reveal ")
        state.apply_action(state.legal_actions()[0])
    assert all(c >= 0 for c in state.face_up) and state.phase == PHASE_TURN


def test_solo_deck_draw_discards_both_face_up_cards() -> None:
    state = _to_refill(1, 13)
    row = list(state.face_up)
    assert len(row) == 2
    state.play("deck")
    assert set(row) <= set(state.territory_discard) and state.face_up == [-1, -1]
    solo = _to_refill(1, 13)
    kept = solo.face_up[1]
    solo.play("take 1")
    assert solo.face_up[1] == kept


def test_bad_input_gets_core_errors_and_leaves_state_unchanged() -> None:
    state = _to_refill(2, 14)
    before = state.position()
    with pytest.raises(InvalidMove, match="not AXIA notation"):
        state.play("fly away")
    with pytest.raises(IllegalMove, match="refill"):
        state.play("P1>a1")
    with pytest.raises(NotYourTurn):
        state.play("deck", player=1 - state.current_seat)
    state.play("take 1")
    with pytest.raises(IllegalMove, match="chance"):
        state.play("deck")
    state2 = _to_refill(2, 14)
    state2.play("take 1")
    assert state2.position() == state.position()
    assert before != state.position()


def test_place_errors_name_the_reason() -> None:
    rng = random.Random(15)
    state = new("axia(players=2)")
    until(state, rng, lambda s: s.phase == PHASE_PLACE and s.round == 2 and not s.chance_queue)
    p = state.current_seat
    occupied = next(c for c in range(9) if state.grid[p][c] >= 0)
    card = state.game.cards.territory[state.hands[p][0]].id
    before = state.position()
    with pytest.raises(IllegalMove, match="already holds a card"):
        state.play(f"{card}@{cell_name(occupied)}")
    foreign = next(c for c in range(60) if c not in state.hands[p])
    with pytest.raises(IllegalMove, match="not in your hand"):
        state.play(f"{state.game.cards.territory[foreign].id}@{cell_name(occupied)}")
    assert state.position() == before


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_record_replays_identically(players: int) -> None:
    rng = random.Random(100 + players)
    state = new(f"axia(players={players},explore_regions=true)")
    until(state, rng, lambda s: s.is_terminal())
    record = record_from_state(state, seed=1)
    states = replay(record)
    assert states[-1].position() == state.position()
    assert states[-1].returns() == state.returns()
    again = state.game.state_from_position(state.position())
    assert again.position() == state.position()
