"""``gameshelf learn cage`` end to end on a local Ray, and its refusals."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gameshelf.cli.learn import ProgressBar
from gameshelf.cli.main import main
from gameshelf.core.registry import load
from gameshelf.learn.cage import RECIPE
from gameshelf.learn.master import MasterAgent
from gameshelf.learn.network import load_weights
from gameshelf.learn.settings import Progress

TINY = [
    "--games-per-worker", "4", "--simulations", "4", "--batch-size", "16", "--hidden", "16",
    "--blocks", "1", "--eval-every", "1", "--eval-games", "2", "--eval-against", "random",
    "--eval-simulations", "4", "--checkpoint-every", "1", "--quiet",
]  # fmt: skip
"""A run small enough for a test: every part of the loop, on a handful of games."""


def test_two_steps_train_save_and_resume(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["learn", "cage", "--steps", "2", "--out", str(out), *TINY]) == 0
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["step"] == 2 and summary["games"] > 0
    assert [(p["step"], p["opponent"]) for p in summary["curve"]] == [
        (0, "random"),
        (1, "random"),
        (2, "random"),
    ]
    assert all(p["wins"] + p["draws"] + p["losses"] == 2 for p in summary["curve"])
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "learn: step 2" in capsys.readouterr().err

    # The weights master loads: a legal move from the trained network.
    net, config = load_weights(out / "weights.npz", RECIPE.inputs, RECIPE.heads)
    assert (config.hidden, config.blocks) == (16, 1)
    game = load("cage")
    state = game.new_initial_state()
    assert MasterAgent(game, 0, net=net, simulations=8).step(state) in state.legal_actions()

    # Resumed, the run goes on from its step with its own settings and keeps its curve.
    assert main(["learn", "cage", "--steps", "3", "--resume", "--out", str(out), "--quiet"]) == 0
    resumed = json.loads((out / "summary.json").read_text("utf-8"))
    assert resumed["step"] == 3 and resumed["this_session"]["steps"] == 1
    assert resumed["games"] > summary["games"]
    assert [p["step"] for p in resumed["curve"]] == [0, 1, 2, 3]


def test_refusals_name_what_was_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "axia", "--steps", "2", "--out", str(tmp_path)]) == 2
    assert "learn knows axiom, cage, not 'axia'" in capsys.readouterr().err
    assert main(["learn", "cage", "--steps", "2", "--resume", "--out", str(tmp_path)]) == 2
    assert "no checkpoint to resume" in capsys.readouterr().err
    assert main(["learn", "cage", "--steps", "0", "--out", str(tmp_path)]) == 2
    assert "--steps must be at least 1" in capsys.readouterr().err
    assert main(["learn", "cage", "--batch-size", "0", "--out", str(tmp_path)]) == 2
    assert "--batch-size must be at least 1" in capsys.readouterr().err
    assert main(["learn", "cage", "--eval-against", "greedy,nobody", "--out", str(tmp_path)]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert main(["learn", "cage", "--eval-against", "hard@-1", "--out", str(tmp_path)]) == 2
    assert "think time must be between" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "checkpoint.npz").write_bytes(b"a run's checkpoint")
    assert main(["learn", "cage", "--steps", "2", "--out", str(taken)]) == 2
    assert "holds a run already: go on with --resume" in capsys.readouterr().err
    assert (taken / "checkpoint.npz").read_bytes() == b"a run's checkpoint"
    assert main(["learn", "cage", "--steps", "2", "--resume", "--out", str(taken)]) == 2
    assert "cannot be read" in capsys.readouterr().err
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert main(["learn", "cage", "--steps", "2", "--out", str(tmp_path / "file")]) == 2
    assert "is a file; name a folder" in capsys.readouterr().err


def test_the_progress_bar_shows_each_tenth_once_off_a_terminal() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, width=10)
    for step in (0, 1, 1, 5, 10, 10):
        bar(Progress(step, 10, 3 * step, None if step == 0 else 1.5))
    lines = stream.getvalue().splitlines()
    assert lines == [
        "[..........] 0/10 steps, 0 games",
        "[#.........] 1/10 steps, 3 games, loss 1.500",
        "[#####.....] 5/10 steps, 15 games, loss 1.500",
        "[##########] 10/10 steps, 30 games, loss 1.500",
    ]


def test_each_game_has_its_own_defaults_and_the_options_change_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = {}
    for game in ("cage", "axiom"):
        args = ["learn", game, "--show-settings", "--simulations", "8", "--out", str(tmp_path)]
        assert main(args) == 0
        shown[game] = json.loads(capsys.readouterr().err)
    assert shown["cage"]["games_per_worker"] != shown["axiom"]["games_per_worker"]
    assert shown["cage"]["search"]["simulations"] == shown["axiom"]["search"]["simulations"] == 8
    assert shown["cage"]["search"]["considered"] == 8  # never more than the simulations
    assert list(tmp_path.iterdir()) == []
