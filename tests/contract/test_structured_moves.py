"""Structured legal moves on the wire: what the server sends for a seat is the game's structures
in the order of ``legal_moves``, valid against the contract, and the generated schemas keep each
game's types (optional parts optional, kinds told apart)."""

from __future__ import annotations

import random

import pytest

from gameshelf.core import registry
from gameshelf.core.registry import GameEntry, load
from gameshelf.server.contract import SeatState
from gameshelf.server.export_contract import board_schemas
from gameshelf.server.moves_view import legal_details


@pytest.mark.parametrize("game_string", ["axiom", "cage(players=3)", "axia(players=2)"])
def test_a_seat_gets_the_structures_of_its_legal_moves(game_string: str) -> None:
    rng = random.Random(7)
    state = load(game_string).new_initial_state(7)
    checked = 0
    while not state.is_terminal() and checked < 40:
        details = legal_details(state)
        if state.current_player() < 0:
            assert details == []  # chance acts: no seat is offered anything
        else:
            texts = [m.text for m in state.legal_moves()]
            seat = SeatState(
                view=state.view(None), legal_moves=texts, legal=details, can_undo=False
            )
            sent = seat.model_dump(mode="json")
            assert [m["move"] for m in sent["legal"]] == sent["legal_moves"]
            described = registry.game_entry(state.game.spec.name).move_details(state)
            assert sent["legal"] == described and all("kind" in m for m in described)
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 5


def test_a_finished_game_offers_nothing() -> None:
    state = load("cage").new_initial_state()
    for move in ("W0", "O1", "W0", "O1", "W0"):  # three white in column 0... then a line
        if state.is_terminal():
            break
        state.play(move)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert legal_details(state) == []


def test_a_game_that_describes_nothing_sends_its_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    real = registry.game_entry("cage")
    plain = GameEntry("cage", options=real.options, factory=real.factory)
    monkeypatch.setitem(registry._REGISTRY, "cage", plain)
    state = load("cage").new_initial_state()
    sent = [m.model_dump() for m in legal_details(state)]
    assert sent == [{"move": m.text} for m in state.legal_moves()]


def test_the_generated_board_types_keep_each_games_shape() -> None:
    schemas = board_schemas()
    axia = schemas["AxiaMove"]
    assert set(axia["required"]) == {"move", "kind"}  # every part is optional, by kind
    assert {"die", "space", "cell", "slot", "card"} <= set(axia["properties"])
    cage = schemas["CageMove"]
    assert cage["discriminator"]["propertyName"] == "kind"
    assert set(cage["discriminator"]["mapping"]) == {"drop", "twist", "flip"}
    assert set(schemas["AxiomSceptreMove"]["required"]) >= {"source", "target", "face"}
    assert "turn" not in schemas["AxiaView"]["required"]  # only while a turn runs
    assert {"cubes", "sceptres"} <= set(schemas["AxiomView"]["required"])
