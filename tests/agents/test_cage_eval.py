"""The two-player Cage's learned evaluation: its terms, its weights file, the fit, the levels."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from tools.learn import cage as cage_learn
from tools.learn.cage import DUEL_SEEDS, duel, fit, self_play
from tools.learn.command import Learner, learner_main

from gameshelf.agents import make_agent
from gameshelf.agents.cage.learned import (
    LEARNED_PATH,
    TERMS,
    CageWeights,
    learned_weights,
    load_weights,
)
from gameshelf.agents.cage.search import (
    IMMEDIATE,
    LATENT,
    SINGLE,
    TO_MOVE_WINS,
    TWIST,
    CageAlphaBetaAgent,
    learned_value,
    line_tally,
    position_terms,
    twist_threats,
)
from gameshelf.core.game import Game
from gameshelf.core.registry import load
from gameshelf.games.cage import CageState
from gameshelf.games.cage.geometry import LINES

TERM = {name: index for index, name in enumerate(TERMS)}


def state_of(text: str) -> CageState:
    state = load("cage").state_from_position(text)
    assert isinstance(state, CageState)
    return state


def random_positions(count: int, seed: int) -> list[CageState]:
    game = load("cage")
    rng = random.Random(seed)
    found: list[CageState] = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(2, 40)):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            assert isinstance(state, CageState)
            found.append(state)
    return found


def test_the_empty_cage_has_only_the_constant_term() -> None:
    terms = position_terms(state_of("-/-/-/-/-/-/-/- W4Y4R4O4B4G4 0 - 0 *"))
    assert terms is not None
    assert terms == [0] * (len(TERMS) - 1) + [1]


def test_one_cubie_counts_a_single_for_each_line_through_it() -> None:
    # White's cubie in cell 0; orange (player 2) to move: the lines are the opponent's.
    terms = position_terms(state_of("W/-/-/-/-/-/-/- W3Y4R4O4B4G4 1 - 1 *"))
    assert terms is not None
    assert terms[TERM["single_theirs"]] == sum(1 for line in LINES if 0 in line) > 0
    assert terms[TERM["single_mine"]] == 0
    assert terms[TERM["cubies"]] == 12 - 11  # the mover's cubies left less the opponent's


def test_two_in_a_column_are_ready_open_or_dead_by_the_cubies_left() -> None:
    # White WW in column 0, its top cell the next drop there: ready while white has cubies.
    ready = position_terms(state_of("WW/-/-/-/-/-/-/- W2Y4R4O4B4G4 1 - 2 *"))
    assert ready is not None and ready[TERM["ready_theirs"]] == 1
    assert ready[TERM["dead_theirs"]] == 0
    # All four white cubies in the cage (two apart in columns 3 and 5): the line is dead.
    dead = position_terms(state_of("WW/-/-/W/-/W/-/- W0Y4R4O4B4G4 1 - 4 *"))
    assert dead is not None and dead[TERM["dead_theirs"]] == 1
    assert dead[TERM["ready_theirs"]] == dead[TERM["open_theirs"]] == 0
    # The mover's own line in one is a win, not a term.
    assert position_terms(state_of("WW/-/-/-/-/-/-/- W2Y4R4O4B4G4 0 - 2 *")) is None


def test_terms_sort_every_line_as_the_hand_written_tally_does() -> None:
    # The hand-written tally weighs the same lines: singles, two-cubie lines (latent or ready)
    # and twist threats; on random positions the terms must add up to its scores exactly.
    for state in random_positions(120, seed=3):
        terms = position_terms(state)
        scores, ready_owners = line_tally(state)
        mover = state.player
        if terms is None:
            assert ready_owners >> mover & 1
            continue
        assert not ready_owners >> mover & 1
        for side, player in (("mine", mover), ("theirs", 1 - mover)):
            ready = terms[TERM["ready_theirs"]] if side == "theirs" else 0
            latent = terms[TERM[f"open_{side}"]] + terms[TERM[f"dead_{side}"]]
            expected = SINGLE * terms[TERM[f"single_{side}"]] + LATENT * latent + IMMEDIATE * ready
            assert scores[player] == pytest.approx(expected)
        twists = sorted(state.game.owner[value - 1] for value, _ in twist_threats(state.board))
        assert twists.count(mover) == terms[TERM["twist_mine"]]
        assert twists.count(1 - mover) == terms[TERM["twist_theirs"]]
        assert TWIST > 0


def test_the_learned_value_is_the_fitted_chance_on_the_search_scale() -> None:
    weights = learned_weights()
    for state in random_positions(40, seed=5):
        terms = position_terms(state)
        value = learned_value(state, weights.vector())
        if terms is None:
            assert value == TO_MOVE_WINS
            continue
        logit = sum(w * t for w, t in zip(weights.vector(), terms, strict=True))
        chance = 1 / (1 + math.exp(-logit))
        assert value == pytest.approx(100 * (2 * chance - 1))
        agent = CageAlphaBetaAgent(state.game, 1, weights=weights)
        mover = state.player
        assert agent._static_value(state, mover) == pytest.approx(value)
        assert agent._static_value(state, 1 - mover) == pytest.approx(-value)


def test_the_shipped_weights_load_and_read_as_a_careful_player_would() -> None:
    weights = load_weights(LEARNED_PATH)
    assert weights == learned_weights()
    assert weights.ready_theirs < 0 < weights.twist_mine  # a line in one against is bad
    data = json.loads(LEARNED_PATH.read_text(encoding="utf-8"))
    assert data["trained"]["cross_entropy"] < data["trained"]["constant_cross_entropy"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "cannot be read as JSON"),
        ('{"trained": {}}', "no 'weights' object"),
        ('{"weights": {"single_mine": 1}}', "missing terms"),
        ('{"weights": {"sceptre": 1}}', "unknown terms ['sceptre']"),
    ],
)
def test_a_broken_weights_file_is_refused_by_name(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "weights.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match="Cage weights file") as error:
        load_weights(path)
    assert message in str(error.value) and str(path) in str(error.value)


def test_a_weight_that_is_no_number_is_refused(tmp_path: Path) -> None:
    values: dict[str, object] = {term: 0.5 for term in TERMS}
    values["cubies"] = "many"
    path = tmp_path / "weights.json"
    path.write_text(json.dumps({"weights": values}), encoding="utf-8")
    with pytest.raises(ValueError, match="cubies must be a number, got 'many'"):
        load_weights(path)


def test_the_fit_recovers_weights_that_made_the_results() -> None:
    rng = random.Random(7)
    truth = [0.3, -0.2, 0.8, -0.6, -0.4, 0.2, -1.5, 1.0, -1.0, 0.1, 0.2]
    rows = []
    for _ in range(20_000):
        terms = (*(rng.randrange(0, 5) for _ in TERMS[:-2]), rng.randrange(-4, 5), 1)
        logit = sum(w * t for w, t in zip(truth, terms, strict=True))
        rows.append((terms, 1.0 if rng.random() < 1 / (1 + math.exp(-logit)) else 0.0))
    result = fit(rows)
    assert result.cross_entropy < result.constant_cross_entropy
    for fitted, true in zip(result.weights.vector(), truth, strict=True):
        assert fitted == pytest.approx(true, abs=0.08)


def test_the_fit_refuses_too_few_positions() -> None:
    with pytest.raises(ValueError, match="too few"):
        fit([((0,) * len(TERMS), 1.0)] * 5)


def test_self_play_gives_every_judged_position_its_result_for_the_mover() -> None:
    rows = self_play(0, nodes=300, opening=4)
    assert rows
    assert all(len(terms) == len(TERMS) and terms[-1] == 1 for terms, _ in rows)
    results = {result for _, result in rows}
    assert results <= {0.0, 0.5, 1.0}
    if 0.5 not in results:  # a decided game: the two sides' positions got opposite results
        assert results == {0.0, 1.0}


def test_self_play_replays_exactly_so_the_shipped_weights_can_be_remade() -> None:
    assert self_play(3, nodes=300, opening=4) == self_play(3, nodes=300, opening=4)
    assert self_play(3, nodes=300, opening=4) != self_play(4, nodes=300, opening=4)


def test_a_duel_gives_each_opening_to_both_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[CageWeights | None] = []

    class Recording(CageAlphaBetaAgent):
        def __init__(self, game: Game, seed: int | None = None, **search: Any) -> None:
            made.append(search["weights"])
            super().__init__(game, seed, **search)

    monkeypatch.setattr(cage_learn, "CageAlphaBetaAgent", Recording)
    zero = CageWeights(*([0.0] * len(TERMS)))
    opening = cage_learn._opening(DUEL_SEEDS, 4)
    assert opening is not None
    for index, first in ((0, zero), (1, None)):
        made.clear()
        assert duel((index, 200, 4, zero, None)) in (0.0, 0.5, 1.0)
        assert made[opening.player] is first  # the opening's mover is seat opening.player


def test_the_two_player_levels_use_the_learned_weights_and_the_trial_agent_does_not() -> None:
    game = load("cage")
    for level in ("hard", "expert"):
        agent = make_agent(level, game, seed=1)
        assert isinstance(agent, CageAlphaBetaAgent) and agent.weights == learned_weights()
    hand = make_agent("cage-hand-eval", game, seed=1)
    assert isinstance(hand, CageAlphaBetaAgent) and hand.weights is None
    hard = make_agent("hard", game, seed=1)
    assert isinstance(hard, CageAlphaBetaAgent) and hand.time_limit == hard.time_limit
    with pytest.raises(ValueError, match="two-player Cage only"):
        make_agent("cage-hand-eval", load("cage(players=3)"), seed=1)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["duel", "--games", "0"], "--games must be at least 1, not 0"),
        (["train", "--nodes", "-5"], "--nodes must be at least 1, not -5"),
        (["duel", "--opening", "-1"], "--opening must be at least 0, not -1"),
        (["train", "--jobs", "0"], "--jobs must be at least 1, not 0"),
    ],
)
def test_the_tool_refuses_counts_below_their_least_before_any_game(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def no_games(job: Any) -> Any:
        raise AssertionError("a game was played")

    learner = Learner(no_games, fit, no_games, no_games, load_weights, None, LEARNED_PATH, 4, 5, 6)
    out = tmp_path / "weights.json"
    status = learner_main(
        "learn", learner, [*argv, *(["--out", str(out)] if argv[0] == "train" else [])]
    )
    assert status == 2 and says in capsys.readouterr().err
    assert not out.exists()
