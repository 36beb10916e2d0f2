"""The side-by-side benchmark runs end to end in a tiny mode and reports every row.

No wall-clock thresholds: only that every figure is there, positive and consistent.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench.py"
TINY = [
    "--rounds", "1", "--seconds", "0.05", "--mcts-seconds", "0.01", "--mcts-sims", "2",
    "--memory-steps", "30",
]  # fmt: skip


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gameshelf_bench_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def expected_keys(bench: ModuleType) -> set[str]:
    keys = {f"playout/ours/{g}" for g in bench.GAMES}
    keys |= {f"playout/adapter/{g}" for g in bench.GAMES}
    keys |= {f"playout/openspiel/{g}" for g in bench.OPENSPIEL_GAMES}
    keys |= {f"mcts/{who}/{g}" for who in ("ours", "openspiel") for g in bench.GAMES}
    keys |= {f"memory/{kind}/{g}" for kind in ("peak", "state") for g in bench.GAMES}
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
    assert len(report["ratios"]) == 9
    for ratio in report["ratios"]:
        ours, reference = rows[ratio["ours"]]["value"], rows[ratio["reference"]]["value"]
        assert ratio["ratio"] == pytest.approx(ours / reference)
        assert ratio["met"] is (ratio["ratio"] >= ratio["target"])
    assert {r["target"] for r in report["ratios"]} == {0.3, 0.05, 0.2, 2.0, 3.0}
    assert report["machine"]["cpus"] >= 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out
    for row in rows.values():
        assert row["label"] in printed
    assert "met" in printed


def test_a_row_that_cannot_start_is_reported_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_bench()

    def no_adapter(name: str) -> None:
        raise ImportError("no adapter here")

    monkeypatch.setattr(bench, "_adapter_factory", no_adapter)
    monkeypatch.setattr(bench, "GAMES", ("cage",))
    monkeypatch.setattr(bench, "OPENSPIEL_GAMES", ("python_tic_tac_toe",))
    out = tmp_path / "bench.json"
    assert bench.main([*TINY, "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["missing"] == {"playout/adapter/cage": "ImportError: no adapter here"}
    rows = {row["key"]: row for row in report["rows"]}
    assert rows["playout/adapter/cage"]["value"] is None
    assert rows["playout/ours/cage"]["value"] > 0
    adapter_ratio = next(r for r in report["ratios"] if r["ours"] == "playout/adapter/cage")
    assert adapter_ratio["ratio"] is None and adapter_ratio["met"] is None
