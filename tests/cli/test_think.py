"""``gameshelf play --think SECONDS``: every bot's time per move, checked before play starts."""

from __future__ import annotations

import math

import pytest

from gameshelf.agents.levels import BadThinkTime, check_think, level_spec
from gameshelf.cli.main import main
from gameshelf.cli.play import new_table
from gameshelf.core.registry import load


def test_think_sets_every_searching_bots_time_per_move() -> None:
    table = new_table(load("cage"), ["hard", "greedy"], seed=1, think=0.05)
    assert table.agents[0].time_limit == 0.05  # type: ignore[attr-defined]
    assert not hasattr(table.agents[1], "time_limit")  # greedy is instant anyway
    default = new_table(load("cage"), ["hard", "greedy"], seed=1)
    hard = level_spec(load("cage"), "hard").seconds
    assert default.agents[0].time_limit == hard  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, 10_000.0, "soon"])
def test_out_of_range_think_times_are_refused_with_a_code(bad: object) -> None:
    with pytest.raises(BadThinkTime, match="think time must be") as caught:
        check_think(bad)  # type: ignore[arg-type]
    assert caught.value.code == "agent/bad-think-time"
    with pytest.raises(BadThinkTime, match=r"between 0\.01 and 5 seconds"):
        check_think(6.0, cap=5.0)
    assert check_think("0.25") == 0.25  # type: ignore[arg-type]


def test_cli_plays_a_bot_game_on_the_given_clock(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "cage(max_plies=6)", "--seat", "0=hard", "--seat", "1=medium"]
    status = main([*argv, "--think", "0.05", "--quiet", "--seed", "3"])
    assert status == 0
    assert capsys.readouterr().out.strip()


def test_cli_refuses_a_think_time_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["play", "cage", "--seat", "0=hard", "--think", "0", "--quiet"])
    captured = capsys.readouterr()
    assert status == 2
    assert "think time must be between 0.01 and 600 seconds a move, got 0" in captured.err
