"""Scenario tests for cube moves: which cubes may move and every placement rule."""

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


def refused(state: State, move: str) -> str:
    """Play an illegal move; return the error message after checking nothing changed."""
    before = state.position()
    with pytest.raises(IllegalMove) as info:
        state.play(move)
    assert state.position() == before
    return str(info.value)


# (0,0,1) carries (0,0,2); (1,0,1) carries (1,0,2) with a White sceptre on top; the Black
# single (-2,0,1) is free; (-1,0,1) links it to the rest.
BASE = """
(black) C (0,0,1)x- z+
(white) C (1,0,1)x+ z+
(black) C (0,0,2)y-
(white) C (1,0,2)x+
(white) S (1,0,2)z+
(black) C (-1,0,1)y-
(black) C (-2,0,1)x+
"""


def test_movable_cubes_are_own_free_and_uncovered() -> None:
    sources = {m.split()[0] for m in texts(build(BASE), "C")}
    assert sources == {"C(0,0,2)", "C(-1,0,1)", "C(-2,0,1)"}


def test_a_cube_under_another_cannot_move() -> None:
    message = refused(build(BASE), "C(0,0,1) C(0,-1,1)y+")
    assert "under the cube at (0,0,2)" in message


def test_a_cube_with_a_sceptre_cannot_move() -> None:
    state = build(BASE + "(black) S (-1,0,1)y+\n")
    assert "C(-1,0,1)" not in {m.split()[0] for m in texts(state, "C")}
    assert "sceptre stands on the cube at (-1,0,1)" in refused(state, "C(-1,0,1) C(2,0,1)y-")


def test_a_player_moves_only_own_cubes() -> None:
    assert "is white's" in refused(build(BASE), "C(1,0,2) C(2,0,1)x-")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("C(0,0,2) C(1,0,1)z-", "occupied"),
        ("C(0,0,2) C(1,0,3)z-", "air cell of a sceptre"),
        ("C(0,0,2) C(2,0,2)x-", "no cube below it (gravity)"),
        ("C(0,0,2) C(2,0,1)z-", "dome may not face the table"),
        ("C(0,0,2) C(2,0,1)x-", "dome would touch a dome of the cube at (1,0,1)"),
        ("C(0,0,2) C(0,-1,1)y-", "interlocks with no cube"),
        ("C(-2,0,1) C(-1,0,2)x+", "must interlock with the cube below at (-1,0,1)"),
        ("C(0,0,2) C(0,-1,1)x+ y-", "single-domed"),
        ("C(0,0,2) C(9,9,1)x+", "touch no other cube"),
        ("C(0,0,2) C(0,0,2)x+", "re-orientated in the same place"),
    ],
)
def test_placements_refused_with_the_reason(move: str, reason: str) -> None:
    assert reason in refused(build(BASE), move)


def test_the_same_cells_accept_a_fitting_orientation() -> None:
    moves = texts(build(BASE), "C")
    assert "C(0,0,2) C(2,0,1)y-" in moves  # recess against the dome of (1,0,1)
    assert "C(0,0,2) C(0,-1,1)y+" in moves  # dome into the recess of (0,0,1)
    assert "C(-2,0,1) C(-1,0,2)z-" in moves  # dome down into the top of (-1,0,1)


def test_forbid_recess_contact() -> None:
    move = "C(-2,0,1) C(-1,0,2)z-"  # its recessed east face meets the recessed west of (0,0,2)
    assert move in texts(build(BASE), "C")
    state = build(BASE, game="axiom(forbid_recess_contact=true)")
    assert "recess against a recess" in refused(state, move)


def test_require_connected() -> None:
    move = "C(-1,0,1) C(2,0,1)y-"  # lifting the link strands (-2,0,1)
    assert move in texts(build(BASE), "C")
    state = build(BASE, game="axiom(require_connected=true)")
    assert "split" in refused(state, move)
    assert "C(0,0,2) C(2,0,1)y-" in texts(state, "C")


def test_tall_sceptre_keeps_cubes_two_cells_from_its_face() -> None:
    listing = """
(white) C (0,0,1)y-
(white) S (0,0,1)x+
(black) C (3,0,1)y-
(black) C (4,0,1)y-
"""
    move = "C(4,0,1) C(2,0,1)x+"
    assert move in texts(build(listing), "C")
    state = build(listing, game="axiom(sceptre_clearance=tall)")
    assert "reach of a tall sceptre" in refused(state, move)
    assert "air cell of a sceptre" in refused(state, "C(4,0,1) C(1,0,1)y-")


# The SIDE board of the sceptre tests: (0,-1,2) hangs from (0,0,2) (overhang).
SIDE = """
(black) C (0,0,1)y+ z+
(white) C (1,0,1)y+ z+
(black) C (0,0,2)y+
(white) C (1,0,2)y+
(black) C (1,-1,1)y+
(white) C (0,-1,2)y+
"""
OVERHANG = "axiom(allow_overhang=true)"


def test_overhang_a_cube_holding_a_hanging_cube_cannot_move() -> None:
    state = build(SIDE, game=OVERHANG)
    assert not texts(state, "C(0,0,2)")
    assert "hanging" in refused(state, "C(0,0,2) C(2,0,1)y+")


def test_overhang_no_cube_under_a_hanging_cube() -> None:
    state = build(SIDE, game=OVERHANG)
    assert "under another cube" in refused(state, "C(1,-1,1) C(0,-1,1)y+")


def test_overhang_hanging_placement_needs_an_interlock() -> None:
    state = build(SIDE, game=OVERHANG)
    moves = texts(state, "C(1,-1,1)")
    assert "C(1,-1,1) C(2,0,1)x-" in moves
    assert "C(1,-1,1) C(2,0,2)x-" in moves  # hangs from the recessed east face of (1,0,2)
    grounded = SIDE.replace("(white) C (0,-1,2)y+\n", "")
    assert "C(1,-1,1) C(2,0,2)x-" not in texts(build(grounded), "C")
