"""Bad input gets a clear error naming the problem, and changes nothing."""

from __future__ import annotations

import pytest

import gameshelf
from gameshelf.core.errors import (
    GameOver,
    IllegalMove,
    InvalidGameString,
    InvalidMove,
    InvalidOption,
    InvalidPosition,
    NotYourTurn,
    UnknownGame,
)

from .conftest import cage_state


@pytest.mark.parametrize(
    ("game_string", "error", "words"),
    [
        ("chess", UnknownGame, ["chess", "cage"]),
        ("cage(colour=3)", InvalidOption, ["colour", "players", "simultaneous"]),
        ("cage(players=5)", InvalidOption, ["players=", "maximum 4"]),
        ("cage(players=two)", InvalidOption, ["players", "integer"]),
        (
            "cage(simultaneous=maybe)",
            InvalidOption,
            ["simultaneous", "draw | mover_priority | shared"],
        ),
        ("cage(no_reverse=always)", InvalidOption, ["no_reverse", "semantic"]),
        ("cage(allow_noop_twists=perhaps)", InvalidOption, ["allow_noop_twists", "true or false"]),
        ("cage(repetition_draw=1)", InvalidOption, ["repetition_draw", "0 (off)"]),
        ("cage(max_plies=0)", InvalidOption, ["max_plies", "minimum 1"]),
        ("cage(stock=8:8:1)", InvalidOption, ["stock", "3 counts", "players=2"]),
        ("cage(stock=20:20)", InvalidOption, ["stock", "24"]),
        ("cage(stock=a:b)", InvalidOption, ["stock", "integers"]),
        ("cage(players=2", InvalidGameString, ["game string"]),
        ("cage(players)", InvalidGameString, ["key=value"]),
        ("cage(players=2,players=3)", InvalidGameString, ["twice"]),
    ],
)
def test_bad_game_strings_name_the_problem(game_string: str, error: type, words: list[str]) -> None:
    with pytest.raises(error) as caught:
        gameshelf.load(game_string)
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_game_strings_are_canonical_and_round_trip() -> None:
    game = gameshelf.load(" CAGE( simultaneous = shared , players=3 ) ")
    assert game.game_string == "cage(players=3,simultaneous=shared)"
    assert gameshelf.load(game.game_string).game_string == game.game_string
    assert gameshelf.load("cage(players=2)").game_string == "cage"
    assert gameshelf.load("cage(stock=12:12)").game_string == "cage(stock=12:12)"


@pytest.mark.parametrize(
    ("move", "error", "words"),
    [
        ("X9", InvalidMove, ["'X9'", "not Cage notation"]),
        ("R8", InvalidMove, ["column 0-7"]),
        ("T3+", InvalidMove, ["layer 0-2"]),
        ("", InvalidMove, ["not Cage notation"]),
        ("G0", IllegalMove, ["G is not a colour of player 1", "W Y R"]),
        ("T1-", IllegalMove, ["reverse the previous move T1+"]),
    ],
)
def test_bad_moves_are_rejected_and_change_nothing(
    move: str, error: type, words: list[str]
) -> None:
    state = cage_state("cage", "W0 T1+")
    before = state.position()
    history = state.history()
    with pytest.raises(error) as caught:
        state.play(move)
    for word in words:
        assert word in str(caught.value)
    assert state.position() == before and state.history() == history


def test_non_text_moves_are_rejected() -> None:
    state = cage_state("cage")
    with pytest.raises(InvalidMove):
        state.play(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidMove, match="not a Cage action id"):
        state.play(999)
    with pytest.raises(IllegalMove, match="G is not a colour"):
        state.play(40)


def test_a_move_by_the_wrong_player_is_not_your_turn() -> None:
    state = cage_state("cage")
    with pytest.raises(NotYourTurn, match="player 2 cannot move"):
        state.play("O0", player=1)
    state.play("W0", player=0)
    assert state.current_player() == 1


def test_moves_after_the_end_are_game_over() -> None:
    state = cage_state("cage", "W0 O1 W0 O1 W0")
    with pytest.raises(GameOver, match="over"):
        state.play("O2")


@pytest.mark.parametrize(
    ("position", "words"),
    [
        ("W/-/-/-/-/-/- W3Y4R4O4B4G4 1 W0 1 *", ["8 columns"]),
        ("WOWO/-/-/-/-/-/-/- W2Y4R4O2B4G4 0 O0 4 *", ["column 0 holds 4"]),
        ("X/-/-/-/-/-/-/- W4Y4R4O4B4G4 1 - 1 *", ["'X' is not a colour"]),
        ("W/-/-/-/-/-/-/- W4Y4R4O4B4G4 1 W0 1 *", ["W: 1 in the cage + 4 left"]),
        ("W/-/-/-/-/-/-/- W3Y4R4 1 W0 1 *", ["cubies left"]),
        ("W/-/-/-/-/-/-/- W3Y4R4O4B4G4 7 W0 1 *", ["player to move 7"]),
        ("W/-/-/-/-/-/-/- W3Y4R4O4B4G4 1 Q5 1 *", ["last move"]),
        ("WWW/-/-/-/-/-/-/- W1Y4R4O4B4G4 1 W0 5 *", ["line"]),
        ("W/-/-/-/-/-/-/- W3Y4R4O4B4G4 1 W0 1 +0", ["no line"]),
        ("W/-/-/-/-/-/-/- W3Y4R4O4B4G4 1", ["6 fields"]),
    ],
)
def test_bad_positions_name_the_problem(position: str, words: list[str]) -> None:
    with pytest.raises(InvalidPosition) as caught:
        gameshelf.load("cage").state_from_position(position)
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_semantic_positions_need_the_board_before_the_last_twist() -> None:
    game = gameshelf.load("cage(no_reverse=semantic)")
    with pytest.raises(InvalidPosition, match="7th field"):
        game.state_from_position("W/-/-/-/-/-/-/- W3Y4R4O4B4G4 0 T0+ 2 *")
    state = game.state_from_position("-/-/W/-/-/-/-/- W3Y4R4O4B4G4 1 T0+ 2 * W/-/-/-/-/-/-/-")
    assert "T0-" not in [str(m) for m in state.legal_moves()]


def test_the_documented_position_example_reads_back() -> None:
    text = "WR/-/Y/-/-/-/-/- W3Y3R3O4B4G4 1 Y2 3 *"
    state = gameshelf.load("cage").state_from_position(text)
    assert state.position() == text and state.current_player() == 1


@pytest.mark.parametrize("number", ["+1", "1_0", "٣", "١", "0x1", "1" * 30, "-0"])
def test_position_numbers_are_plain_ascii_decimals(number: str) -> None:
    """``int()`` reads ``+1``, ``1_0`` and other scripts' digits: a position must not."""
    game = gameshelf.load("cage")
    good = "W/-/-/-/-/-/-/- W3Y4R4O4B4G4 1 W0 1 *"
    assert game.state_from_position(good).position() == good
    for bad in (
        f"W/-/-/-/-/-/-/- W3Y4R4O4B4G4 1 W0 {number} *",
        f"W/-/-/-/-/-/-/- W3Y4R4O4B4G4 {number} W0 1 *",
    ):
        with pytest.raises(InvalidPosition, match="not a number"):
            game.state_from_position(bad)


@pytest.mark.parametrize("count", ["٣", "+3", "03 ", "003"])
def test_cubies_left_are_plain_ascii_counts(count: str) -> None:
    with pytest.raises(InvalidPosition, match="cubies left"):
        gameshelf.load("cage").state_from_position(f"W/-/-/-/-/-/-/- W{count}Y4R4O4B4G4 1 W0 1 *")


@pytest.mark.parametrize(
    "option",
    ["stock=1_2:1_2", "stock=+12:12", "stock=١٢:12", "repetition_draw=1_0", "repetition_draw=٣"],
)
def test_cage_option_numbers_are_plain_ascii_decimals(option: str) -> None:
    with pytest.raises(InvalidOption, match=option.split("=")[0]):
        gameshelf.load(f"cage({option})")
    assert gameshelf.load("cage(stock=12:12,repetition_draw=10)").spec.params["stock"] == (12, 12)


def test_action_ids_are_ints_not_bools() -> None:
    state = gameshelf.load("cage").new_initial_state()
    assert state.action_to_string(1) == "W1"
    for action in (True, False, 1.0, -1, 10**6):
        with pytest.raises(InvalidMove):
            state.action_to_string(action)  # type: ignore[arg-type]
