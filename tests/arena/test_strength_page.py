"""The strength page generator: targets are judged from the measured tables."""

from __future__ import annotations

from typing import Any

from gameshelf.arena import strength


def fake(wins: int, games: int) -> dict[str, Any]:
    return {
        "game": "cage",
        "games": games,
        "wall_seconds": 1.0,
        "table": "| agent |",
        "summary": [{"agent": "hard", "wins": wins, "games": games}],
    }


def test_targets_are_judged() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    page = strength.render(
        [(runs["cage-2p-random"], fake(19, 20)), (runs["cage-2p-greedy"], fake(14, 20))],
        None,
        None,
    )
    assert "| Cage, 2 players: hard vs random | 19/20 (95%) | ≥ 95% | yes |" in page
    assert "| Cage, 2 players: hard vs greedy | 14/20 (70%) | ≥ 75% | **no** |" in page


def test_missing_sections_are_marked() -> None:
    runs = {run.slug: run for run in strength.RUNS}
    page = strength.render([(runs["axia-solo"], None)], None, None)
    assert "(not measured in this run)" in page
