"""The start-position facts of rules/axiom.md and perft from the start."""

from __future__ import annotations

import gameshelf
from gameshelf.core.perft import divide, perft

START_MOVES = {
    # sceptre on (-1,0,2): flat east, own west face, own south face, down onto (-1,0,1), diagonal
    "S(-1,0,2) S(0,0,2)z+",
    "S(-1,0,2) S(-1,0,2)x-",
    "S(-1,0,2) S(-1,0,2)y-",
    "S(-1,0,2) S(-1,0,1)y-",
    "S(-1,0,2) S(0,1,2)z+",
    # sceptre on (1,0,2): its east face is a dome, so one fewer
    "S(1,0,2) S(0,0,2)z+",
    "S(1,0,2) S(1,0,2)y-",
    "S(1,0,2) S(1,0,1)y-",
    "S(1,0,2) S(0,1,2)z+",
    # the free cube (0,0,2), single-domed: 23 placements
    "C(0,0,2) C(-2,0,1)x-",
    "C(0,0,2) C(-2,0,1)y+",
    "C(0,0,2) C(-2,0,1)y-",
    "C(0,0,2) C(-2,0,1)z+",
    "C(0,0,2) C(-2,1,1)x+",
    "C(0,0,2) C(-1,-1,1)y+",
    "C(0,0,2) C(-1,2,1)y-",
    "C(0,0,2) C(0,-1,1)x+",
    "C(0,0,2) C(0,-1,1)x-",
    "C(0,0,2) C(0,-1,1)y-",
    "C(0,0,2) C(0,-1,1)z+",
    "C(0,0,2) C(0,2,1)x+",
    "C(0,0,2) C(0,2,1)x-",
    "C(0,0,2) C(0,2,1)y+",
    "C(0,0,2) C(0,2,1)z+",
    "C(0,0,2) C(0,1,3)z-",
    "C(0,0,2) C(1,-1,1)y+",
    "C(0,0,2) C(1,2,1)y-",
    "C(0,0,2) C(2,0,1)x-",
    "C(0,0,2) C(2,1,1)x+",
    "C(0,0,2) C(2,1,1)y+",
    "C(0,0,2) C(2,1,1)y-",
    "C(0,0,2) C(2,1,1)z+",
}


def start(game: str = "axiom") -> gameshelf.State:
    return gameshelf.load(game).new_initial_state()


def test_start_listing_matches_the_rules_table() -> None:
    state = start()
    assert state.current_player() == 0
    listing = state.listing()  # type: ignore[attr-defined]
    for line in (
        "(black) C (-1,0,1)x- z+",
        "(black) C (0,0,1)x- y-",
        "(black) C (1,0,1)x- z+",
        "(black) C (-1,0,2)x+",
        "(black) C (0,0,2)z-",
        "(black) C (1,0,2)x+",
        "(white) C (1,1,1)x+ z+",
        "(white) C (0,1,1)x+ y+",
        "(white) C (-1,1,1)x+ z+",
        "(white) C (1,1,2)x-",
        "(white) C (0,1,2)z-",
        "(white) C (-1,1,2)x-",
        "(black) S (-1,0,2)z+",
        "(black) S (1,0,2)z+",
        "(white) S (1,1,2)z+",
        "(white) S (-1,1,2)z+",
    ):
        assert line in listing.splitlines()
    assert len(listing.splitlines()) == 16


def test_black_has_32_first_moves_9_sceptre_23_cube() -> None:
    moves = {m.text for m in start().legal_moves()}
    assert moves == START_MOVES
    assert len(moves) == 32
    assert sum(1 for m in moves if m.startswith("S(-1,0,2)")) == 5
    assert sum(1 for m in moves if m.startswith("S(1,0,2)")) == 4
    assert sum(1 for m in moves if m.startswith("C(0,0,2)")) == 23


def test_three_first_moves_lose_at_once() -> None:
    losing = set()
    for move in start().legal_moves():
        state = start()
        state.play(move.text)
        for reply in state.legal_moves():
            after = state.clone()
            after.play(reply.text)
            if after.is_terminal() and after.returns() == [-1.0, 1.0]:
                losing.add(move.text)
    assert losing == {
        "S(-1,0,2) S(-1,0,2)x-",
        "S(-1,0,2) S(-1,0,2)y-",
        "S(1,0,2) S(1,0,2)y-",
    }


def test_white_wins_by_stepping_onto_the_vacated_top() -> None:
    state = start()
    state.play("S(-1,0,2) S(-1,0,2)x-")
    state.play("S(-1,1,2) S(-1,0,2)z+")
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]
    assert state.result_text() == "white wins (capture)"


def test_overhang_gives_the_free_cube_40_placements() -> None:
    moves = {m.text for m in start("axiom(allow_overhang=true)").legal_moves()}
    assert sum(1 for m in moves if m.startswith("C")) == 40
    assert {m for m in moves if m.startswith("S")} == {m for m in START_MOVES if m[0] == "S"}
    # a hanging placement: west of (-1,0,2), whose west face is a recess, showing a dome x+
    assert "C(0,0,2) C(-2,0,2)x+" in moves


def test_other_options_keep_the_start_facts() -> None:
    for options in ("sceptre_clearance=tall", "diagonal_squeeze=off", "forbid_recess_contact=true"):
        assert len(start(f"axiom({options})").legal_moves()) == 32
    assert len(start("axiom(diagonal_moves=false)").legal_moves()) == 30


def test_perft_depth_1_to_3() -> None:
    state = start()
    assert perft(state, 1) == 32
    # Depth 2 = sum over Black's 32 first moves of White's replies. White's own mirror set is
    # 9 sceptre moves + 23 placements of (0,1,2) = 32; Black's move changes it:
    # * 9 cube moves far from White's pieces leave 32;
    # * placements beside White's free cube add or remove cells for it (33, 34, 35);
    # * sceptre moves that vacate a top let a White sceptre step there (33, 34, 36);
    # * S(..) S(0,1,2)z+ (either sceptre) pins White's only free cube: no cube move; White's
    #   sceptres lose the top of (0,1,2) (9 - 2 = 7) but the one facing the vacated top gains
    #   it, its south face and the south face below (+3) -> 10;
    # * C(0,0,2) C(0,1,3)z- covers White's free cube: no cube move, and the new cube's faces
    #   beside White's sceptres' air cells are refused -> 9.
    # 10*34 + 9*32 + 8*33 + 2*10 + 36 + 9 + 35 = 992.
    rows = dict(divide(state, 2))
    assert sum(rows.values()) == perft(state, 2) == 992
    assert rows["S(-1,0,2) S(0,1,2)z+"] == rows["S(1,0,2) S(0,1,2)z+"] == 10
    assert rows["C(0,0,2) C(0,1,3)z-"] == 9
    assert rows["S(-1,0,2) S(-1,0,2)x-"] == 36
    assert sorted(rows.values()).count(32) == 9
    assert perft(state, 3) == 68722


def test_white_replies_after_covering_its_free_cube() -> None:
    state = start()
    state.play("C(0,0,2) C(0,1,3)z-")
    assert {m.text for m in state.legal_moves()} == {
        "S(1,1,2) S(0,1,3)x+",
        "S(1,1,2) S(0,1,3)z+",
        "S(1,1,2) S(1,1,2)x+",
        "S(1,1,2) S(1,1,2)y+",
        "S(1,1,2) S(1,1,1)y+",
        "S(-1,1,2) S(0,1,3)x-",
        "S(-1,1,2) S(0,1,3)z+",
        "S(-1,1,2) S(-1,1,2)y+",
        "S(-1,1,2) S(-1,1,1)y+",
    }
