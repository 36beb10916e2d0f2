"""The side-by-side benchmark runs end to end in a tiny mode and reports every row.

No wall-clock thresholds: only that every figure is there, positive and consistent.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import gameshelf.bench as bench_module
from gameshelf.cli.main import main as gameshelf_main
from gameshelf.core.engines import engine_of
from gameshelf.extras import install_hint

ROOT = Path(__file__).resolve().parents[2]
TINY = [
    "--rounds", "1", "--seconds", "0.05", "--mcts-seconds", "0.01", "--mcts-sims", "2",
    "--memory-steps", "30",
]  # fmt: skip


def load_bench() -> ModuleType:
    """The benchmark as the package ships it (``benchmarks/bench.py`` is a shim over it)."""
    return bench_module


def expected_keys(bench: ModuleType) -> set[str]:
    games = bench.measured_games()
    keys = {f"playout/ours/{g}" for g in games}
    keys |= {f"playout/ours/{v}" for v in bench.variants()}
    keys |= {f"playout/adapter/{g}" for g in games}
    keys |= {f"playout/openspiel/{g}" for g in bench.openspiel_games()}
    keys |= {f"mcts/{who}/{g}" for who in ("ours", "openspiel") for g in games}
    keys |= {f"memory/{kind}/{g}" for kind in ("peak", "state") for g in games}
    return keys


def test_tiny_run_reports_every_row_ratio_and_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_bench()
    out, png = tmp_path / "bench.json", tmp_path / "bench.png"
    assert bench.main([*TINY, "--json", str(out), "--png", str(png)]) == 0
    report = json.loads(out.read_text())
    rows = {row["key"]: row for row in report["rows"]}
    assert set(rows) == expected_keys(bench)
    assert report["missing"] == {}
    for row in rows.values():
        assert row["missing"] is None, row
        assert isinstance(row["value"], float) and row["value"] > 0, row
        if row["kind"] != "memory":
            assert row["count"] > 0 and row["seconds"] > 0
            assert row["value"] == pytest.approx(row["count"] / row["seconds"], rel=1e-3)
    assert rows["memory/state/axiom"]["pickle_bytes_less_game"] > 0
    assert len(report["ratios"]) == 12
    for ratio in report["ratios"]:
        ours, reference = rows[ratio["ours"]]["value"], rows[ratio["reference"]]["value"]
        assert ratio["ratio"] == pytest.approx(ours / reference)
        assert ratio["met"] is (ratio["ratio"] >= ratio["target"])
    assert {r["target"] for r in report["ratios"]} == {0.6, 0.3, 0.8, 2.5, 2.0, 3.0}
    assert report["machine"]["cpus"] >= 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out
    for row in rows.values():
        assert row["label"] in printed
    assert "met" in printed
    engines = report["machine"]["engines"]
    assert set(engines) == set(bench.measured_games())
    assert "engines: " + ", ".join(f"{g} {e}" for g, e in engines.items()) in printed
    for game, engine in engines.items():
        assert engine == engine_of(importlib.import_module(f"gameshelf.games.{game}"))
        assert rows[f"playout/ours/{game}"]["label"] == f"{game} (gameshelf, {engine})"


def test_only_keeps_axiom_against_chess(tmp_path: Path) -> None:
    """``--only`` keeps Axiom's playout rows and chess; the ratio gets its verdict."""
    bench = load_bench()
    out = tmp_path / "bench.json"
    only = ["--only", "playout/ours/axiom,openspiel/chess"]
    assert bench.main([*TINY, *only, "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    rows = {row["key"]: row for row in report["rows"]}
    assert "playout/ours/axiom" in rows and "playout/openspiel/chess" in rows
    assert not any(k.startswith(("playout/ours/cage", "playout/adapter", "memory")) for k in rows)
    against_chess = {
        r["ours"]: r for r in report["ratios"] if r["reference"] == "playout/openspiel/chess"
    }
    assert set(against_chess) == {"playout/ours/axiom"}
    for ours, ratio in against_chess.items():
        assert ratio["target"] == 0.3
        assert ratio["ratio"] == pytest.approx(
            rows[ours]["value"] / rows["playout/openspiel/chess"]["value"]
        )
        assert ratio["met"] is (ratio["ratio"] >= 0.3)


def test_a_row_that_cannot_start_is_reported_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_bench()

    def no_adapter(name: str) -> None:
        raise ImportError("no adapter here")

    monkeypatch.setattr(bench, "_adapter_factory", no_adapter)
    monkeypatch.setattr(bench, "measured_games", lambda: ["cage"])
    monkeypatch.setattr(bench, "openspiel_games", lambda: ["python_tic_tac_toe"])
    out = tmp_path / "bench.json"
    assert bench.main([*TINY, "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["missing"] == {"playout/adapter/cage": "ImportError: no adapter here"}
    rows = {row["key"]: row for row in report["rows"]}
    assert rows["playout/adapter/cage"]["value"] is None
    assert rows["playout/ours/cage"]["value"] > 0
    adapter_ratio = next(r for r in report["ratios"] if r["ours"] == "playout/adapter/cage")
    assert adapter_ratio["ratio"] is None and adapter_ratio["met"] is None


def test_the_command_runs_quick_from_the_installed_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``gameshelf bench --quick`` (shortened further) goes through the command's own parser."""
    out = tmp_path / "bench.json"
    assert gameshelf_main(["bench", "--quick", *TINY, "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["settings"]["rounds"] == 1 and report["missing"] == {}
    assert "skipped:" not in capsys.readouterr().out


def test_bench_help_runs_outside_the_checkout(tmp_path: Path) -> None:
    """The console script, from a folder with no benchmarks/ in sight, shows the options."""
    script = Path(sys.executable).with_name("gameshelf")
    result = subprocess.run(
        [str(script), "bench", "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    for option in ("--quick", "--json", "--png", "--rounds"):
        assert option in result.stdout
    assert "OpenSpiel" in result.stdout


def test_the_checkout_shim_is_the_same_program(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    env = {**os.environ, "PYTHONPATH": ""}
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), *TINY, "--json", str(out)],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert {row["key"] for row in json.loads(out.read_text())["rows"]} == expected_keys(
        bench_module
    )


def test_a_missing_package_names_what_to_install_and_the_skipped_comparisons(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without OpenSpiel the reference rows are missing, and the table says which and why."""

    def no_openspiel(*args: object) -> None:
        raise ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel")

    monkeypatch.setattr(bench_module, "_spiel_factory", no_openspiel)
    monkeypatch.setattr(bench_module, "_spiel_mcts", no_openspiel)
    monkeypatch.setattr(bench_module, "measured_games", lambda: ["cage"])
    monkeypatch.setattr(bench_module, "openspiel_games", lambda: ["connect_four"])
    assert bench_module.main(TINY) == 0
    printed = capsys.readouterr().out
    hint = f"package missing: pyspiel: {install_hint('rl')}"
    assert f"skipped: cage fast path vs C++ connect_four ({hint})" in printed
    assert f"skipped: our MCTS vs MCTSBot on cage ({hint})" in printed
    assert "skipped: cage through the adapter" not in printed  # that one ran


def test_png_without_matplotlib_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import raises ModuleNotFoundError
    status = gameshelf_main(["bench", *TINY, "--png", str(tmp_path / "x.png")])
    assert status == 2
    assert f"--png needs matplotlib: {install_hint('arena')}" in capsys.readouterr().err
