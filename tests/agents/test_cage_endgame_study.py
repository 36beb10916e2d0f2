"""The exact Cage endgame solver of ``scripts/cage_endgame_study.py`` (docs/decisions/007: how
the four-player end phase was measured): it must call a zugzwang a draw by the last drop, and find
the other players' lines that every twist hands them."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import gameshelf
from gameshelf.games.cage import CageState

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "cage_endgame_study.py"

# An arena game (openspiel-mcts, medium, greedy, hard): the other three have dropped all their
# cubies, hard (orange, seat 3) holds the last one; at ply 31 every twist or flip of hard's
# gives White a line at once or lets White make one, so hard drops it: a draw.
GAME = (
    "W2 Y0 R4 O2 W2 Y6 R7 O6 W0 Y6 R7 T2+ W2 Y7 R6 O4 T2+ T2+ T1+ T1+ T2- T2- T0+ T0+ T0+ T0+ "
    "T2+ T2+ T0+ T0+ F O1"
)
ZUGZWANG = "WOW/Y/YWY/R/ROY/-/OWR/R W0Y0R0O1 3 F 31 *"


def _study() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cage_endgame_study", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def _position(text: str) -> CageState:
    state = gameshelf.load("cage(players=4)").state_from_position(text)
    assert isinstance(state, CageState)
    return state


def test_a_zugzwang_is_a_draw_and_every_twist_a_line_for_white() -> None:
    study = _study()
    state = _position(ZUGZWANG)
    assert study.endgame_applies(state)
    solution = study.solve_endgame(state, me=3)
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
    study = _study()
    assert study.solve_endgame(_position(ZUGZWANG), me=3, max_states=50) is None


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
    tally = _study().study(tmp_path)
    assert tally[("end phases", "solved")] == 1
    # the phase starts at ply 16, after hard's third drop: 16 moves, 4 of them hard's
    assert tally[("hard", "drawn")] == 4
    counted = [entry for entry in tally if len(entry) == 2 and entry[0] != "end phases"]
    assert sum(tally[entry] for entry in counted) == 16
    assert {entry[1] for entry in counted} == {"drawn"}  # drawn from its first position on
