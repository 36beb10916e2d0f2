"""Axiom's learning: its codec, the batched engine self-play, the command end to end, and
``master`` playing Axiom."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from gameshelf.agents.axiom.encoding import AxiomActionEncoding, OutsideEncoding
from gameshelf.cli.main import main
from gameshelf.core.game import State
from gameshelf.core.registry import load
from gameshelf.learn.axiom.capture import wins_at_once
from gameshelf.learn.axiom.codec import AxiomCodec
from gameshelf.learn.axiom.recipe import RECIPE
from gameshelf.learn.master import MasterAgent
from gameshelf.learn.network import load_weights
from gameshelf.learn.puct import can_win
from gameshelf.learn.settings import SearchConfig

from .helpers import TINY as HELPER_TINY
from .helpers import check_shipped_master, replayed, self_play_games

TINY = [*HELPER_TINY, "--eval-games", "2"]


def random_positions(games: int, seed: int) -> list[State]:
    game = load("axiom")
    rng = random.Random(seed)
    positions = []
    for index in range(games):
        state = game.new_initial_state(index)
        while not state.is_terminal():
            positions.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return positions


def test_the_codes_are_the_parts_of_the_fixed_action_ids() -> None:
    codec = AxiomCodec(load("axiom"))
    fixed = AxiomActionEncoding()
    checked = 0
    for state in random_positions(3, 0)[::3]:
        actions = state.legal_actions()
        codes = codec.move_codes(state, actions)
        assert codes.shape == (len(actions), 3)
        assert np.all(codes < np.asarray(RECIPE.heads))
        try:
            parts = [fixed.parts(fixed.to_fixed(state, action)) for action in actions]
        except OutsideEncoding:
            continue  # the codec clamps such a structure to the box; the ids do not exist
        assert [tuple(row) for row in codes.tolist()] == parts
        assert codec.features(state).shape == (RECIPE.inputs,)
        checked += 1
    assert checked > 20


def test_a_win_at_once_is_a_capture_the_generic_check_also_sees() -> None:
    found = 0
    for state in random_positions(4, 1):
        actions = state.legal_actions()
        quick = wins_at_once(state, actions)
        assert not quick or can_win(state, actions)
        found += quick
    assert found > 0


def test_self_play_games_are_legal_and_their_targets_match_their_results() -> None:
    search = SearchConfig(simulations=6, leaves=3, sampled_plies=4)
    games, samples = self_play_games(RECIPE, 3, 20, search)
    assert np.allclose(samples.policy.sum(axis=1), 1.0, atol=1e-5)
    assert not np.any(samples.policy[~samples.mask] > 0)
    start = 0
    for moves in games:
        result, movers = replayed("axiom", moves)
        # Each position's value target is the final result for the player who moved there.
        assert list(samples.value[start : start + len(moves), 0]) == [result[p] for p in movers]
        start += len(moves)


def test_learn_axiom_trains_saves_resumes_and_master_plays_with_it(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["learn", "axiom", "--steps", "2", "--out", str(out), *TINY]) == 0
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["game"] == "axiom" and summary["step"] == 2
    assert summary["this_session"]["positions_per_worker_second"] > 0
    assert [(p["step"], p["opponent"]) for p in summary["curve"]] == [
        (0, "random"),
        (1, "random"),
        (2, "random"),
    ]
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "learn: step 2" in capsys.readouterr().err

    net, config = load_weights(out / "weights.npz", RECIPE.inputs, RECIPE.heads)
    assert (config.hidden, config.blocks) == (16, 1)
    game = load("axiom")
    state = game.new_initial_state()
    assert MasterAgent(game, 0, net=net, simulations=8).step(state) in state.legal_actions()

    assert main(["learn", "axiom", "--steps", "3", "--resume", "--out", str(out), "--quiet"]) == 0
    resumed = json.loads((out / "summary.json").read_text("utf-8"))
    assert resumed["step"] == 3 and resumed["this_session"]["steps"] == 1
    assert [p["step"] for p in resumed["curve"]] == [0, 1, 2, 3]
    # A run of one game is not resumed as another's.
    assert main(["learn", "cage", "--steps", "4", "--resume", "--out", str(out)]) == 2
    assert "learns axiom, not cage" in capsys.readouterr().err


def test_master_plays_axiom_with_the_shipped_network() -> None:
    check_shipped_master("axiom", RECIPE, plies=6, simulations=24)
