"""``gameshelf analyse`` on a position and on a record, as text and as JSON."""

from __future__ import annotations

import json
import random
import re
import shlex
from pathlib import Path

import pytest

from gameshelf.cli.main import main
from gameshelf.core.record import record_from_state
from gameshelf.core.registry import load

WIN_IN_ONE = "WY/-/O/O/-/-/G/Y W3Y2R4O2B4G3 1 Y7 9 *"
"""Player 2 to move wins at once with O4 (the only winning move)."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_position_shows_the_winning_move(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyse", "cage", "--position", WIN_IN_ONE, "--seconds", "0.5")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "cage: player 2 to move"
    assert lines[1].split()[:3] == ["1.", "O4", "win"]
    assert "pv: O4" in lines[1]


def test_a_position_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "analyse", "cage", "--seconds", "0.3", "--top", "2", "--json", "--seed", "4"
    )
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "cage" and data["to_move"] == 0
    assert len(data["moves"]) == 2
    legal = {m.text for m in load("cage").new_initial_state().legal_moves()}
    for move in data["moves"]:
        assert (
            move["move"] in legal and 0.0 <= move["value"] <= 1.0 and move["pv"][0] == move["move"]
        )


HANDS_A_LINE = "GWW/YG/WRO/WR/OB/O/YY/BG W0Y1R2O1B2G1 1 W0 25 *"
"""Player 2 to move wins at once with G6 (the only winning move); O1 instead lets player 1
complete a line at once (Y6), so it is a blunder whatever the search's clock allows."""


def blunder_record(tmp_path: Path) -> Path:
    """Player 2 misses the win (O1 instead of G6); player 1 takes its line (Y6)."""
    state = load("cage").state_from_position(HANDS_A_LINE)
    start = state.position()
    state.play("O1")
    state.play("Y6")
    assert state.is_terminal()
    path = tmp_path / "game.json"
    record_from_state(state, initial_position=start).save(path)
    return path


def test_a_record_marks_the_blunder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = blunder_record(tmp_path)
    status, out, err = run(capsys, "analyse", "cage", "--record", str(path), "--seconds", "0.5")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "cage: 2 decisions analysed, 0.5 s each"
    first = next(line for line in lines if line.startswith("1. player 2 played O1"))
    assert "<- blunder" in first
    assert any(line.split()[:3] == ["1.", "G6", "win"] for line in lines)
    assert re.fullmatch(r"summary: \d+ blunders?, \d+ mistakes?, \d+ inaccurac(y|ies)", lines[-1])
    assert "analysing [" in err and "2/2 plies" in err  # the progress bar


def test_a_record_as_json_for_one_seat(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = blunder_record(tmp_path)
    argv = ["analyse", "cage", "--record", str(path), "--seconds", "0.3", "--json", "--seat", "1"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    plies = json.loads(out)["plies"]
    assert [(p["ply"], p["mover"], p["played"], p["label"]) for p in plies] == [
        (0, 1, "O1", "blunder")
    ]
    assert plies[0]["best"][0]["move"] == "G6" and plies[0]["best"][0]["solved"] == "win"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seconds", "0"], "--seconds must be above 0"),
        (["--seconds", "nan"], "--seconds must be above 0"),
        (["--top", "0"], "--top must be between 1"),
        (["--seat", "5", "--record", "x.json"], "--seat must be a seat of cage"),
        (["--seat", "1"], "--seat goes with --record"),
        (["--position", "not a position"], "position"),
        (["--record", "/nonexistent/game.json"], "cannot read record"),
    ],
)
def test_bad_input_is_refused_clearly(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "analyse", "cage", *argv)
    assert status == 2 and out == ""
    assert message in err


def test_a_finished_position_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    state = load("cage").state_from_position(WIN_IN_ONE)
    state.play("O4")
    status, _, err = run(capsys, "analyse", "cage", "--position", state.position())
    assert status == 2 and "the game is over" in err


def test_a_record_of_another_game_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = blunder_record(tmp_path)
    status, _, err = run(capsys, "analyse", "cage(players=3)", "--record", str(path))
    assert status == 2 and "the record is a game of cage" in err


DOC = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"


def test_the_docs_examples_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/analysis.md's shell lines (in order, in a scratch folder) and its Python example."""
    text = DOC.read_text(encoding="utf-8")
    lines = [
        line
        for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
        for line in block.splitlines()
        if line.strip()
    ]
    assert len(lines) >= 4 and all(line.startswith("gameshelf ") for line in lines)
    monkeypatch.chdir(tmp_path)
    for line in lines:
        status, out, err = run(capsys, *shlex.split(line)[1:])
        assert status == 0, (line, err)
        assert out.strip(), line
    (python,) = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    exec(compile(python, "docs/analysis.md", "exec"), {})
    assert capsys.readouterr().out.startswith("O4 win ('O4',)")


def drawn_deal(game: str, seed: int) -> tuple[list[str], int]:
    """The chance events that open ``game`` drawn as ``analyse`` draws them, and who moves then."""
    state = load(game).new_initial_state(0)
    rng = random.Random(seed)
    names = []
    while state.is_chance_node():
        action = state.sample_chance(rng)
        names.append(state.action_to_string(action))
        state.apply_action(action)
    return names, state.current_player()


def test_a_start_opening_with_chance_is_dealt_from_the_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """AXIA's start is a deal: drawn from --seed, only the mover's own cards named."""
    game = "axia(players=3)"
    status, out, _ = run(capsys, "analyse", game, "--seconds", "0.2", "--seed", "4", "--json")
    assert status == 0
    data = json.loads(out)
    deal, mover = drawn_deal(game, 4)
    assert data["to_move"] == mover == 0 and data["position"] is None
    named = [event for event in data["chance"] if not event.startswith("(hidden")]
    assert len(data["chance"]) == len(deal) == 12
    assert named == deal[:4]  # player 1's four cards, in the order dealt
    hidden = data["chance"][4:]
    assert hidden == ["(hidden: player 2)"] * 4 + ["(hidden: player 3)"] * 4
    for card in deal[4:]:
        assert card.split()[-1] not in out  # nobody else's card reaches the output
    assert data["moves"] and all(move["pv"][0] == move["move"] for move in data["moves"])


def test_the_dealt_start_prints_what_was_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyse", "axia", "--seconds", "0.2", "--seed", "7")
    assert status == 0
    first, second = out.splitlines()[:2]
    deal, _ = drawn_deal("axia", 7)
    assert first == (
        "the start's chance, drawn with --seed 7: "
        + ", ".join(deal[:4])
        + ", 4 x (hidden: player 2)"
    )
    assert second == "axia: player 1 to move"
    status, again, _ = run(capsys, "analyse", "axia", "--seconds", "0.2", "--seed", "7")
    assert again.splitlines()[0] == first  # the same seed, the same deal


def test_a_start_without_chance_draws_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyse", "cage", "--seconds", "0.2", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["chance"] == [] and data["position"] == load("cage").new_initial_state().position()
