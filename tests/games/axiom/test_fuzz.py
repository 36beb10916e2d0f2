"""Fuzzing: arbitrary text never crashes the readers; rejected input changes nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import gameshelf
from gameshelf.core import GameshelfError
from gameshelf.games.axiom import load_listing

GAME = gameshelf.load("axiom")
PIECES = st.sampled_from(["S", "C", "s", "X", ""])
CELL = st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-1, 4)).map(
    lambda c: f"({c[0]},{c[1]},{c[2]})"
)
DIRS = st.lists(st.sampled_from(["x+", "x-", "y+", "y-", "z+", "z-", "q+", ""]), max_size=3).map(
    " ".join
)
MOVES = st.builds(lambda p, a, q, b, d: f"{p}{a} {q}{b}{d}", PIECES, CELL, PIECES, CELL, DIRS)


@settings(max_examples=300, deadline=None)
@given(st.one_of(MOVES, st.text(max_size=40)))
def test_any_move_text_is_played_or_refused_cleanly(text: str) -> None:
    state = GAME.new_initial_state()
    before = state.position()
    try:
        state.play(text)
    except GameshelfError:
        assert state.position() == before
    else:
        assert state.position() != before


LINES = st.builds(
    lambda c, p, cell, d: f"({c}) {p} {cell}{d}",
    st.sampled_from(["black", "white", "red"]),
    st.sampled_from(["C", "S"]),
    CELL,
    DIRS,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=8), st.sampled_from(["black", "white"]))
def test_any_listing_is_read_or_refused_cleanly(lines: list[str], to_move: str) -> None:
    try:
        state = load_listing(GAME, "\n".join(lines), to_move)
    except GameshelfError:
        return
    again = GAME.state_from_position(state.position())
    assert again.position() == state.position()
    for move in state.legal_moves():
        assert state.parse_action(move.text) == move.action
