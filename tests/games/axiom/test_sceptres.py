"""Scenario tests for sceptre moves: lateral, diagonal, blocking, clearance options."""

from __future__ import annotations

import pytest

import gameshelf
from gameshelf.core import IllegalMove, State
from gameshelf.games.axiom import load_listing


def build(listing: str, to_move: str = "black", game: str = "axiom") -> State:
    """A state read from a play-by-email listing."""
    return load_listing(gameshelf.load(game), listing, to_move)


def texts(state: State, prefix: str = "") -> set[str]:
    """Notation of the legal moves that start with ``prefix``."""
    return {m.text for m in state.legal_moves() if m.text.startswith(prefix)}


# A row on the table. The top of (2,0,1) is a dome, so travel east stops before it.
ROW = """
(black) C (0,0,1)y-
(black) C (1,0,1)y-
(white) C (2,0,1)z+
(black) S (0,0,1)z+
"""


def test_flat_travel_stops_before_a_dome_and_goes_over_edges() -> None:
    assert texts(build(ROW), "S") == {
        "S(0,0,1) S(1,0,1)z+",  # east, flat; the dome on top of (2,0,1) blocks further travel
        "S(0,0,1) S(0,0,1)x-",  # west, over the edge onto the west face, then the table
        "S(0,0,1) S(0,0,1)y+",  # north, over the edge
        # south: the south face of (0,0,1) is a dome
    }


WALL = """
(black) C (0,0,1)y-
(black) C (1,0,1)y- z+
(white) C (1,0,2)y-
(black) S (0,0,1)z+
"""


def test_lateral_move_climbs_a_wall_and_goes_over_the_top() -> None:
    moves = texts(build(WALL), "S(0,0,1)")
    assert {
        "S(0,0,1) S(1,0,2)x-",  # inside corner: up the wall
        "S(0,0,1) S(1,0,2)z+",  # outside corner: over the top edge
        "S(0,0,1) S(1,0,2)x+",  # and down the far side
        "S(0,0,1) S(1,0,1)x+",  # flat, still heading down, then the table stops it
    } <= moves


def test_concave_turns_false_ends_the_move_at_a_wall() -> None:
    moves = texts(build(WALL, game="axiom(concave_turns=false)"), "S(0,0,1)")
    assert not any("(1,0," in m for m in moves)
    assert "S(0,0,1) S(0,0,1)x-" in moves


def test_a_sceptre_blocks_the_path() -> None:
    state = build(WALL + "(white) S (1,0,2)z+\n")
    moves = texts(state, "S(0,0,1)")
    assert "S(0,0,1) S(1,0,2)x-" in moves
    assert "S(0,0,1) S(1,0,2)z+" not in moves  # occupied: neither passed nor stopped on
    assert "S(0,0,1) S(1,0,2)x+" not in moves


def test_the_table_stops_a_move_down_a_side() -> None:
    moves = texts(build(ROW), "S")
    assert not any("z-" in m for m in moves)


# A square of four on the table with a second layer on two of them: the diagonal from the top
# of (0,0,1) to the top of (1,1,1) slips between (1,0,2) and (0,1,2).
SQUEEZE = """
(black) C (0,0,1)x-
(white) C (1,1,1)x+
(white) C (1,0,1)y- z+
(white) C (0,1,1)y+ z+
(black) C (1,0,2)y-
(black) C (0,1,2)y+
(black) S (0,0,1)z+
"""
DIAGONAL = "S(0,0,1) S(1,1,1)z+"


def test_diagonal_blocked_by_a_squeeze_on_top() -> None:
    assert DIAGONAL not in texts(build(SQUEEZE))
    assert DIAGONAL not in texts(build(SQUEEZE, game="axiom(diagonal_squeeze=top_only)"))
    assert DIAGONAL in texts(build(SQUEEZE, game="axiom(diagonal_squeeze=off)"))


def test_diagonal_with_one_corner_free_passes() -> None:
    listing = SQUEEZE.replace("(black) C (0,1,2)y+\n", "")
    assert DIAGONAL in texts(build(listing))


def test_diagonal_moves_option() -> None:
    listing = SQUEEZE.replace("(black) C (0,1,2)y+\n", "")
    assert DIAGONAL not in texts(build(listing, game="axiom(diagonal_moves=false)"))


def test_diagonal_continues_in_a_straight_line() -> None:
    listing = """
(black) C (0,0,1)y-
(black) C (1,1,1)y-
(white) C (2,2,1)y-
(black) S (0,0,1)z+
"""
    moves = texts(build(listing), "S")
    assert {"S(0,0,1) S(1,1,1)z+", "S(0,0,1) S(2,2,1)z+"} <= moves


# A wall of four with a cube hanging in front of it (overhang): the diagonal on the south side
# from (0,0,1) to (1,0,2) slips between (1,-1,1) and the hanging (0,-1,2).
SIDE = """
(black) C (0,0,1)y+ z+
(white) C (1,0,1)y+ z+
(black) C (0,0,2)y+
(white) C (1,0,2)y+
(black) C (1,-1,1)y+
(white) C (0,-1,2)y+
(black) S (0,0,1)y-
"""


def test_side_plane_squeeze_depends_on_the_option() -> None:
    side = "S(0,0,1) S(1,0,2)y-"
    base = "axiom(allow_overhang=true{})"
    assert side not in texts(build(SIDE, game=base.format("")))
    assert side in texts(build(SIDE, game=base.format(",diagonal_squeeze=top_only")))
    assert side in texts(build(SIDE, game=base.format(",diagonal_squeeze=off")))


def test_overhang_lets_sceptres_use_exposed_bottom_faces() -> None:
    listing = SIDE.replace("(black) S (0,0,1)y-", "(black) S (1,-1,1)z+")
    moves = texts(build(listing, game="axiom(allow_overhang=true)"), "S")
    # west from the top of (1,-1,1): climb the hanging cube's east face, over its top, down its
    # west face, round under its exposed bottom and back down the west face of (1,-1,1)
    assert {
        "S(1,-1,1) S(0,-1,2)x+",
        "S(1,-1,1) S(0,-1,2)z+",
        "S(1,-1,1) S(0,-1,2)x-",
        "S(1,-1,1) S(0,-1,2)z-",
        "S(1,-1,1) S(1,-1,1)x-",
    } <= moves


# Two faces that meet at an inside corner share an air cell: (0,0,1)z+ and (0,1,2)y-.
SHARED = """
(black) C (-1,0,1)x-
(black) C (0,0,1)y-
(black) C (1,0,1)y-
(white) C (0,1,1)y+ z+
(white) C (0,1,2)y+
(black) S (-1,0,1)z+
(white) S (0,1,2)y-
"""


def test_air_clearance_a_shared_air_cell_is_neither_passed_nor_stopped_on() -> None:
    moves = texts(build(SHARED), "S(-1,0,1)")
    assert "S(-1,0,1) S(0,0,1)z+" not in moves
    assert "S(-1,0,1) S(1,0,1)z+" not in moves


def test_tall_clearance_a_shared_air_cell_may_be_passed_not_stopped_on() -> None:
    moves = texts(build(SHARED, game="axiom(sceptre_clearance=tall)"), "S(-1,0,1)")
    assert "S(-1,0,1) S(0,0,1)z+" not in moves
    assert "S(-1,0,1) S(1,0,1)z+" in moves
    assert "S(-1,0,1) S(1,0,1)x+" in moves


FACING = """
(black) C (-1,0,1)y-
(black) C (0,0,1)y-
(white) C (3,0,1)y-
(black) S (-1,0,1)z+
(white) S (3,0,1)x-
"""


def test_tall_sceptres_facing_each_other_need_a_gap() -> None:
    target = "S(-1,0,1) S(0,0,1)x+"
    assert target in texts(build(FACING), "S")
    assert target not in texts(build(FACING, game="axiom(sceptre_clearance=tall)"), "S")


def test_tall_sceptre_may_not_stop_with_a_cube_two_cells_out() -> None:
    listing = FACING.replace("(white) S (3,0,1)x-\n", "").replace("(3,0,1)", "(2,0,1)")
    target = "S(-1,0,1) S(0,0,1)x+"
    assert target in texts(build(listing), "S")
    assert target not in texts(build(listing, game="axiom(sceptre_clearance=tall)"), "S")


def test_a_path_that_comes_round_stops_at_its_origin() -> None:
    # a lone cube: every heading goes over edges and would come back to the top
    state = build("(black) C (0,0,1)y-\n(black) S (0,0,1)z+\n")
    assert texts(state, "S") == {
        "S(0,0,1) S(0,0,1)x+",
        "S(0,0,1) S(0,0,1)x-",
        "S(0,0,1) S(0,0,1)y+",
    }


# A U round the gap (1,0,1)-(2,0,1): the sceptre on the inner face of one arm can walk round
# the bend to the inner face of the other arm, which faces its own origin across the gap.
U_SHAPE = """
(black) C (0,0,1)z+
(black) C (0,1,1)z+
(black) C (1,1,1)z+
(white) C (2,1,1)z+
(white) C (3,1,1)z+
(white) C (3,0,1)z+
(black) S (3,0,1)x-
"""


def test_tall_the_moving_sceptre_on_its_origin_counts_for_the_gap() -> None:
    target = "S(3,0,1) S(0,0,1)x+"
    assert target in texts(build(U_SHAPE), "S")
    tall = texts(build(U_SHAPE, game="axiom(sceptre_clearance=tall)"), "S")
    assert target not in tall
    assert "S(3,0,1) S(1,1,1)y-" in tall
    state = build(U_SHAPE, game="axiom(sceptre_clearance=tall)")
    refusal = r"may not stop there: it would face the sceptre on \(3,0,1\)x- with no gap"
    with pytest.raises(IllegalMove, match=refusal):
        state.play(target)


def test_tall_refusals_name_the_stop_rule() -> None:
    state = build(
        FACING.replace("(white) S (3,0,1)x-\n", "").replace("(3,0,1)", "(2,0,1)"),
        game="axiom(sceptre_clearance=tall)",
    )
    with pytest.raises(IllegalMove, match=r"would reach \(2,0,1\), where a cube is"):
        state.play("S(-1,0,1) S(0,0,1)x+")
    shared = build(SHARED, game="axiom(sceptre_clearance=tall)")
    with pytest.raises(IllegalMove, match="another sceptre's air cell"):
        shared.play("S(-1,0,1) S(0,0,1)z+")
