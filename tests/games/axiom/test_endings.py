"""Scenario tests for elimination, win, self-capture, no legal move, repetition, ply cap."""

from __future__ import annotations

import gameshelf
from gameshelf.core import State
from gameshelf.games.axiom import load_listing
from gameshelf.games.axiom.board import Board, eliminable, pack
from gameshelf.games.axiom.options import AxiomOptions


def build(listing: str, to_move: str = "black", game: str = "axiom") -> State:
    """A state read from a play-by-email listing."""
    return load_listing(gameshelf.load(game), listing, to_move)


def cells(state: State) -> set[str]:
    """The cells holding cubes, as listing text."""
    lines = state.listing().splitlines()  # type: ignore[attr-defined]
    return {line.split(" C ")[1].split(")")[0] + ")" for line in lines if " C " in line}


# A Black sceptre on the north face of a White cube, next to a Black cube.
ELIM = """
(white) C (0,0,1)y-
(black) C (1,0,1)y-
(black) S (0,0,1)y+
"""


def test_elimination_from_opposing_cube_onto_own_cube() -> None:
    state = build(ELIM)
    state.play("S(0,0,1) S(1,0,1)y+")
    assert cells(state) == {"(1,0,1)"}
    assert not state.is_terminal() or state.end_reason() == "no-move"  # type: ignore[attr-defined]


def test_no_elimination_when_a_cube_is_on_top() -> None:
    state = build(ELIM + "(black) C (0,0,2)z-\n")
    state.play("S(0,0,1) S(1,0,1)y+")
    assert cells(state) == {"(0,0,1)", "(1,0,1)", "(0,0,2)"}


def test_no_elimination_between_cubes_of_one_colour_or_onto_the_opponents() -> None:
    for listing in (ELIM.replace("(white) C", "(black) C"), ELIM.replace("(black) C", "(white) C")):
        state = build(listing)
        state.play("S(0,0,1) S(1,0,1)y+")
        assert cells(state) == {"(0,0,1)", "(1,0,1)"}


def test_no_elimination_of_a_cube_holding_a_sceptre() -> None:
    # In play a cube never holds two sceptres, so test the rule itself.
    cubes = {(0, 0, 1): 1 << 6 | 1 << 3, (1, 0, 1): 1 << 3}
    opts = AxiomOptions.from_values()
    cell = pack((0, 0, 1))
    assert eliminable(opts, Board.from_cells(cubes, []), cell)
    assert not eliminable(opts, Board.from_cells(cubes, [(1, (0, 0, 1), 4)]), cell)
    assert not eliminable(opts, Board.from_cells({**cubes, (0, 0, 2): 1 << 5}, []), cell)


def test_overhang_no_elimination_of_a_cube_holding_up_another() -> None:
    # (1,0,2) hangs from the dome x+ of (0,0,2), which stands on (0,0,1)
    cubes = {(0, 0, 1): 1 << 4, (0, 0, 2): 1 << 0, (1, 0, 2): 1 << 3, (3, 0, 1): 1 << 3}
    opts = AxiomOptions.from_values(allow_overhang=True)
    board = Board.from_cells(cubes, [])
    assert not eliminable(opts, board, pack((0, 0, 2)))
    assert eliminable(opts, board, pack((3, 0, 1)))


def test_win_by_ending_on_the_cube_of_an_opponent_sceptre() -> None:
    state = build(ELIM + "(white) S (1,0,1)x+\n")
    state.play("S(0,0,1) S(1,0,1)y+")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.result_text() == "black wins (capture)"
    # win and elimination in one move: the win stands and the White cube is gone
    assert cells(state) == {"(1,0,1)"}


SELF = """
(black) C (0,0,1)y- z+
(white) C (0,1,1)y+ z+
(black) S (0,1,1)x+
(black) S (0,0,1)x-
"""


def test_self_capture_loses() -> None:
    state = build(SELF)
    state.play("S(0,0,1) S(0,1,1)x-")
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert state.result_text() == "white wins (self-capture)"


def test_self_capture_only_if_forced() -> None:
    forced = build(SELF, game="axiom(self_capture=only_if_forced)")
    assert {m.text for m in forced.legal_moves()} == {
        "S(0,0,1) S(0,1,1)x-",
        "S(0,1,1) S(0,0,1)x+",
    }
    free = SELF + "(black) C (3,0,1)y-\n"
    assert "S(0,0,1) S(0,1,1)x-" in {m.text for m in build(free).legal_moves()}
    state = build(free, game="axiom(self_capture=only_if_forced)")
    assert all(m.text.startswith("C") for m in state.legal_moves())
    assert state.legal_moves()


NO_MOVE = """
(black) C (0,0,1)z+
(white) C (0,0,2)y-
(white) S (0,0,2)z+
"""


def test_no_legal_move_loses_or_draws() -> None:
    state = build(NO_MOVE)
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert state.result_text() == "white wins (no-move)"
    assert state.legal_actions() == []
    draw = build(NO_MOVE, game="axiom(no_move_result=draw)")
    assert draw.is_terminal() and draw.returns() == [0.0, 0.0]


SHUFFLE = [
    "S(-1,0,2) S(-1,0,1)y-",
    "S(1,1,2) S(1,1,1)y+",
    "S(-1,0,1) S(-1,0,2)z+",
    "S(1,1,1) S(1,1,2)z+",
]


def test_threefold_repetition_draws() -> None:
    state = gameshelf.load("axiom").new_initial_state()
    for ply in range(8):
        assert not state.is_terminal(), ply
        state.play(SHUFFLE[ply % 4])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.result_text() == "draw (repetition)"


def test_repetition_options() -> None:
    state = gameshelf.load("axiom(repetition_draw=0)").new_initial_state()
    for ply in range(12):
        state.play(SHUFFLE[ply % 4])
    assert not state.is_terminal()
    state = gameshelf.load("axiom(repetition_draw=2)").new_initial_state()
    for ply in range(4):
        state.play(SHUFFLE[ply % 4])
    assert state.is_terminal()


def test_repetition_compares_up_to_translation() -> None:
    start = gameshelf.load("axiom").new_initial_state()
    listing = start.listing()  # type: ignore[attr-defined]
    moved = listing
    for old, new in (("(-1,", "(A,"), ("(0,", "(B,"), ("(1,", "(C,")):
        moved = moved.replace(old, new)
    moved = moved.replace("(A,", "(4,").replace("(B,", "(5,").replace("(C,", "(6,")
    moved = moved.replace(",0,", ",-3,").replace(",1,", ",-2,")
    shifted = build(moved)
    assert shifted.listing() != listing  # type: ignore[attr-defined]
    assert shifted.seen == start.seen  # type: ignore[attr-defined]


def test_ply_cap_draws() -> None:
    state = gameshelf.load("axiom(max_plies=3)").new_initial_state()
    for ply in range(3):
        assert not state.is_terminal()
        state.play(SHUFFLE[ply])
    assert state.is_terminal() and state.result_text() == "draw (ply-cap)"
    assert state.game.spec.max_game_length == 3
