"""The ``seen`` header must count the position to move, as the engine's own map always does.

A ``seen`` without the current position's digest used to load, and the loaded game then
reached ``repetition_draw`` one occurrence late. The only positions the engine writes without
it are those a capture ended (no position is recorded after a capturing move).
"""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.core.errors import InvalidPosition
from gameshelf.games.axiom import load_listing
from gameshelf.games.axiom.board import key_digest, repetition_key

SHUFFLE = [
    "S(-1,0,2) S(-1,0,1)y-",
    "S(1,1,2) S(1,1,1)y+",
    "S(-1,0,1) S(-1,0,2)z+",
    "S(1,1,1) S(1,1,2)z+",
]

# Black's sceptre steps onto the cube of White's: a capture ends the game.
CAPTURE = """
(white) C (0,0,1)y-
(black) C (1,0,1)y-
(black) S (0,0,1)y+
(white) S (1,0,1)x+
"""


def _seen_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("seen:"))


def _without_current(text: str, digest: str) -> str:
    line = _seen_line(text)
    words = [w for w in line.split()[1:] if not w.startswith(digest + ":")]
    return text.replace(line, "seen: " + " ".join(words))


def _current_digest(state: gameshelf.core.State) -> str:
    return key_digest(repetition_key(state.board, state.to_move))  # type: ignore[attr-defined]


def test_a_seen_without_the_position_to_move_is_refused() -> None:
    game = gameshelf.load("axiom")
    state = game.new_initial_state()
    for move in SHUFFLE:  # back at the start: seen counts it twice
        state.play(move)
    text = state.position()
    digest = _current_digest(state)
    assert f"{digest}:2" in _seen_line(text)
    # the audit's case: without the entry the start would count 1 after four more plies, not 3
    with pytest.raises(InvalidPosition, match="seen does not count the position to move"):
        game.state_from_position(_without_current(text, digest))
    with pytest.raises(InvalidPosition, match="seen does not count the position to move"):
        game.state_from_position(text.replace(_seen_line(text), "seen: "))
    # what the engine wrote reads back, and the third occurrence draws on time
    again = game.state_from_position(text)
    assert again.position() == text
    for ply, move in enumerate(SHUFFLE):
        assert not again.is_terminal(), ply
        again.play(move)
    assert again.is_terminal() and again.result_text() == "draw (repetition)"


def test_a_capture_is_not_counted_and_not_counted_twice() -> None:
    game = gameshelf.load("axiom")
    state = load_listing(game, CAPTURE, "black")
    state.play("S(0,0,1) S(1,0,1)y+")
    assert state.is_terminal() and state.result_text() == "black wins (capture)"
    text = state.position()
    digest = _current_digest(state)
    assert digest not in _seen_line(text)  # the engine records no position after a capture
    assert game.state_from_position(text).position() == text
    # without a seen header the position counts once, as the engine then writes it
    headless = text.replace(_seen_line(text) + "\n", "")
    once = game.state_from_position(headless).position()
    assert f"{digest}:1" in _seen_line(once)
    assert game.state_from_position(once).position() == once
    twice = text.replace(_seen_line(text), _seen_line(text) + f" {digest}:2")
    with pytest.raises(InvalidPosition, match="cannot have occurred before"):
        game.state_from_position(twice)


@pytest.mark.parametrize("seed", range(6))
def test_every_position_of_a_random_game_reads_back(seed: int) -> None:
    game = gameshelf.load("axiom(max_plies=80,repetition_draw=2)")
    state = game.new_initial_state()
    rng = random.Random(seed)
    while True:
        text = state.position()
        assert game.state_from_position(text).position() == text
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def _replace_count(text: str, digest: str, count: int) -> str:
    line = _seen_line(text)
    words = [w for w in line.split()[1:] if not w.startswith(digest + ":")]
    return text.replace(line, "seen: " + " ".join([*words, f"{digest}:{count}"]))


def test_seen_counts_beyond_what_the_game_could_reach_are_refused() -> None:
    game = gameshelf.load("axiom")  # repetition_draw=3
    state = game.new_initial_state()
    for move in SHUFFLE:
        state.play(move)
    text = state.position()  # ply 4, the start counted twice, three other positions once
    current = _current_digest(state)
    assert "ply: 4" in text and f"{current}:2" in _seen_line(text)
    others = [w.split(":")[0] for w in _seen_line(text).split()[1:] if not w.startswith(current)]
    # more occurrences than plies: 2 + 1 + 1 + 2 = 6 > 5 positions by ply 4
    with pytest.raises(InvalidPosition, match="seen counts 6 occurrences, but at ply 4 only 5"):
        game.state_from_position(_replace_count(text, others[0], 2))
    # a position other than the one to move counted 3 times would have ended the game
    late = text.replace("ply: 4", "ply: 9")
    with pytest.raises(InvalidPosition, match=f"position {others[0]} 3 times.*not the position"):
        game.state_from_position(_replace_count(late, others[0], 3))
    # the position to move may reach the limit (with its draw), never pass it
    drawn = _replace_count(late, current, 3).replace("result: -", "result: draw repetition")
    assert game.state_from_position(drawn).result_text() == "draw (repetition)"
    with pytest.raises(InvalidPosition, match=f"position {current} 4 times"):
        game.state_from_position(_replace_count(drawn, current, 4))
    # with the repetition rule off only the total is bounded
    free = gameshelf.load("axiom(repetition_draw=0)")
    text_off = free.state_from_position(text).position().replace("ply: 4", "ply: 9")
    assert free.state_from_position(_replace_count(text_off, others[0], 5)).ply == 9
