"""Notation, listings, positions, options and bad input."""

from __future__ import annotations

import pytest

import gameshelf
from gameshelf.core import IllegalMove, InvalidMove, InvalidOption, InvalidPosition, State
from gameshelf.games.axiom import load_listing, render_svg
from gameshelf.games.axiom.actions import decode

GAME = gameshelf.load("axiom")
LISTING = """
(black) C (0,0,1)y- z+
(white) C (1,0,1)y-
(black) C (0,0,2)x+
(black) S (0,0,2)z+
(white) S (1,0,1)z+
"""


def test_listing_reads_dome_sets_in_any_order_and_writes_canonically() -> None:
    state = load_listing(GAME, LISTING.replace("y- z+", "z+,  y-"), "white")
    assert state.listing().splitlines() == [  # type: ignore[attr-defined]
        "(black) C (0,0,1)y- z+",
        "(black) C (0,0,2)x+",
        "(black) S (0,0,2)z+",
        "(white) C (1,0,1)y-",
        "(white) S (1,0,1)z+",
    ]
    assert state.current_player() == 1


def test_every_move_is_written_and_read_back() -> None:
    state = GAME.new_initial_state()
    for move in state.legal_moves():
        assert state.parse_action(move.text) == move.action
        assert state.parse_action(" " + move.text.replace(",", ", ").lower() + " ") == move.action


def test_cube_move_dome_sets_are_sets() -> None:
    state = load_listing(GAME, "(black) C (0,0,1)x- z+\n(black) C (0,0,2)y-\n", "black")
    one = state.parse_action("C(0,0,2) C(1,0,1)y+ x-")
    assert one == state.parse_action("C(0,0,2) C(1,0,1)x- y+")


def test_position_round_trip_with_headers() -> None:
    state = GAME.new_initial_state()
    state.play("S(-1,0,2) S(-1,0,2)x-")
    state.play("S(-1,1,2) S(-1,0,2)z+")
    text = state.position()
    assert "result: white-wins capture" in text
    again = GAME.state_from_position(text)
    assert again.position() == text
    assert again.is_terminal() and again.returns() == [-1.0, 1.0]


def test_a_bare_listing_is_a_position_with_black_to_move() -> None:
    state = GAME.state_from_position(LISTING)
    assert state.current_player() == 0
    assert GAME.state_from_position(state.position()).position() == state.position()


@pytest.mark.parametrize(
    ("listing", "reason"),
    [
        ("(black) C (0,0,1)y-\n(white) C (0,0,1)x+\n", "two cubes in one cell (0,0,1)"),
        ("(black) C (0,0,1)y-\n(black) S (0,0,1)y-\n", "is a dome"),
        ("(black) C (0,0,1)y-\n(black) C (0,0,3)y-\n", "(0,0,3) floats"),
        ("(black) C (0,0,1)z-\n", "dome facing the table"),
        ("(black) C (0,0,0)y-\n", "below the table"),
        ("(black) C (0,0,1)x+ x-\n", "adjacent faces"),
        ("(black) C (0,0,1)x+ y+ z+\n", "one or two domes"),
        ("(black) C (0,0,1)x+\n(white) C (1,0,1)x-\n", "dome to dome"),
        ("(black) C (0,0,1)y-\n(black) C (0,0,2)y-\n(black) S (0,0,1)z+\n", "covered by the cube"),
        ("(black) C (0,0,1)y-\n(black) S (0,0,1)z+\n(white) S (0,0,1)x+\n", "two sceptres"),
        ("(black) S (0,0,1)z+\n", "no cube at (0,0,1)"),
        ("(black) C (0,0,1)q+\n", "'q+' is not a direction"),
        ("black C (0,0,1)y-\n", "not a listing line"),
        ("(red) C (0,0,1)y-\n", "not a listing line"),
        ("(black) S (0,0,1)z+ x+\n(black) C (0,0,1)y-\n", "exactly one face"),
    ],
)
def test_bad_listings_are_refused_with_the_reason(listing: str, reason: str) -> None:
    with pytest.raises(InvalidPosition) as info:
        load_listing(GAME, listing, "black")
    assert reason in str(info.value)


def test_bad_side_to_move() -> None:
    with pytest.raises(InvalidPosition, match="black or white"):
        load_listing(GAME, LISTING, "red")


def test_too_many_pieces() -> None:
    singles = "".join(f"(black) C ({x},0,1)y-\n" for x in range(4))
    with pytest.raises(InvalidPosition, match="4 single-domed"):
        load_listing(GAME, singles, "black")


@pytest.mark.parametrize(
    ("move", "error", "reason"),
    [
        ("S(-1,0,2)", InvalidMove, "not an Axiom move"),
        ("X(0,0,1) X(0,0,2)z+", InvalidMove, "not an Axiom move"),
        ("S(-1,0,2) S(0,0,2)", InvalidMove, "exactly one face"),
        ("S(-1,0,2) S(0,0,2)z+ x+", InvalidMove, "exactly one face"),
        ("C(0,0,2) C(0,2,1)", InvalidMove, "one or two dome"),
        ("C(0,0,2) C(0,2,1)x+ x+", InvalidMove, "given twice"),
        ("C(0,0,2) C(0,2,1)w+", InvalidMove, "not a direction"),
        ("S(5,5,5) S(0,0,2)z+", IllegalMove, "no cube at (5,5,5)"),
        ("S(-1,0,2) S(5,5,5)z+", IllegalMove, "no cube at (5,5,5)"),
        ("S(0,0,2) S(0,0,1)y+", IllegalMove, "no black sceptre"),
        ("S(-1,0,2) S(1,0,2)z+", IllegalMove, "already stands"),
        ("S(-1,0,2) S(-1,0,1)x-", IllegalMove, "is a dome"),
        ("S(-1,0,2) S(0,0,1)z+", IllegalMove, "covered by the cube at (0,0,2)"),
        ("S(-1,0,2) S(1,0,1)y-", IllegalMove, "no straight lateral or diagonal path"),
        ("C(0,0,2) C(0,2,1)x+ x-", IllegalMove, "opposite faces"),
        ("C(1,1,2) C(2,1,1)x-", IllegalMove, "white's"),
    ],
)
def test_bad_moves_are_refused_and_leave_the_state_unchanged(
    move: str, error: type[Exception], reason: str
) -> None:
    state = GAME.new_initial_state()
    before = state.position()
    with pytest.raises(error) as info:
        state.play(move)
    assert reason in str(info.value)
    assert state.position() == before


def test_out_of_range_action_ids_are_refused() -> None:
    state = GAME.new_initial_state()
    for action in (-1, 10**6, 11 * 72 + 11 * 6):
        with pytest.raises(IllegalMove):
            state.play(action)


@pytest.mark.parametrize(
    ("game_string", "reason"),
    [
        ("axiom(colour=red)", "has no option 'colour'"),
        ("axiom(sceptre_clearance=short)", "air | tall"),
        ("axiom(repetition_draw=1)", "0 (off)"),
        ("axiom(max_plies=0)", "below the minimum"),
        ("axiom(allow_overhang=maybe)", "true or false"),
        ('axiom(setup="C(0,0,1)q+")', "not a direction"),
        ('axiom(setup="C(0,0,2)y-")', "floats"),
    ],
)
def test_bad_options(game_string: str, reason: str) -> None:
    with pytest.raises(InvalidOption) as info:
        gameshelf.load(game_string)
    assert reason in str(info.value)


def test_custom_symmetric_setup() -> None:
    game = gameshelf.load('axiom(setup="C(0,0,1)x+ y-; C(0,0,2)z-; S(0,0,2)x+")')
    state = game.new_initial_state()
    assert state.listing().splitlines() == [  # type: ignore[attr-defined]
        "(black) C (0,0,1)x+ y-",
        "(black) C (0,0,2)z-",
        "(black) S (0,0,2)x+",
        "(white) C (0,1,1)x- y+",
        "(white) C (0,1,2)z-",
        "(white) S (0,1,2)x-",
    ]
    assert "setup=" in game.game_string
    assert gameshelf.load(game.game_string).new_initial_state().position() == state.position()


def test_game_string_canonical_and_spec() -> None:
    game = gameshelf.load("axiom(sceptre_clearance=tall,allow_overhang=true)")
    assert game.game_string == "axiom(sceptre_clearance=tall,allow_overhang=true)"
    assert gameshelf.load("axiom").game_string == "axiom"
    assert game.spec.num_players == 2 and not game.spec.chance


def render_all(state: State) -> tuple[str, str]:
    return state.render(color=False), render_svg(state)


def test_renderings_show_every_piece() -> None:
    state = GAME.new_initial_state()
    text, svg = render_all(state)
    assert "z=2" in text and "z=1" in text
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count('class="cube') == 12
    assert svg.count('class="sceptre') == 4
    assert "\x1b[" in state.render(color=True)


def test_docs_examples_run() -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parents[3] / "docs" / "games" / "axiom.md"
    text = page.read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert blocks
    for block in blocks:
        exec(compile(block, str(page), "exec"), {})
    assert "(axiom-start.svg)" in text
    assert (page.parent / "axiom-start.svg").read_text(encoding="utf-8").startswith("<svg")


CUBE_MOVE_LISTING = """
(black) C (0,0,1)x- z+
(white) C (1,0,1)x+ z+
(black) C (0,0,2)y-
(black) C (-1,0,1)y-
(black) C (-2,0,1)x+
"""
"""A position where black's cube at (-2,0,1) has a move to (-1,0,2) that two ids can name."""


def test_a_non_canonical_cube_action_id_is_refused_with_the_right_id() -> None:
    from gameshelf.games.axiom.geometry import PLACEMENT_INDEX, ZM, ZP
    from gameshelf.games.axiom.rules import SCEPTRE_ACTIONS

    state = load_listing(GAME, CUBE_MOVE_LISTING, "black")
    legal = state.parse_action("C(-2,0,1) C(-1,0,2)z-")
    assert legal in state.legal_actions()
    cells = sorted(state.cubes)  # type: ignore[attr-defined]
    rank = {cell: index for index, cell in enumerate(cells)}
    codes = [rank[(-1, 0, 1)] * 6 + ZP, rank[(0, 0, 2)] * 6 + 1]  # from below, from the east
    ids = {
        SCEPTRE_ACTIONS + (rank[(-2, 0, 1)] * 72 + code) * 18 + PLACEMENT_INDEX[1 << ZM]
        for code in codes
    }
    assert legal in ids and len(ids) == 2
    (other,) = ids - {legal}
    before = state.position()
    with pytest.raises(IllegalMove, match=f"its id is {legal}"):
        state.play(other)
    assert state.position() == before


@pytest.mark.parametrize(
    "move",
    [
        "S(" + "9" * 5000 + ",0,2) S(0,0,2)z+",  # int() refuses 4300+ digits: a bare ValueError
        "C(0,0,2) C(-2,0," + "1" * 5000 + ")x-",
        "S(-1,0,2) S(0,0,99999999999999999999)z+",
    ],
)
def test_overlong_coordinates_are_invalid_moves(move: str) -> None:
    state = GAME.new_initial_state()
    before = state.position()
    with pytest.raises(InvalidMove, match="more than 9 digits"):
        state.play(move)
    assert state.position() == before


def test_overlong_coordinates_in_a_listing_name_the_line() -> None:
    with pytest.raises(InvalidPosition, match=r"line 2 .*more than 9 digits"):
        load_listing(GAME, "(black) C (0,0,1)y-\n(black) C (0," + "7" * 5000 + ",1)y-\n", "black")


def test_coordinates_are_ascii_digits_with_leading_zeros_allowed() -> None:
    state = GAME.new_initial_state()
    with pytest.raises(InvalidMove, match="not an Axiom move"):
        state.play("S(-\u0661,0,2) S(0,0,2)z+")  # an Arabic-Indic one, which int() reads as 1
    assert str(state.play("S(-0000000001,0,2) S(0,0,2)z+")) == "S(-1,0,2) S(0,0,2)z+"


@pytest.mark.parametrize("ply", ["+5", "1_0", "٣", "５", "0x5", "5.0", "-1", "9" * 40])
def test_ply_is_a_plain_ascii_decimal(ply: str) -> None:
    """``int()`` reads ``+5``, ``1_0`` and other scripts' digits: a position must not."""
    text = GAME.new_initial_state().position()
    assert GAME.state_from_position(text.replace("ply: 0", "ply: 5")).ply == 5  # type: ignore[attr-defined]
    with pytest.raises(InvalidPosition, match="ply"):
        GAME.state_from_position(text.replace("ply: 0", f"ply: {ply}"))


@pytest.mark.parametrize("count", ["٣", "²", "+3", "0", "9" * 5000])
def test_seen_counts_are_plain_ascii_decimals(count: str) -> None:
    text = GAME.new_initial_state().position()
    digest = text.split("seen: ")[1].split(":")[0]
    assert f"seen: {digest}:1\n" in text
    with pytest.raises(InvalidPosition, match="seen entry"):
        GAME.state_from_position(text.replace(f"{digest}:1", f"{digest}:{count}"))


@pytest.mark.parametrize("value", ["1_0", "+3", "٣"])
def test_repetition_draw_option_is_a_plain_ascii_decimal(value: str) -> None:
    with pytest.raises(InvalidOption, match="repetition_draw"):
        gameshelf.load(f"axiom(repetition_draw={value})")


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ("ply: 300\nresult: -", "'draw ply-cap' there"),
        ("ply: 301\nresult: draw ply-cap", "beyond max_plies=300"),
        ("ply: 12\nresult: draw ply-cap", "it is '-' there"),
        ("ply: 12\nresult: black-wins capture", "it is '-' there"),
        ("ply: 12\nresult: white-wins self-capture", "it is '-' there"),
        ("ply: 12\nresult: draw repetition", "it is '-' there"),
        ("ply: 12\nresult: draw no-move", "never stored"),
        ("ply: 12\nresult: white-wins no-move", "never stored"),
    ],
)
def test_ply_and_result_must_be_what_the_engine_concludes(headers: str, reason: str) -> None:
    """A stated result that the board does not give (or a ply past the cap) is refused."""
    text = GAME.new_initial_state().position().replace("ply: 0\nresult: -", headers)
    with pytest.raises(InvalidPosition, match=reason):
        GAME.state_from_position(text)


def test_results_the_engine_wrote_read_back_and_no_other() -> None:
    capture = GAME.new_initial_state()
    capture.play("S(-1,0,2) S(-1,0,2)x-")
    capture.play("S(-1,1,2) S(-1,0,2)z+")
    capped = gameshelf.load("axiom(max_plies=2)").new_initial_state()
    capped.play("S(-1,0,2) S(-1,0,2)x-")
    capped.play("S(1,1,2) S(1,1,2)x+")
    repeated = gameshelf.load("axiom(repetition_draw=2)").new_initial_state()
    for move in ("S(-1,0,2) S(-1,0,2)x-", "S(1,1,2) S(1,1,2)x+"):
        repeated.play(move)
    for move in ("S(-1,0,2) S(-1,0,2)z+", "S(1,1,2) S(1,1,2)z+"):  # the start again: 2nd time
        repeated.play(move)
    cases = [(capture, "white-wins capture"), (capped, "draw ply-cap")]
    cases.append((repeated, "draw repetition"))
    for state, result in cases:
        text = state.position()
        assert f"result: {result}\n" in text, text
        game = state.game
        assert game.state_from_position(text).position() == text
        for other in ("-", "black-wins capture", "draw repetition", "draw ply-cap"):
            if other != result:
                with pytest.raises(InvalidPosition, match="disagrees with the position"):
                    game.state_from_position(text.replace(f"result: {result}", f"result: {other}"))


def test_action_to_string_refuses_ids_that_are_no_legal_move() -> None:
    """Ids are state-relative: an id that is no legal move of either side is refused, never
    printed as the text of another move (here a non-canonical id of a legal cube move)."""
    state = load_listing(GAME, CUBE_MOVE_LISTING, "black")
    legal = state.parse_action("C(-2,0,1) C(-1,0,2)z-")
    assert state.action_to_string(legal) == "C(-2,0,1) C(-1,0,2)z-"
    from gameshelf.games.axiom.geometry import PLACEMENT_INDEX, ZM
    from gameshelf.games.axiom.rules import SCEPTRE_ACTIONS

    rank = {cell: index for index, cell in enumerate(sorted(state.cubes))}  # type: ignore[attr-defined]
    # the same cube, target and domes, anchored from the east instead of from below
    code = rank[(0, 0, 2)] * 6 + 1
    other = SCEPTRE_ACTIONS + (rank[(-2, 0, 1)] * 72 + code) * 18 + PLACEMENT_INDEX[1 << ZM]
    assert other != legal
    assert state.move_text(decode(state.board, other)) == "C(-2,0,1) C(-1,0,2)z-"  # type: ignore[attr-defined]
    before = state.position()
    for action in (other, True, False, -1, 10**9, 11 * 72 + 11 * 6):
        with pytest.raises(IllegalMove):
            state.action_to_string(action)
    assert state.position() == before
    start = GAME.new_initial_state()
    for player in (0, 1):  # either side's moves are written (bots read the opponent's)
        for action in start.moves_of(player):  # type: ignore[attr-defined]
            assert start.parse_action(start.action_to_string(action)) == action
    assert [m.action for m in start.legal_moves()] == start.legal_actions()
