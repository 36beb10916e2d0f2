"""Position strings: the progress counters must be the ones the engine holds in their phase.

``count``, ``batch``, ``turn``, ``round``, ``start`` and ``cur`` were only range-checked, so a
position with one of them wrong loaded and, a few moves later, reached a state in play with no
legal move (or crashed). Every position the engine writes still loads; one counter changed is
refused or, when the engine could have written it too, plays to the end.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from gameshelf.core import load
from gameshelf.core.errors import InvalidPosition
from gameshelf.games.axia.actions import PHASE_PLACE, PHASE_SCORE_PICK, PHASE_TURN
from gameshelf.games.axia.rules import AxiaState

COUNTERS = ("count", "batch", "turn", "round", "start", "cur")

GAMES = [
    f"axia(players={n},first_game={fg},prioritize_objectives={pr},explore_regions={ex})"
    for n in (1, 2, 3, 4)
    for fg, pr, ex in itertools.product(("false", "true"), repeat=3)
]


def _step(state: AxiaState, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _positions(game_string: str, seed: int) -> list[str]:
    """Every position of one random game, the last one over."""
    state = load(game_string).new_initial_state()
    assert isinstance(state, AxiaState)
    rng = random.Random(seed)
    out = [state.position()]
    while not state.is_terminal():
        _step(state, rng)
        out.append(state.position())
    return out


def _play_out(state: AxiaState, rng: random.Random) -> None:
    """Random moves to the end: every state in play offers a move."""
    for _ in range(state.game.spec.max_game_length):
        if state.is_terminal():
            return
        assert state.legal_actions(), "a loaded position reached a dead end"
        _step(state, rng)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game_string", GAMES)
def test_every_position_the_engine_writes_reads_back(game_string: str) -> None:
    game = load(game_string)
    for seed in range(2):
        for text in _positions(game_string, seed):
            assert game.state_from_position(text).position() == text


@pytest.mark.parametrize("game_string", GAMES)
def test_a_changed_counter_is_refused_or_plays_to_the_end(game_string: str) -> None:
    game = load(game_string)
    rng = random.Random(game_string)
    positions = _positions(game_string, 7)
    accepted = refused = 0
    for _ in range(60):
        data = json.loads(rng.choice(positions))
        field = rng.choice(COUNTERS)
        if data[field] < 0:  # TERMINAL: cur of a game over is range-checked already
            continue
        data[field] = rng.choice([v for v in range(-1, 10) if v != data[field]])
        try:
            state = game.state_from_position(json.dumps(data))
        except InvalidPosition as exc:
            assert exc.code == "position/invalid"
            refused += 1
            continue
        accepted += 1
        assert isinstance(state, AxiaState)
        _play_out(state, random.Random(accepted))
    assert refused > 0


def _reach(game_string: str, seed: int, done: Any) -> AxiaState:
    state = load(game_string).new_initial_state()
    assert isinstance(state, AxiaState)
    rng = random.Random(seed)
    while not done(state):
        _step(state, rng)
    return state


def _with(state: AxiaState, **changes: Any) -> str:
    data = json.loads(state.position())
    data.update(changes)
    return json.dumps(data)


def _refused(state: AxiaState, text: str, reason: str) -> None:
    before = state.position()
    with pytest.raises(InvalidPosition, match=reason):
        state.game.state_from_position(text)
    assert state.position() == before


def test_an_earlier_round_is_refused_it_would_run_out_of_empty_cells() -> None:
    # The audit's case: round 3's place step loaded as round 1 reached round 7 with full grids.
    state = _reach("axia(players=2)", 3, lambda s: s.phase == PHASE_PLACE and s.round == 3)
    _refused(state, _with(state, round=1), r"turn 4 in the place step, round 1 must be in 0\.\.0")
    _refused(state, _with(state, round=6), r"start 0 in the place step, round 6 must be 1")
    _refused(state, _with(state, round=5), r"grid: player 0 has 3 cards, not 5, in round 5")


def test_count_turn_and_cur_must_agree_in_the_hit_and_place_steps() -> None:
    hit = _reach("axia(players=3)", 5, lambda s: s.phase == PHASE_TURN and s.turn == 2)
    _refused(hit, _with(hit, count=1), r"count 1 in the hit step must be in 3\.\.3")
    _refused(hit, _with(hit, turn=1), r"cur \d in the hit step must be")
    # turns 2 and 3 are the same seat's (snake order): the dice taken tell them apart
    _refused(hit, _with(hit, turn=3), r"used: player \d has taken 0 dice, not 1")
    _refused(hit, _with(hit, start=(hit.starting_seat + 1) % 3), r"start \d in the hit step, round")
    place = _reach(
        "axia(players=3)",
        5,
        lambda s: s.phase == PHASE_PLACE and s.seats_done == 1 and not s.chance_queue,
    )
    _refused(place, _with(place, count=2, cur=(place.starting_seat + 2) % 3), r"pending: player \d")
    _refused(place, _with(place, cur=place.starting_seat), r"cur \d in the place step must be")


def test_the_scoring_setup_counters_must_match_the_slots_filled() -> None:
    state = _reach(
        "axia(players=2)",
        1,
        lambda s: s.phase == PHASE_SCORE_PICK and not s.chance_queue and s.current_seat == 1,
    )
    assert state.picks_left == 3 and state.scoring_batch == 0
    _refused(state, _with(state, count=2), r"slots: player 1 has filled 0, not 1")
    _refused(state, _with(state, batch=1), r"slots: player 0 has filled 3, not 6")
    _refused(state, _with(state, batch=2), r"batch 2 in the scoring-setup step must be below 2")
    _refused(state, _with(state, cur=0), r"slots: player 0 has filled 3, not 0")
    first = load("axia(first_game=true)")
    _refused(
        first.new_initial_state(),  # type: ignore[arg-type]
        _with(state, phase=0),
        r"phase 0 \(the scoring-setup step\) never happens in a first game",
    )
