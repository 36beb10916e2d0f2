"""Scenario tests: every rule of the Cage and every option value, on hand-built positions."""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.core.errors import IllegalMove
from gameshelf.games.cage.board import flipped, line_colours, twisted
from gameshelf.games.cage.geometry import RING, cell
from gameshelf.games.cage.rules import CageState

from .conftest import cage_state, from_position


def moves(state: CageState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def columns(state: CageState) -> str:
    return state.position().split()[0]


# --- set-up and move generation ----------------------------------------------------------


@pytest.mark.parametrize(("players", "count"), [(2, 31), (3, 23), (4, 15)])
def test_legal_moves_on_the_empty_cage(players: int, count: int) -> None:
    state = cage_state(f"cage(players={players})")
    # drops: colours per player x 8 columns, then 6 twists and the flip
    assert len(state.legal_moves()) == count
    assert state.current_player() == 0


def test_colours_are_dealt_in_blocks_of_the_order_wyrobg() -> None:
    assert gameshelf.load("cage(players=2)").config.colours == ((0, 1, 2), (3, 4, 5))
    assert gameshelf.load("cage(players=3)").config.colours == ((0, 1), (2, 3), (4, 5))
    four = gameshelf.load("cage(players=4)")
    assert four.config.colours == ((0,), (1,), (2,), (3,))
    assert four.config.stock == (4, 4, 4, 4, 0, 0)  # blue and green set aside


def test_a_player_drops_only_own_colours_with_cubies_left() -> None:
    state = cage_state("cage(players=2)")
    assert {m[0] for m in moves(state) if m[0] in "WYROBG"} == {"W", "Y", "R"}
    state.play("W0")
    assert {m[0] for m in moves(state) if m[0] in "WYROBG"} == {"O", "B", "G"}


def test_a_full_column_takes_no_drop() -> None:
    state = cage_state("cage(players=2)", "W0 O0 W0")
    assert not any(m.endswith("0") and m[0] in "OBG" for m in moves(state))
    with pytest.raises(IllegalMove, match="column 0 is full"):
        state.play("O0")


def test_a_player_with_no_cubies_left_must_twist_or_flip() -> None:
    state = cage_state("cage(players=2,stock=1:3)", "W0 Y1")
    assert moves(state) == ["T0+", "T0-", "T1+", "T1-", "T2+", "T2-", "F"]
    with pytest.raises(IllegalMove, match="no W cubies left"):
        state.play("W2")


# --- gravity ------------------------------------------------------------------------------


def test_gravity_after_a_twist_lets_cubies_above_an_emptied_cell_fall() -> None:
    # Column 0 holds R under O; turning the bottom layer carries R to column 2 and O falls.
    state = cage_state("cage", "R0 O0 T0+")
    assert columns(state) == "O/-/R/-/-/-/-/-"


def test_gravity_after_a_twist_lets_a_turned_cubie_fall_into_an_empty_column() -> None:
    # The middle cubie of column 0 turns over empty column 2 and drops to its bottom.
    state = cage_state("cage", "R0 O0 T1+")
    assert columns(state) == "R/-/O/-/-/-/-/-"


def test_flip_reverses_each_column_and_mirrors_it_to_6_minus_r() -> None:
    state = cage_state("cage", "R0 O0 W1 F")
    # column 0 (R,O) -> column 6 as (O,R); column 1 (W) -> column 5
    assert columns(state) == "-/-/-/-/-/W/OR/-"


def test_flip_then_flip_is_the_identity_on_settled_boards() -> None:
    rng = random.Random(7)
    game = gameshelf.load("cage(players=3)")
    for _ in range(200):
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 30)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        once = flipped(state.board, state.heights)
        twice = flipped(*once)
        assert twice == (state.board, state.heights)


def test_twist_then_inverse_twist_is_not_always_the_identity() -> None:
    state = cage_state("cage", "R0 O0")
    board = state.board
    there, _ = twisted(board, 0)  # T0+
    back, _ = twisted(there, 1)  # T0-
    assert back != board  # O fell when R left; turning back cannot lift it again
    assert columns(cage_state("cage", "R0 O0 T0+ T1+ T0-")) == "R/-/-/-/-/-/O/-"


# --- lines and winning --------------------------------------------------------------------


def test_a_vertical_line_of_one_colour_wins_for_its_owner() -> None:
    state = cage_state("cage", "W0 O1 W0 O1 W0")
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []


def test_mixed_colours_of_one_player_do_not_make_a_line() -> None:
    state = cage_state("cage", "W0 O1 Y0 O1 R0")
    assert not state.is_terminal()


def test_a_diagonal_line_on_a_side_face_wins() -> None:
    # Front face rising diagonal: (col 0, z0), (col 1, z1), (col 2, z2).
    state = cage_state("cage", "W0 O1 W1 O2 W5 O2 W2")
    assert not state.is_terminal() or state.returns()[0] == 1.0
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_a_row_across_a_corner_column_counts_on_both_faces() -> None:
    state = cage_state("cage", "W6 O1 W7 O3 W0")  # left face bottom row 6-7-0
    assert state.returns() == [1.0, -1.0]
    state = cage_state("cage", "W0 O5 W1 O5 W2")  # front face bottom row 0-1-2
    assert state.returns() == [1.0, -1.0]


def test_a_drop_never_creates_a_line_of_another_colour() -> None:
    rng = random.Random(3)
    game = gameshelf.load("cage(players=4)")
    for _ in range(300):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            before = line_colours(state.board)
            assert not before
            state.apply_action(action)
            if action < 48:
                assert line_colours(state.board) <= {action // RING}


def test_a_line_made_for_a_player_who_did_not_move_wins_for_its_owner() -> None:
    # Column 0 = W O W, column 6 = Y W: player 1 turns the middle layer, W lands in column 0.
    state = from_position("cage", "WOW/-/-/-/-/-/YW/- W1Y3R4O3B4G4 1 Y6 5 *")
    state.play("T1+")
    assert state.returns() == [1.0, -1.0]


TWO_LINES = "WOW/-/OBO/-/-/-/YW/- W1Y3R4O1B3G4 0 Y6 8 *"


@pytest.mark.parametrize(
    ("rule", "expected"),
    [("draw", [0.0, 0.0]), ("mover_priority", [1.0, -1.0]), ("shared", [1.0, 1.0])],
)
def test_one_twist_giving_lines_to_both_players(rule: str, expected: list[float]) -> None:
    # T1+ carries column 6's middle W onto column 0 (W W W) and column 0's middle O onto
    # column 2 (O O O): both players get a line from one move by player 0.
    state = from_position(f"cage(simultaneous={rule})", TWO_LINES)
    state.play("T1+")
    assert line_colours(state.board) == {0, 3}
    assert state.is_terminal()
    assert state.returns() == expected


def test_mover_priority_is_a_draw_when_the_mover_has_no_line() -> None:
    # Same board, but player 1 makes the move: 3 players so that the lines belong to others.
    position = "WBW/-/BRB/-/-/-/YW/- W1Y3R3O4B1G4 1 W0 10 *"
    state = from_position("cage(players=3,simultaneous=mover_priority)", position)
    state.play("T1+")  # W line (player 0) and B line (player 2), mover is player 1
    assert line_colours(state.board) == {0, 4}
    assert state.returns() == [0.0, 0.0, 0.0]
    shared = from_position("cage(players=3,simultaneous=shared)", position)
    shared.play("T1+")
    assert shared.returns() == [1.0, -1.0, 1.0]


# --- no reverse ---------------------------------------------------------------------------


def test_syntactic_no_reverse_forbids_the_inverse_twist_only_for_the_next_player() -> None:
    state = cage_state("cage", "T1+")
    assert "T1-" not in moves(state)
    assert len(moves(state)) == 30
    with pytest.raises(IllegalMove, match="reverse the previous move T1\\+"):
        state.play("T1-")
    state.play("O0")
    assert "T1-" in moves(state)


def test_syntactic_no_reverse_forbids_flip_after_flip_and_nothing_after_a_drop() -> None:
    assert "F" not in moves(cage_state("cage", "F"))
    assert len(moves(cage_state("cage", "W3"))) == 31


def test_no_reverse_off_allows_the_inverse() -> None:
    state = cage_state("cage(no_reverse=off)", "T1+")
    assert "T1-" in moves(state)
    assert "F" in moves(cage_state("cage(no_reverse=off)", "F"))


def test_semantic_no_reverse_forbids_every_move_back_to_the_earlier_board() -> None:
    # A lone cubie in column 2; F carries it to column 4; T0- would bring it back to column 2,
    # and so would F: semantic forbids both, syntactic only F.
    semantic = cage_state("cage(no_reverse=semantic)", "W2 T2+ F")
    assert "T0-" not in moves(semantic) and "F" not in moves(semantic)
    syntactic = cage_state("cage", "W2 T2+ F")
    assert "T0-" in moves(syntactic) and "F" not in moves(syntactic)


def test_semantic_no_reverse_allows_an_inverse_twist_that_does_not_restore_the_board() -> None:
    state = cage_state("cage(no_reverse=semantic)", "R0 O0 T0+")
    assert "T0-" in moves(state)
    assert "T0-" not in moves(cage_state("cage", "R0 O0 T0+"))


def test_semantic_no_reverse_after_a_no_op_twist_forbids_every_no_op() -> None:
    state = cage_state("cage(no_reverse=semantic)", "T0+")  # the empty cage stays empty
    assert all(m[0] in "OBG" for m in moves(state))  # only drops change the board


# --- no-op twists -------------------------------------------------------------------------


def test_twisting_an_empty_layer_is_a_legal_move_by_default() -> None:
    state = cage_state("cage", "T2+")
    assert columns(state) == "-/-/-/-/-/-/-/-" and state.current_player() == 1


def test_allow_noop_twists_false_removes_twists_that_change_nothing() -> None:
    state = cage_state("cage(allow_noop_twists=false)")
    assert [m for m in moves(state) if m[0] in "TF"] == ["F"]
    state.play("W0")
    assert [m for m in moves(state) if m[0] in "TF"] == ["T0+", "T0-", "F"]
    with pytest.raises(IllegalMove, match="changes nothing"):
        state.play("T2+")


# --- the end of the game ------------------------------------------------------------------


def _drop_without_lines(game_string: str) -> CageState:
    """Drop every cubie in play, each time the first drop that makes no line."""
    state = cage_state(game_string)
    while any(state.left):
        for action in state.legal_actions():
            if action >= 48:
                continue
            trial = state.clone()
            trial.apply_action(action)
            if not line_colours(trial.board):
                state.apply_action(action)
                break
        else:
            raise AssertionError("no line-free drop")
    return state


def test_the_game_is_drawn_right_after_the_last_of_16_cubies_with_4_players() -> None:
    state = _drop_without_lines("cage(players=4)")
    assert state.ply == 16
    assert sum(1 for v in state.board if v) == 16
    assert state.is_terminal() and state.returns() == [0.0] * 4


def test_the_last_drop_that_makes_a_line_wins_instead_of_drawing() -> None:
    state = cage_state("cage(players=2,stock=3:2)", "W0 Y1 W0 Y1 W0")
    assert not any(state.left)
    assert state.returns() == [1.0, -1.0]


def test_continue_after_last_drop_plays_on_with_twists_and_flips() -> None:
    state = _drop_without_lines("cage(players=4,continue_after_last_drop=true)")
    assert not state.is_terminal()
    assert moves(state) == ["T0+", "T0-", "T1+", "T1-", "T2+", "T2-", "F"]


def test_the_ply_cap_draws_and_a_winning_last_ply_still_wins() -> None:
    state = cage_state("cage(max_plies=4)", "T0+ T1+ T2+")
    assert not state.is_terminal()
    state.play("T0+")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    won = cage_state("cage(max_plies=5)", "W0 O1 W0 O1 W0")
    assert won.returns() == [1.0, -1.0]


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    # On the empty cage, after T0+ (p1 to move, T0- forbidden) ... the same position recurs.
    state = cage_state("cage", "T0+ T1+ T0+ T1+")
    assert not state.is_terminal()
    state.play("T0+")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_repetition_counts_the_forbidden_move_and_can_be_tuned_or_off() -> None:
    # T0+ then T0- (different forbidden moves) are different positions for repetition.
    state = cage_state("cage", "T0+ T1+ T0- T1+ T0+ T1-")
    assert not state.is_terminal()
    assert cage_state("cage(repetition_draw=2)", "T0+ T1+ T0+").is_terminal()
    assert not cage_state("cage(repetition_draw=0)", "T0+ T1+ T0+ T1+ T0+ T1+ T0+").is_terminal()


def test_a_drop_clears_the_repetition_history() -> None:
    # Positions before a drop can never come back, so the history is dropped with them.
    state = cage_state("cage", "T0+ T1+ T0+ T1+")
    assert len(state.seen) == 2
    state.play("W0")
    assert not state.seen


# --- stock variants -----------------------------------------------------------------------


def test_stock_12_12_gives_one_colour_each_and_fills_the_cage() -> None:
    state = cage_state("cage(players=2,stock=12:12)")
    assert moves(state)[:8] == [f"W{r}" for r in range(8)]
    assert len(moves(state)) == 8 + 7
    state.play("W0")
    assert moves(state)[:8] == [f"Y{r}" for r in range(8)]
    assert state.position().split()[1] == "W11Y12"


def test_stock_variant_with_three_players() -> None:
    state = cage_state("cage(players=3,stock=3:2:1)", "W0 Y1 R2")
    assert state.position().split()[1] == "W2Y1R0"
    state.play("W0")
    state.play("Y1")
    assert "R" not in "".join(moves(state))  # player 2 has no cubie left


def test_cells_are_indexed_8z_plus_r() -> None:
    state = cage_state("cage", "W3 O3")
    assert state.board[cell(3, 0)] == 1 and state.board[cell(3, 1)] == 4


def test_the_view_describes_columns_stock_forbidden_moves_and_winning_cells() -> None:
    state = cage_state("cage", "R0 O0 T1+")
    view = state.view(0)
    assert view == state.view(None)  # nothing is hidden in the Cage
    assert view["columns"][0] == ["R"] and view["columns"][2] == ["O"]
    assert view["left"] == {"W": 4, "Y": 4, "R": 3, "O": 3, "B": 4, "G": 4}
    assert view["forbidden"] == ["T1-"] and view["to_move"] == 1 and view["last_move"] == "T1+"
    assert view["colours"] == [["W", "Y", "R"], ["O", "B", "G"]]
    won = cage_state("cage", "W0 O1 W0 O1 W0").view(None)
    assert won["winning_cells"] == [[0, 0], [0, 1], [0, 2]] and won["returns"] == [1.0, -1.0]
    assert won["forbidden"] == []
