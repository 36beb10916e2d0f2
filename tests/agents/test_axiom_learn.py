"""The Axiom evaluation's weights learned from self-play: terms, fit, the shipped file, levels."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from tools.learn.axiom import fit, position_terms, self_play

import gameshelf
from gameshelf.agents import make_agent
from gameshelf.agents.axiom.learned import (
    DEFAULT_WEIGHTS,
    LEARNED_PATH,
    TERMS,
    Weights,
    eval_terms,
    evaluate,
    learned_value_scale,
    learned_weights,
    load_value_scale,
    load_weights,
    moves_of,
    score_terms,
)
from gameshelf.agents.axiom.search import AxiomSearchAgent
from gameshelf.agents.levels import build_level

ROOT = Path(__file__).resolve().parents[2]
ZERO = Weights(**dict.fromkeys(TERMS, 0))


def positions(count: int, seed: int = 5) -> list[object]:
    """Positions along seeded random Axiom games (not finished)."""
    game = gameshelf.load("axiom")
    rng = random.Random(seed)
    found: list[object] = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 30)):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            found.append(state)
    return found


def test_the_score_is_linear_in_the_terms_as_the_fit_assumes() -> None:
    """Each weight multiplies its own term (cube mobility per four moves), nothing else: the
    fitted weights are exactly what the search computes with."""
    for state in positions(25):
        mine = list(state.legal_actions())  # type: ignore[attr-defined]
        theirs = moves_of(state, 1 - state.to_move)  # type: ignore[attr-defined]
        terms = eval_terms(state, mine, theirs)
        assert len(terms) == len(TERMS) and terms[TERMS.index("tempo")] == 1
        for index, term in enumerate(TERMS):
            unit = replace(ZERO, **{term: 4 if term == "cube_mobility" else 1})
            assert score_terms(terms, unit) == terms[index]
        for weights in (DEFAULT_WEIGHTS, learned_weights()):
            assert evaluate(state, mine, theirs, weights) == score_terms(terms, weights)


def test_material_counts_cubes_for_the_mover() -> None:
    state = next(s for s in positions(10) if position_terms(s) is not None)
    me = state.to_move  # type: ignore[attr-defined]
    cubes = state.cubes.values()  # type: ignore[attr-defined]
    expected = sum(1 if value >> 6 == me else -1 for value in cubes)
    terms = position_terms(state)
    assert terms is not None and terms[TERMS.index("cube")] == expected


def test_the_fit_recovers_known_weights() -> None:
    """Results drawn from a logistic model with known weights give those weights back."""
    truth = Weights(100, 20, 8, 10, 60, 40, 150, 120, 300, 30)
    scale = 300.0
    rng = random.Random(3)
    rows = []
    for _ in range(30_000):
        terms = (
            rng.randint(-3, 3),
            rng.randint(-10, 10),
            rng.randint(-40, 40),
            rng.randint(-4, 4),
            rng.randint(-2, 2),
            rng.randint(-2, 2),
            rng.randint(-2, 2),
            -int(rng.random() < 0.2),
            -int(rng.random() < 0.05),
            1,
        )
        logit = score_terms(terms, truth) / scale
        rows.append((terms, 1.0 if rng.random() < 1 / (1 + 2.718281828**-logit) else 0.0))
    found = fit(rows, ridge=0.0)
    assert found.weights.cube == 100 and found.positions == len(rows)
    for term in TERMS:
        want, got = getattr(truth, term), getattr(found.weights, term)
        assert abs(got - want) <= max(15, 0.15 * want), (term, got, want)  # sampling noise
    assert abs(found.scale - scale) < 0.1 * scale


def test_self_play_rows_are_results_for_each_mover() -> None:
    rows = self_play(3, nodes=60, opening=4)
    assert rows and all(result in (0.0, 0.5, 1.0) for _, result in rows)
    assert all(len(terms) == len(TERMS) for terms, _ in rows)
    results = {result for _, result in rows}
    assert results in ({0.5}, {0.0, 1.0})  # a draw for both, or a winner and a loser


def test_the_shipped_weights_are_learned_and_used_by_the_levels() -> None:
    weights = load_weights(LEARNED_PATH)
    assert weights == learned_weights() != DEFAULT_WEIGHTS
    trained = json.loads(LEARNED_PATH.read_text())["trained"]
    assert trained["cross_entropy"] < trained["hand_written_cross_entropy"]
    game = gameshelf.load("axiom")
    for level in ("medium", "hard", "expert"):
        agent = build_level(game, level, 0)
        assert isinstance(agent, AxiomSearchAgent) and agent.weights == weights
    hand = make_agent("axiom-hand-eval", game, 0)
    assert isinstance(hand, AxiomSearchAgent) and hand.weights == DEFAULT_WEIGHTS
    with pytest.raises(ValueError, match="plays axiom only"):
        make_agent("axiom-hand-eval", gameshelf.load("cage"), 0)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "cannot be read as JSON"),
        ("[]", "no 'weights' object"),
        ('{"weights": {"cube": 100}}', "missing terms"),
        (json.dumps({"weights": {**dict.fromkeys(TERMS, 1), "luck": 3}}), "unknown terms"),
        (json.dumps({"weights": {**dict.fromkeys(TERMS, 1), "pin": 1.5}}), "pin must be"),
        (json.dumps({"weights": {**dict.fromkeys(TERMS, 1), "pin": True}}), "pin must be"),
    ],
)
def test_a_broken_weights_file_is_refused_by_name(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "weights.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=says):
        load_weights(path)


def test_the_tool_duels_weights_on_equal_nodes(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools.learn.axiom", "duel",
         "--games", "4", "--nodes", "40", "--jobs", "1"],
        capture_output=True, text=True, timeout=300, check=True, cwd=ROOT,
    )  # fmt: skip
    assert "against hand, 40 nodes a move, 4 games from 2 openings: scored" in done.stdout


def test_training_from_a_broken_weights_file_is_refused_before_any_game(tmp_path: Path) -> None:
    broken = tmp_path / "round1.json"
    broken.write_text('{"weights": {"cube": 100}}')
    out = tmp_path / "round2.json"
    done = subprocess.run(
        [sys.executable, "-m", "tools.learn.axiom", "train",
         "--games", "2", "--nodes", "40", "--jobs", "1",
         "--play-weights", str(broken), "--out", str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2
    assert f"error: Axiom weights file {broken}: unknown terms [], missing terms" in done.stderr
    assert "/2 games" not in done.stderr and not out.exists()  # no progress: no game played


def test_the_levels_turn_scores_into_chances_on_the_scale_their_fit_measured() -> None:
    trained = json.loads(LEARNED_PATH.read_text())["trained"]
    assert learned_value_scale() == trained["centi_cubes_per_logistic_unit"] > 0
    game = gameshelf.load("axiom")
    assert build_level(game, "hard", 0).value_scale == learned_value_scale()  # type: ignore[attr-defined]
    assert make_agent("axiom-hand-eval", game, 0).value_scale == 250  # type: ignore[attr-defined]
    agent = AxiomSearchAgent(game, 0, value_scale=400.0)
    state = game.new_initial_state()
    action = state.legal_actions()[0]
    agent._think = lambda *args: [(action, 400)]  # type: ignore[method-assign]
    (row,) = agent.analyse(state, 1.0, top=1)
    assert row.value == pytest.approx(1 / (1 + math.exp(-1)))  # one logistic unit up


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"weights": {}}', "centi_cubes_per_logistic_unit must be a positive number, got None"),
        ('{"trained": {"centi_cubes_per_logistic_unit": -3}}', "got -3"),
        ('{"trained": {"centi_cubes_per_logistic_unit": "417"}}', "got '417'"),
        ("[1", "cannot be read as JSON"),
    ],
)
def test_a_broken_value_scale_is_refused_by_name(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "weights.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=says):
        load_value_scale(path)
