"""Position strings: every field is checked on reading, so a position that loads plays on."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gameshelf.core import load
from gameshelf.core.errors import InvalidPosition
from gameshelf.games.axia.actions import PHASE_TURN
from gameshelf.games.axia.rules import AxiaState


def _play_until(game_string: str, seed: int, done: Any) -> AxiaState:
    state = load(game_string).new_initial_state()
    assert isinstance(state, AxiaState)
    rng = random.Random(seed)
    while not done(state):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _hit_step() -> AxiaState:
    """A 2-player state in the hit step, player to move, with an item in some hand."""
    return _play_until(
        "axia",
        3,
        lambda s: (
            s.phase == PHASE_TURN and not s.chance_queue and s.round >= 3 and s.current_seat >= 0
        ),
    )


def _with(state: AxiaState, **changes: Any) -> str:
    data = json.loads(state.position())
    data.update(changes)
    return json.dumps(data)


def test_positions_of_whole_games_read_back() -> None:
    for game_string in ("axia(players=1)", "axia(players=3,explore_regions=true)"):
        state = _play_until(game_string, 1, lambda s: s.is_terminal())
        text = state.position()
        assert state.game.state_from_position(text).position() == text


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("cur", 7, "cur 7 is outside 0..1"),
        ("start", 2, "start 2 is outside 0..1"),
        ("start", 1e300, "start must be an integer"),
        ("phase", True, "phase must be an integer"),
        ("turn", 99, "turn 99 is outside"),
        ("hit_done", "no", "hit_done must be true or false"),
        ("boost", True, "boost is true but item_done is false"),
        ("dice", [7, 1, 1, 1, 1], "dice[0] 7 is outside 0..6"),
        ("dice", [1, 1], "dice must have 5 entries, not 2"),
        ("used", [5, -1, -1, -1, -1], "used[0] 5 is outside -1..1"),
        ("faceup", [-1], "faceup must have 3 entries"),
        ("faceup", [-1, -1, 600], "faceup[2] 600 is outside -1..59"),
        ("hands", [[70], []], "hands[0][0] 70 is outside 0..59"),
        ("hands", [[]], "hands must hold one list per player (2)"),
        ("marks", [[3] * 36, [0] * 36], "marks[0][0] 3 is outside 0..2"),
        ("slots", [[40] * 6, [-1] * 6], "slots[0][0] 40 is outside -1..31"),
        ("items", [[99], []], "items[0][0] 99 is outside 0..23"),
        ("pending", [540, -1], "pending[0] 540 is outside -1..539"),
        ("chance", [[9, 0, 0]], "chance[0] kind 9 is outside 0..5"),
        ("chance", [[5, 0, 9]], "chance[0] slot 9 is outside 0..4"),
        ("chance", [[5, 3, 0]], "chance[0] player 3 is outside 0..1"),
        ("chance", [5], "chance must be a list of 3-entry lists"),
        ("stack", [[40, 0]], "stack[0] task 40 is outside 0..11"),
        ("stack", [[3, 99]], "stack[0] parameter 99 is outside 0..35"),
        ("hist", [-4], "hist[0] -4 is outside"),
    ],
)
def test_out_of_range_fields_are_refused_by_name(field: str, value: Any, reason: str) -> None:
    state = _hit_step()
    with pytest.raises(InvalidPosition) as info:
        state.game.state_from_position(_with(state, **{field: value}))
    assert reason in str(info.value)


def test_a_card_in_two_places_or_in_none_is_refused() -> None:
    state = _hit_step()
    card = state.grid[0][state.grid[0].index(max(state.grid[0]))]
    with pytest.raises(InvalidPosition, match=f"Territory card #{card} is both in the grids"):
        state.game.state_from_position(_with(state, tdeck=[*state.territory_deck, card]))
    with pytest.raises(InvalidPosition, match=r"Territory card #\d+ is nowhere"):
        state.game.state_from_position(_with(state, tdeck=state.territory_deck[1:]))
    assert state.item_deck
    twice = [list(row) for row in state.items]
    twice[0].append(state.item_deck[0])
    with pytest.raises(InvalidPosition, match=r"Item card #\d+ is both in the item hands"):
        state.game.state_from_position(_with(state, items=twice))


def test_marks_only_on_cards_and_a_game_in_play_must_offer_a_move() -> None:
    state = _hit_step()
    marks = [list(row) for row in state.marks]
    empty = [s for s in range(36) if state.card_spaces[0][s] < 0]
    assert empty
    marks[0][empty[0]] = 1
    with pytest.raises(InvalidPosition, match="mark on an empty space"):
        state.game.state_from_position(_with(state, marks=marks))
    drawn = json.loads(state.position())
    drawn["chance"] = [[4, 0, 0]]  # an item draw from ...
    drawn["items"] = [[*row] for row in state.items]
    drawn["items"][1] += drawn["ideck"]  # ... an empty item deck
    drawn["ideck"] = []
    with pytest.raises(InvalidPosition, match="nobody can move"):
        state.game.state_from_position(json.dumps(drawn))


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "", "nonsense", None, 5])
def test_text_that_is_no_position_is_refused(text: Any) -> None:
    with pytest.raises(InvalidPosition):
        load("axia").state_from_position(text)


def test_every_field_of_a_loaded_position_survives_play() -> None:
    state = _hit_step()
    again = state.game.state_from_position(state.position())
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(200):
        if state.is_terminal():
            break
        for current, rng in ((state, rng_a), (again, rng_b)):
            if current.is_chance_node():
                current.apply_action(current.sample_chance(rng))
            else:
                current.apply_action(rng.choice(current.legal_actions()))
        assert again.position() == state.position()
