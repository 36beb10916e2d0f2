"""The JAX Cage benchmark runs end to end in a tiny mode, with or without pgx installed.

No wall-clock thresholds: only that every figure is there, positive and consistent.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("jax")

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "jax_cage.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gameshelf_jax_bench_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_tiny_run_reports_ours_and_says_when_pgx_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_bench()
    monkeypatch.setitem(sys.modules, "pgx", None)  # as if pgx were not installed
    out = tmp_path / "jax.json"
    report = bench.main(
        ["--batches", "8,4096", "--steps", "3", "--repeat", "1", "--json", str(out)]
    )
    printed = capsys.readouterr().out
    assert "pgx is not importable" in printed
    assert "4096: not measured" in printed
    assert json.loads(out.read_text(encoding="utf-8")) == report
    assert [row["batch"] for row in report["rows"]] == [8, 4096]
    for row in report["rows"]:
        assert row["cage_steps_per_s"] > 0 and row["cage_repetition_draw_0_steps_per_s"] > 0
        assert row["pgx_connect_four_steps_per_s"] is None and row["ratio"] is None
    assert report["gpu"] is False or report["rows"]  # the CPU is all CI has


def test_the_ratio_and_verdict_use_the_same_loop_for_a_stand_in_pgx(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_bench()
    from gameshelf.rl.jax.cage import CageEnv

    def same_loop(env: CageEnv, batch: int, steps: int) -> object:
        return bench.compile_loop(env.init, env.step, lambda s: s.terminated, batch, steps)

    # A stand-in for pgx (our own Cage) so the comparison path runs where pgx is not installed.
    monkeypatch.setattr(bench, "load_pgx", lambda: (CageEnv(players=2), "stand-in"))
    monkeypatch.setattr(bench, "pgx_loop", same_loop)
    report = bench.main(["--batches", "4096", "--steps", "2", "--repeat", "1", "--no-variant"])
    row = report["rows"][0]
    assert row["ratio"] == pytest.approx(
        row["cage_steps_per_s"] / row["pgx_connect_four_steps_per_s"], rel=1e-2
    )
    assert "target ours/pgx >= 1 at batch 4096" in capsys.readouterr().out
    assert row["cage_repetition_draw_0_steps_per_s"] is None
