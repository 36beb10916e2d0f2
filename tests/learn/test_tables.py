"""The Cage at three and four players: one value a seat from the network to the search's backup,
the self-play targets, the recipes of each table, and the command end to end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from gameshelf.cli.learn import _folder_name
from gameshelf.cli.main import main
from gameshelf.core.game import State
from gameshelf.core.registry import load
from gameshelf.learn.cage import RECIPE, TABLES
from gameshelf.learn.evaluate import CurvePoint
from gameshelf.learn.evaluator import NetEvaluator
from gameshelf.learn.loop import Run
from gameshelf.learn.master import MasterAgent
from gameshelf.learn.network import init_network, load_weights
from gameshelf.learn.puct import Tree, can_win
from gameshelf.learn.recipe import learn_command, recipe_for, recipe_named
from gameshelf.learn.samples import value_target
from gameshelf.learn.settings import LearnError, NetConfig, SearchConfig

from .helpers import TINY as HELPER_TINY
from .helpers import check_shipped_master, replayed, self_play_games

TINY = [*HELPER_TINY, "--eval-games", "3"]


def uniform(
    values: list[float],
) -> object:
    """An evaluator giving every legal move the same prior and every position ``values``
    (the mover's first, then round the table)."""

    def evaluate(
        states: list[State], actions: list[list[int]]
    ) -> list[tuple[list[float], list[float]]]:
        return [([1 / len(legal)] * len(legal), list(values)) for legal in actions]

    return evaluate


def test_a_seats_value_is_backed_up_to_the_positions_where_it_chooses() -> None:
    state = load("cage(players=3)").new_initial_state(0)
    tree = Tree(state, None)
    evaluate = uniform([0.5, -0.25, 0.125])
    [(priors, values)] = evaluate([tree.state], [tree.root.actions])  # type: ignore[operator]
    tree.root.expand(priors, values)
    # seat 0 to move at the root: the values are its, then seat 1's, then seat 2's
    assert [tree.root.value_for(seat) for seat in range(3)] == [0.5, -0.25, 0.125]
    found = tree.descend()
    assert found is not None
    path, leaf, _ = found
    assert leaf.mover == 1
    leaf.expand([1 / len(leaf.actions)] * len(leaf.actions), [0.5, -0.25, 0.125])
    tree.finish(path, leaf)
    [(root, index)] = path
    # The leaf's mover is seat 1: seat 0, who chose at the root, is last round the table.
    assert root.wins[index] == pytest.approx(0.125)
    assert [leaf.value_for(seat) for seat in range(3)] == [0.125, 0.5, -0.25]
    found = tree.descend()
    assert found is not None
    path, grandchild, _ = found
    # The root's one valued move is worth more to seat 0 than an untried one: deeper.
    assert len(path) == 2 and grandchild.mover == 2
    grandchild.expand([1 / len(grandchild.actions)] * len(grandchild.actions), [0.5, -0.25, 0.125])
    tree.finish(path, grandchild)
    (_, first), (middle, second) = path
    assert middle.wins[second] == pytest.approx(0.125)  # seat 1's value: it chooses there
    assert root.wins[first] == pytest.approx(0.125 + -0.25)  # seat 0's, both visits


def test_a_mover_who_can_win_is_valued_as_won_against_every_other_seat() -> None:
    game = load("cage(players=3)")
    rng = random.Random(3)
    for seed in range(60):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and not can_win(state, state.legal_actions()):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
    else:
        pytest.fail("no random game reached a position with a win at once")
    tree = Tree(state, can_win)
    tree.root.expand([1 / len(tree.root.actions)] * len(tree.root.actions), [0.0, 0.0, 0.0])
    mover = state.current_player()
    assert tree.root.value_for(mover) == 1.0
    assert [tree.root.value_for(s) for s in range(3) if s != mover] == [-1.0, -1.0]
    # master, even on an untrained network, plays a winning move there
    net = init_network(NetConfig(3, 16, 1), 0, TABLES[3].inputs, TABLES[3].heads)
    action = MasterAgent(game, 0, net=net, simulations=96).step(state)
    after = state.clone()
    after.apply_action(action)
    assert after.is_terminal() and after.returns()[mover] > 0


def test_the_evaluator_gives_one_value_a_seat_at_every_table() -> None:
    for players in (2, 3, 4):
        recipe = recipe_named("cage", players)
        game = load(recipe.game)
        net = init_network(NetConfig(players, 16, 1), 0, recipe.inputs, recipe.heads)
        evaluator = NetEvaluator(net, recipe.codec(game), recipe.heads, players)
        state = game.new_initial_state(1)
        [(priors, values)] = evaluator([state], [state.legal_actions()])
        assert len(priors) == len(state.legal_actions()) and sum(priors) == pytest.approx(1.0)
        assert len(values) == players
        if players == 2:  # one value from the network, the other seat's its negation
            assert values[1] == -values[0]


def test_a_curve_point_shares_a_draw_among_the_table() -> None:
    point = CurvePoint(0, "greedy", wins=1, draws=3, losses=2, players=3)
    assert point.score == pytest.approx((1 + 3 / 3) / 6)  # an equal seat scores 1/3
    assert CurvePoint(0, "greedy", 1, 2, 1).score == 0.5  # two players: a draw is half


def test_a_value_target_is_the_result_from_the_movers_seat_round_the_table() -> None:
    returns = [-1.0, 1.0, -1.0, -1.0]
    assert value_target(returns, 1, 4).tolist() == [1.0, -1.0, -1.0, -1.0]
    assert value_target(returns, 3, 4).tolist() == [-1.0, -1.0, 1.0, -1.0]
    assert value_target([1.0, -1.0], 1, 1).tolist() == [-1.0]  # two seats: the mover's only


@pytest.mark.parametrize("players", [3, 4])
def test_self_play_targets_are_every_seats_result_from_the_mover(players: int) -> None:
    recipe = TABLES[players]
    search = SearchConfig(simulations=8, leaves=2, sampled_plies=4)
    games, samples = self_play_games(recipe, 4, 10, search)
    assert samples.value.shape == (len(samples.features), players)
    assert np.allclose(samples.policy.sum(axis=1), 1.0, atol=1e-5)
    start = 0
    for moves in games:
        result, movers = replayed(recipe.game, moves)
        for row, mover in zip(samples.value[start : start + len(moves)], movers, strict=True):
            assert row.tolist() == [result[(mover + k) % players] for k in range(players)]
        start += len(moves)


def test_each_table_has_its_recipe_and_a_missing_one_is_named() -> None:
    assert recipe_named("cage") is RECIPE and RECIPE.players == 2
    assert [r.players for r in RECIPE.tables] == [2, 3, 4]
    assert recipe_named("cage", 4).game == "cage(players=4)"
    assert recipe_for(load("cage(players=3)")) is TABLES[3]
    assert learn_command(TABLES[3]) == "gameshelf learn cage --players 3"
    assert learn_command(RECIPE) == "gameshelf learn cage"
    with pytest.raises(LearnError, match="cage is learned at 2, 3, 4 players, not 5"):
        recipe_named("cage", 5)
    with pytest.raises(LearnError, match="axiom is learned at 2 players, not 3"):
        recipe_named("axiom", 3)


def test_learn_at_three_players_trains_resumes_and_master_plays_with_it(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["learn", "cage", "--players", "3", "--steps", "2", "--out", str(out), *TINY]
    assert main(args) == 0
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["step"] == 2
    points = summary["curve"]
    assert [p["step"] for p in points] == [0, 1, 2]
    # three games a point: the network's seat goes once round the table
    assert all(p["wins"] + p["draws"] + p["losses"] == 3 and p["players"] == 3 for p in points)
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    recipe = TABLES[3]
    net, config = load_weights(out / "weights.npz", recipe.inputs, recipe.heads)
    assert config.players == 3 and config.values == 3
    game = load("cage(players=3)")
    seats = [MasterAgent(game, seat, net=net, simulations=6) for seat in range(3)]
    state = game.new_initial_state(0)
    while not state.is_terminal():
        action = seats[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)

    resume = ["learn", "cage", "--resume", "--out", str(out), "--steps", "3", "--quiet"]
    assert main([*resume, "--players", "4"]) == 2
    assert "learns at 3 players, not 4" in capsys.readouterr().err
    assert main(resume) == 0  # the checkpoint knows its table
    assert json.loads((out / "summary.json").read_text("utf-8"))["step"] == 3
    assert (
        main(["learn", "cage", "--players", "5", "--steps", "1", "--out", str(tmp_path / "x")]) == 2
    )
    assert "cage is learned at 2, 3, 4 players, not 5" in capsys.readouterr().err


@pytest.mark.parametrize("players", [3, 4])
def test_master_plays_each_table_with_its_shipped_network(players: int) -> None:
    check_shipped_master(f"cage(players={players})", TABLES[players], 2 * players, 32)


def test_a_run_at_another_table_than_the_default_gets_its_own_folder() -> None:
    assert _folder_name(RECIPE) == "cage"
    assert _folder_name(TABLES[4]) == "cage-4"


def test_settings_for_another_table_and_a_leafless_master_are_refused(tmp_path: Path) -> None:
    with pytest.raises(LearnError, match=r"settings for 2 players cannot learn cage\(players=3\)"):
        Run("cage", tmp_path / "run", 1, settings=RECIPE.defaults, players=3)
    assert not (tmp_path / "run").exists()  # refused before anything was written
    with pytest.raises(ValueError, match="at least one leaf a network call, not 0"):
        MasterAgent(load("cage(players=3)"), 0, leaves=0)
