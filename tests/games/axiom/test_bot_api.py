"""The public names a bot reads: ``moves_of`` and ``action_info`` (and the fields they rely on)."""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.core import IllegalMove
from gameshelf.games.axiom import AxiomActionInfo, AxiomState, load_listing

ELIM_WIN = """
(white) C (0,0,1)y-
(black) C (1,0,1)y-
(black) S (0,0,1)y+
(white) S (1,0,1)x+
"""

SELF = """
(black) C (0,0,1)y- z+
(white) C (0,1,1)y+ z+
(black) S (0,1,1)x+
(black) S (0,0,1)x-
(black) C (3,0,1)y-
"""


def _flipped(state: AxiomState) -> AxiomState:
    """The same board with the other side to move."""
    other = load_listing(state.game, state.listing(), "white" if state.to_move == 0 else "black")
    assert isinstance(other, AxiomState)
    return other


@pytest.mark.parametrize(
    "game",
    [
        "axiom",
        "axiom(sceptre_clearance=tall)",
        "axiom(allow_overhang=true)",
        "axiom(require_connected=true)",
        "axiom(self_capture=only_if_forced)",
    ],
)
def test_moves_of_is_the_legal_list_of_either_side(game: str) -> None:
    rng = random.Random(7)
    state = gameshelf.load(game).new_initial_state()
    assert isinstance(state, AxiomState)
    for _ in range(24):
        if state.is_terminal():
            break
        me = state.to_move
        assert state.moves_of(me) == state.legal_actions()
        assert state.moves_of(1 - me) == _flipped(state).legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("listing", [ELIM_WIN, None])
def test_action_info_of_every_move_matches_its_text_and_outcome(listing: str | None) -> None:
    game = gameshelf.load("axiom")
    state = game.new_initial_state() if listing is None else load_listing(game, listing, "black")
    assert isinstance(state, AxiomState)
    seen = set()
    for action in state.moves_of(0) + state.moves_of(1):
        info = state.action_info(action)
        assert isinstance(info, AxiomActionInfo)
        text = state.action_to_string(action)
        assert text.startswith("S" if info.kind == "sceptre" else "C")
        assert text.split()[0][1:] == f"({info.source[0]},{info.source[1]},{info.source[2]})"
        after = state.clone()
        if action in state.legal_actions():
            after.apply_action(action)
            assert (after.end_reason() == "capture") == info.captures
            assert (after.end_reason() == "self-capture") == info.self_capture
        seen.add((info.kind, info.captures))
    assert ("sceptre", True) in seen if listing else ("cube", False) in seen


def test_action_info_flags_self_capture() -> None:
    state = load_listing(gameshelf.load("axiom"), SELF, "black")
    assert isinstance(state, AxiomState)
    action = state.parse_action("S(0,0,1) S(0,1,1)x-")
    info = state.action_info(action)
    assert info == AxiomActionInfo("sceptre", (0, 0, 1), (0, 1, 1), False, True)
    risky = {
        state.action_to_string(a)
        for a in state.legal_actions()
        if state.action_info(a).self_capture
    }
    assert risky == {"S(0,0,1) S(0,1,1)x-", "S(0,1,1) S(0,0,1)x+"}


def test_bad_arguments_are_refused_and_change_nothing() -> None:
    state = gameshelf.load("axiom").new_initial_state()
    assert isinstance(state, AxiomState)
    before = state.position()
    with pytest.raises(ValueError, match="player 2"):
        state.moves_of(2)
    with pytest.raises(IllegalMove):
        state.action_info(10**9)
    with pytest.raises(IllegalMove):
        state.action_info(0)  # a sceptre move from (-1,0,1), where no sceptre stands
    assert state.position() == before


def test_finished_game_has_no_moves_for_either_side() -> None:
    state = load_listing(gameshelf.load("axiom"), ELIM_WIN, "black")
    assert isinstance(state, AxiomState)
    state.play("S(0,0,1) S(1,0,1)y+")
    assert state.is_terminal()
    assert state.moves_of(0) == [] and state.moves_of(1) == []
