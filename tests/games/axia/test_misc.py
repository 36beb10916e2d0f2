"""Deck exhaustion, the last round, rendering, score-sheet tables and registration."""

from __future__ import annotations

import json
import random

import pytest

from gameshelf.core import available_games, game_entry, load
from gameshelf.core.errors import IllegalMove
from gameshelf.core.game import CHANCE
from gameshelf.games.axia import format_score_sheet, score_sheet
from gameshelf.games.axia.actions import PHASE_PLACE, PHASE_REFILL, PHASE_TURN
from gameshelf.games.axia.rules import AxiaState

from .conftest import make_turn_state, put


def _play(state: AxiaState, rng: random.Random, done) -> None:  # type: ignore[no-untyped-def]
    while not done(state):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_registered_with_options() -> None:
    assert "axia" in available_games()
    entry = game_entry("axia")
    names = [o.name for o in entry.options]
    assert names == [
        "players",
        "cards",
        "first_game",
        "prioritize_objectives",
        "explore_regions",
        "must_hit_if_possible",
        "rakya_effect",
    ]
    assert load("axia(players=3,explore_regions=true)").game_string == (
        "axia(players=3,explore_regions=true)"
    )


def test_empty_deck_reuses_the_discard_pile() -> None:
    rng = random.Random(21)
    state = load("axia(players=2)").new_initial_state()
    assert isinstance(state, AxiaState)
    _play(state, rng, lambda s: s.phase == PHASE_REFILL and not s.chance_queue)
    state.territory_discard = sorted(state.territory_discard + state.territory_deck)
    state.territory_deck = []
    assert "deck" in {str(m) for m in state.legal_moves()}
    state.play("deck")
    assert state.current_player() == CHANCE and state.territory_discard == []
    drawn = state.legal_actions()[0]
    state.apply_action(drawn)
    assert drawn in state.hands[state.starting_seat]


def test_last_round_has_its_refill() -> None:
    rng = random.Random(22)
    state = load("axia(players=2)").new_initial_state()
    assert isinstance(state, AxiaState)
    _play(state, rng, lambda s: s.round == 8 and s.phase == PHASE_PLACE and not s.chance_queue)
    _play(state, rng, lambda s: s.phase != PHASE_PLACE)
    assert state.phase == PHASE_REFILL and [len(h) for h in state.hands] == [2, 2]
    _play(state, rng, lambda s: s.phase == PHASE_TURN)
    assert [len(h) for h in state.hands] == [3, 3]


def test_rut_with_an_empty_item_deck_draws_nothing() -> None:
    s = make_turn_state(1, dice=(1, 1, 1))
    from .conftest import _ANY

    g = put(s, "a1", beast="rut", magic=False, critical=_ANY)
    s.dice[0] = s.game.tables.critical[g] or 1
    s.item_deck = []
    s.play("P1>a1")
    assert s.current_player() == 0 and s.items[0] == []


def test_render_and_score_table_for_a_finished_game() -> None:
    rng = random.Random(23)
    state = load("axia(players=3)").new_initial_state()
    assert isinstance(state, AxiaState)
    _play(state, rng, lambda s: s.is_terminal())
    picture = state.render()
    assert "player 2" in picture and picture.count("\n") > 20
    assert "\x1b[" in state.render(color=True) and "\x1b[" not in picture
    data = score_sheet(state)
    json.dumps(data)
    assert data["final"] and [p["player"] for p in data["players"]] == [0, 1, 2]
    totals = [p["total"] for p in data["players"]]
    for p, sheet in enumerate(data["players"]):
        parts = sum(r["points"] for r in sheet["scoring_cards"]) + sum(sheet["beasts"].values())
        assert sheet["total"] == parts + sheet["acolytes"] + sheet["items"]
        assert len(sheet["scoring_cards"]) == 6
        assert (p in data["winners"]) == (state.returns()[p] == 1.0)
    table = format_score_sheet(state)
    assert "scoring R1" in table and ("winner" in table or "shared victory" in table)
    assert all(str(t) in table for t in totals)


def test_calibration_policies_order_random_greedy_planner() -> None:
    from gameshelf.agents.axia.policies import greedy, measure, planner

    def uniform(state: AxiaState, rng: random.Random) -> int:
        return rng.choice(state.legal_actions())

    rand, _ = measure(uniform, 6, seed=500)
    weak, _ = measure(greedy, 6, seed=500)
    strong, _ = measure(planner, 6, seed=500)
    assert rand < weak < strong


def test_result_text_reports_scores_and_the_solo_rank() -> None:
    import random

    import gameshelf

    for players in (1, 2):
        state = gameshelf.load(f"axia(players={players})").new_initial_state(4)
        rng = random.Random(4)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        text = state.result_text()
        totals = [state.score_sheet(p)["total"] for p in range(players)]
        if players == 1:
            assert text == f"solo score {totals[0]}: {state.solo_rank()}"
        else:
            assert text.endswith(f"(scores {totals[0]}, {totals[1]})")


def test_action_to_string_refuses_ids_that_are_not_legal_here() -> None:
    """``-1`` at a chance node printed the last card of the deck (Python's index -1); ids
    that are not legal here (or bools) are refused, the legal ones are written."""
    state = load("axia").new_initial_state(3)
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        legal = state.legal_actions()
        before = state.position()
        for action in (-1, -2, True, False, max(legal) + 1, 10**6):
            if action in legal and not isinstance(action, bool):
                continue
            with pytest.raises(IllegalMove):
                state.action_to_string(action)
            checked += 1
        assert state.position() == before
        for action in legal:
            assert state.parse_action(state.action_to_string(action)) == action
        assert state.is_chance_node() or state.current_player() >= 0
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(legal))
    assert checked > 200


def test_legal_moves_name_each_id_as_action_to_string_does() -> None:
    """The fast path of legal_moves (no second legality check per id) writes the same text."""
    game = load("axia(players=3)")
    rng = random.Random(5)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 80:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        moves = state.legal_moves()
        assert [(m.action, str(m)) for m in moves] == [
            (a, state.action_to_string(a)) for a in state.legal_actions()
        ]
        state.apply_action(rng.choice(moves).action)
        checked += 1
    assert checked == 80
