"""The exact Cage endgame solver of ``tools/cage_endgame_study.py`` (docs/decisions/007: how
the four-player end phase was measured): it must call a zugzwang a draw by the last drop, and
find the other players' lines that every twist hands them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gameshelf
from gameshelf.games.cage import CageState
from tools import cage_endgame_study

# An arena game (openspiel-mcts, medium, greedy, hard): the other three have dropped all their
# cubies, hard (orange, seat 3) holds the last one; at ply 31 every twist or flip of hard's
# gives White a line at once or lets White make one, so hard drops it: a draw.
GAME = (
    "W2 Y0 R4 O2 W2 Y6 R7 O6 W0 Y6 R7 T2+ W2 Y7 R6 O4 T2+ T2+ T1+ T1+ T2- T2- T0+ T0+ T0+ T0+ "
    "T2+ T2+ T0+ T0+ F O1"
)
ZUGZWANG = "WOW/Y/YWY/R/ROY/-/OWR/R W0Y0R0O1 3 F 31 *"


def _position(text: str) -> CageState:
    state = gameshelf.load("cage(players=4)").state_from_position(text)
    assert isinstance(state, CageState)
    return state


def test_a_zugzwang_is_a_draw_and_every_twist_a_line_for_white() -> None:
    state = _position(ZUGZWANG)
    assert cage_endgame_study.endgame_applies(state)
    solution = cage_endgame_study.solve_endgame(state, me=3)
    assert solution is not None
    assert solution.value(state) == (0.0, 0.0, 0.0, 0.0)  # the drop: the last cubie, no line
    assert solution.plies(state) == 1
    white_wins = (1.0, -1.0, -1.0, -1.0)
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        text = state.action_to_string(action)
        if text.startswith("O"):
            assert child.outcome == [0.0] * 4, text
        elif text.startswith("T1"):
            assert child.outcome == list(white_wins), text  # a line at once
        else:
            assert solution.value(child) == white_wins, text  # White twists one in
            assert solution.plies(child) == 1, text


def test_a_graph_above_the_cap_is_not_solved() -> None:
    assert cage_endgame_study.solve_endgame(_position(ZUGZWANG), me=3, max_states=50) is None


def test_the_study_counts_the_end_phase_of_a_record(tmp_path: Path) -> None:
    game = gameshelf.load("cage(players=4)")
    state = game.new_initial_state()
    moves = []
    for seat, text in enumerate(GAME.split()):
        action = state.parse_action(text)
        moves.append({"player": seat % 4, "move": text, "action": action})
        state.apply_action(action)
    record = {
        "format": "gameshelf-record",
        "version": 1,
        "game": "cage(players=4)",
        "players": ["openspiel-mcts", "medium", "greedy", "hard"],
        "moves": moves,
        "result": [0.0] * 4,
    }
    (tmp_path / "game-0000.json").write_text(json.dumps(record))
    tally = cage_endgame_study.study(tmp_path)
    assert tally[("end phases", "solved")] == 1
    # the phase starts at ply 16, after hard's third drop: 16 moves, 4 of them hard's
    assert tally[("hard", "drawn")] == 4
    counted = [entry for entry in tally if len(entry) == 2 and entry[0] != "end phases"]
    assert sum(tally[entry] for entry in counted) == 16
    assert {entry[1] for entry in counted} == {"drawn"}  # drawn from its first position on


def test_the_tool_names_a_records_folder_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        cage_endgame_study.main([str(tmp_path / "none")])
    assert stop.value.code == 2
    assert f"records: {tmp_path / 'none'} is not a folder" in capsys.readouterr().err
