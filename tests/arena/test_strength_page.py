"""The strength page generator: targets are judged from the measured tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gameshelf.arena import strength


def fake(wins: int, games: int) -> dict[str, Any]:
    return {
        "game": "cage",
        "games": games,
        "wall_seconds": 1.0,
        "table": "| agent |",
        "summary": [{"agent": "hard", "wins": wins, "games": games}],
    }


def test_targets_are_judged_with_their_command() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    page = strength.render(
        [(runs["cage-2p-openspiel"], fake(24, 30)), (runs["cage-2p-greedy"], fake(37, 40))],
        None,
        None,
    )
    assert (
        "| Cage, 2 players: hard vs OpenSpiel MCTSBot, equal time a move: hard wins ≥ 80% | "
        "24/30 (80%) | yes | `scripts/strength.sh --only cage-2p-openspiel` |"
    ) in page
    assert "| 37/40 (92%) | **no** | `scripts/strength.sh --only cage-2p-greedy` |" in page


def test_solo_band_and_time_budgets_are_judged() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    solo = fake(0, 10)
    solo["summary"][0]["mean_score"] = 120.5
    timing = {
        "rows": [
            {
                "game": "cage",
                "level": "hard",
                "algorithm": "x",
                "budget": 0.5,
                "mean": 0.5,
                "max": 0.6,
            },
            {
                "game": "cage",
                "level": "expert",
                "algorithm": "x",
                "budget": 2.0,
                "mean": 2.0,
                "max": 4.4,
            },
            {
                "game": "axia",
                "level": "easy",
                "algorithm": "x",
                "budget": 0.0,
                "mean": 0.0,
                "max": 0.01,
            },
        ]
    }
    page = strength.render([(runs["axia-solo"], solo)], timing, None)
    assert "hard's mean score in 111–150 | mean 120.5 over 10 | yes |" in page
    assert (
        "worst 2.20× (expert: 4.40 s of 2 s) | **no** | `scripts/strength.sh --only move-times`"
        in page
    )
    assert "`axia`: every level" not in page  # an instant level has no budget to judge


def test_a_stale_cache_is_not_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strength, "CACHE", tmp_path)
    run = strength.RUNS[0]
    made = strength._section(run.slug, lambda: fake(1, 2), {run.slug}, strength.run_key(run))
    assert strength._section(run.slug, lambda: fake(0, 0), {"none"}, strength.run_key(run)) == made
    assert strength._section(run.slug, lambda: fake(0, 0), {"none"}, "another|config") is None


def test_missing_sections_are_marked() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    page = strength.render([(runs["axia-solo"], None)], None, None)
    assert "(not measured in this run)" in page
