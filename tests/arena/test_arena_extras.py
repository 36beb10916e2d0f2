"""Without matplotlib the arena still plays and writes everything but its chart, and says so
(before the games and with the results)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from gameshelf.cli.main import build_parser


def run_arena(tmp_path: Path) -> tuple[int, str]:
    args = build_parser().parse_args(
        ["arena", "cage", "--agents", "greedy,random", "--games", "2", "--out", str(tmp_path)]
    )
    out = io.StringIO()
    status = int(args.func(args, out))
    return status, out.getvalue()


def test_the_arena_without_matplotlib_writes_all_but_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    status, out = run_arena(tmp_path)
    err = capsys.readouterr().err
    assert status == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["records", "results.md", "summary.json"]
    assert len(list((tmp_path / "records").iterdir())) == 2
    assert "no ratings.png" in out and "-e '.[arena]'" in out
    assert err.index("no ratings.png") < err.index("2/2 games")  # said before the games


def test_the_arena_with_matplotlib_draws_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_arena(tmp_path)
    assert status == 0 and (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    assert "results.md and ratings.png in" in out
    assert "no ratings.png" not in out + capsys.readouterr().err
