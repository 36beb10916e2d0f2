"""``AxiomState.undo`` takes a move back exactly: board, side, ply, result, repetition counts."""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.core import IllegalMove
from gameshelf.games.axiom import load_listing
from gameshelf.games.axiom.board import Board
from gameshelf.games.axiom.state import AxiomState


def snapshot(state: AxiomState) -> tuple[object, ...]:
    """Everything a player or the engine can see of a state, and the board's own tables."""
    fresh = Board(dict(state.board.cubes), list(state.board.sceptres))
    assert state.board.entries == fresh.entries  # the target entries were kept in step
    assert state.board.cells == fresh.cells
    return (
        state.position(),
        state.legal_actions(),
        state.history(),
        state.returns(),
        state.end_reason(),
        state.cubes,
        sorted(state.sceptres),
    )


@pytest.mark.parametrize(
    "game_string",
    [
        "axiom",
        "axiom(sceptre_clearance=tall)",
        "axiom(allow_overhang=true)",
        "axiom(require_connected=true,repetition_draw=2)",
    ],
)
def test_every_move_taken_back_restores_the_position(game_string: str) -> None:
    game = gameshelf.load(game_string)
    rng = random.Random(19)
    for _ in range(2):
        state = game.new_initial_state()
        assert isinstance(state, AxiomState)
        trail = [snapshot(state)]
        while not state.is_terminal() and len(trail) < 60:
            for action in rng.sample(state.legal_actions(), min(2, len(state.legal_actions()))):
                state.apply_action(action)
                state.undo()
                assert snapshot(state) == trail[-1]
            state.apply_action(rng.choice(state.legal_actions()))
            trail.append(snapshot(state))
        while trail[:-1]:
            trail.pop()
            state.undo()
            assert snapshot(state) == trail[-1]
        with pytest.raises(IllegalMove, match="no move to take back"):
            state.undo()
        assert snapshot(state) == trail[-1]


def test_undo_of_a_winning_move_with_an_elimination() -> None:
    listing = """
(white) C (0,0,1)y-
(black) C (1,0,1)y-
(black) S (0,0,1)y+
(white) S (1,0,1)x+
"""
    state = load_listing(gameshelf.load("axiom"), listing, "black")
    assert isinstance(state, AxiomState)
    before = snapshot(state)
    state.play("S(0,0,1) S(1,0,1)y+")
    assert state.end_reason() == "capture" and len(state.cubes) == 1
    state.undo()
    assert snapshot(state) == before
    assert state.current_player() == 0


def test_a_clone_takes_back_its_own_moves_only() -> None:
    state = gameshelf.load("axiom").new_initial_state()
    assert isinstance(state, AxiomState)
    rng = random.Random(4)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    kept = snapshot(state)
    copy = state.clone()
    copy.undo()
    copy.undo()
    assert snapshot(state) == kept
    state.undo()
    assert snapshot(copy) != snapshot(state)
    assert len(copy.history()) == len(state.history()) - 1
