"""Arena: schedule, tallies, ratings, saved outputs, bad input, CLI handlers, Ray backend."""

from __future__ import annotations

import argparse
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from gameshelf.arena import TournamentConfig, run_tournament
from gameshelf.arena.cli import add_arena_parser, add_solve_parser
from gameshelf.arena.ratings import outcome, placements
from gameshelf.arena.tournament import ArenaError, parse_agents, schedule, turn_order
from gameshelf.core.record import load_record, replay


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="gameshelf")
    sub = main.add_subparsers()
    add_solve_parser(sub)
    add_arena_parser(sub)
    return main


def test_schedule_rotates_seats_in_a_round_robin() -> None:
    config = TournamentConfig("cage", ["a", "b", "c"], games=2)
    seats = [spec.seats for spec in schedule(config, 2)]
    assert seats == [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")]
    three = [spec.seats for spec in schedule(TournamentConfig("x", ["a", "b", "c"], 3), 3)]
    assert three == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len({spec.seed for spec in schedule(config, 2)}) == 6


def test_tables_of_three_or_more_go_through_every_turn_order() -> None:
    config = TournamentConfig("x", ["a", "b", "c", "d"], games=48)
    seatings = [spec.seats for spec in schedule(config, 4)]
    assert len(set(seatings)) == 24  # every seating of four, each twice
    assert all(seatings.count(seats) == 2 for seats in seatings)
    orders = [turn_order(seats, config.agents) for seats in seatings]
    assert len(set(orders)) == 6  # (4 - 1)! turn orders, each rotated through the seats
    for block in range(0, 48, 4):  # every 4 games: one order, each agent starting once
        assert len(set(orders[block : block + 4])) == 1
        assert sorted(seats[0] for seats in seatings[block : block + 4]) == ["a", "b", "c", "d"]
    assert (
        seatings[:4] == [spec.seats for spec in schedule(replace(config, seating="rotate"), 4)][:4]
    )
    rotated = [spec.seats for spec in schedule(replace(config, seating="rotate"), 4)]
    assert {turn_order(seats, config.agents) for seats in rotated} == {("a", "b", "c", "d")}
    two = TournamentConfig("x", ["a", "b"], games=4)
    assert [spec.seats for spec in schedule(two, 2)] == [("a", "b"), ("b", "a")] * 2
    with pytest.raises(ArenaError, match="--seating 'random': choose one of all, rotate"):
        schedule(replace(config, seating="random"), 4)


def test_results_count_each_turn_order(tmp_path: Path) -> None:
    config = TournamentConfig("cage(players=3)", ["greedy", "random", "easy-fixed"], 6, seed=1)
    result = run_tournament(replace(config, out=tmp_path))
    orders = result.orders
    assert list(orders) == [
        ("greedy", "random", "easy-fixed"),
        ("greedy", "easy-fixed", "random"),
    ]
    for tally in orders.values():
        assert tally.games == 3
        assert sum(tally.wins.values()) + tally.draws >= 3
    wins = {name: sum(t.wins[name] for t in orders.values()) for name in config.agents}
    assert wins == {name: tally.wins for name, tally in result.tallies.items()}
    text = (tmp_path / "results.md").read_text()
    assert "| greedy → random → easy-fixed | 3 |" in text
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["seating"] == "all" and len(summary["orders"]) == 2
    rotate = run_tournament(replace(config, seating="rotate"))
    assert list(rotate.orders) == [("greedy", "random", "easy-fixed")]
    assert not run_tournament(TournamentConfig("cage", ["greedy", "random"], 2)).orders


def test_placements_and_outcomes() -> None:
    assert placements([1.0, -1.0, -1.0]) == [1, 2, 2]
    assert placements([0.0, 0.0], [10, 12]) == [2, 1]
    assert outcome([1.0, -1.0], 0) == "win"
    assert outcome([0.0, 0.0], 1) == "draw"
    assert outcome([1.0, -1.0, -1.0], 2) == "loss"


def test_local_tournament_saves_everything(tmp_path: Path) -> None:
    config = TournamentConfig("cage", ["greedy", "random"], games=4, seed=3, jobs=2, out=tmp_path)
    result = run_tournament(config)
    assert len(result.results) == 4
    greedy, rand = result.tallies["greedy"], result.tallies["random"]
    assert greedy.wins + greedy.draws + greedy.losses == 4
    assert greedy.wins == rand.losses and greedy.losses == rand.wins
    assert greedy.wins >= 3
    assert greedy.mu is not None and rand.mu is not None and greedy.mu > rand.mu
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["total_games"] == 4 and summary["table"][0]["agent"] == "greedy"
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    assert "| greedy |" in (tmp_path / "results.md").read_text()
    records = sorted((tmp_path / "records").glob("*.json"))
    assert len(records) == 4
    for path in records:
        record = load_record(path)
        assert replay(record)[-1].is_terminal()


def test_results_do_not_depend_on_jobs() -> None:
    agents = ["easy-fixed", "random"]  # a level on the clock would depend on the machine's load
    one = run_tournament(TournamentConfig("cage", agents, games=2, seed=5, jobs=1))
    two = run_tournament(TournamentConfig("cage", agents, games=2, seed=5, jobs=2))
    assert [r["record"]["moves"] for r in one.results] == [
        r["record"]["moves"] for r in two.results
    ]


def test_axia_tables_report_mean_scores() -> None:
    result = run_tournament(TournamentConfig("axia(players=3)", ["random", "greedy"], 1))
    assert len(result.results) == 1
    assert all(t.scored for t in result.tallies.values())
    solo = run_tournament(TournamentConfig("axia(players=1)", ["random"], games=2))
    assert solo.tallies["random"].scored == 2
    assert sum(solo.tallies["random"].ranks.values()) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hard,nobody", "unknown agent 'nobody'"),
        ("hard,,random", "separated by commas"),
        ("", "separated by commas"),
    ],
)
def test_bad_agent_lists(text: str, message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        parse_agents(text)


def test_bad_configs() -> None:
    with pytest.raises(ArenaError, match="twice"):
        run_tournament(TournamentConfig("cage", ["random", "random"], 1))
    with pytest.raises(ArenaError, match="--games"):
        run_tournament(TournamentConfig("cage", ["random", "greedy"], 0))
    with pytest.raises(ArenaError, match="--backend"):
        run_tournament(TournamentConfig("cage", ["random", "greedy"], 1, backend="spark"))
    with pytest.raises(ArenaError, match="unknown game"):
        run_tournament(TournamentConfig("chess", ["random", "greedy"], 1))


def test_arena_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(
        ["arena", "cage", "--agents", "greedy,random", "--games", "2", "--out", str(tmp_path)]
    )
    out = io.StringIO()
    assert args.func(args, out) == 0
    assert "| greedy |" in out.getvalue()
    assert "2/2 games" in capsys.readouterr().err
    bad = parser().parse_args(["arena", "cage", "--agents", "greedy,wizard"])
    assert bad.func(bad) == 2
    assert "unknown agent 'wizard'" in capsys.readouterr().err
    seating = ["arena", "cage(players=3)", "--agents", "greedy,random,easy", "--seating", "any"]
    bad = parser().parse_args(seating)
    assert bad.func(bad) == 2
    assert "--seating 'any': choose one of all, rotate" in capsys.readouterr().err


def test_solve_command(capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(["solve", "cage(players=2,stock=3:1)", "--max-plies", "9"])
    out = io.StringIO()
    assert args.func(args, out) == 0
    text = out.getvalue()
    assert "win in 9 plies" in text and "best first moves: W0 W2 W4 W6" in text
    for argv in (["solve", "axia"], ["solve", "cage", "--max-plies", "0"], ["solve", "nope"]):
        bad = parser().parse_args(argv)
        assert bad.func(bad) == 2
    assert "error:" in capsys.readouterr().err


def test_ray_backend_plays_the_same_games() -> None:
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        config = TournamentConfig("cage", ["greedy", "random"], games=2, seed=7, backend="ray")
        on_ray = run_tournament(config)
    finally:
        ray.shutdown()
    local = run_tournament(TournamentConfig("cage", ["greedy", "random"], games=2, seed=7))
    assert [r["record"]["moves"] for r in on_ray.results] == [
        r["record"]["moves"] for r in local.results
    ]
    assert [r["returns"] for r in on_ray.results] == [r["returns"] for r in local.results]
