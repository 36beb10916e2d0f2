"""The analysis board's analyser: it finds forced wins, marks blunders and, with hidden cards,
reads nothing but the analysing seat's own view."""

from __future__ import annotations

import pytest

from gameshelf.agents.analysis import (
    AnalysisError,
    CheckedAnalyser,
    GenericAnalyser,
    MoveAnalysis,
    analyse_game,
    analyser_for,
    judge,
)
from gameshelf.agents.base import AGENTS, make_agent
from gameshelf.agents.determinize import copy_state
from gameshelf.agents.solver import Solver
from gameshelf.core.game import State
from gameshelf.core.registry import load
from gameshelf.games.axia.actions import PHASE_PLACE, PHASE_TURN
from gameshelf.games.axia.rules import AxiaState

from .axia_twins import advance_to, hidden_twin

WIN_IN_THREE = "-/R/GGW/YR/OR/-/G/WB W2Y3R1O3B3G1 0 G6 12 *"
"""Player 1 to move has exactly one forced win (T1-, win in 3 plies) and no win in 1."""

WIN_IN_ONE = "WY/-/O/O/-/-/G/Y W3Y2R4O2B4G3 1 Y7 9 *"
"""Player 2 to move wins at once with O4, the only winning move."""


def forced_wins(state: State, plies: int) -> list[str]:
    """Every first move the exact solver proves a win within ``plies`` plies."""
    solver = Solver(state.game)
    solver.me = state.current_player()
    out = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if solver.classify(child, plies - 1) == "win":
            out.append(state.action_to_string(action))
    return out


def test_the_positions_are_what_the_tests_say() -> None:
    game = load("cage")
    assert forced_wins(game.state_from_position(WIN_IN_THREE), 1) == []
    assert forced_wins(game.state_from_position(WIN_IN_THREE), 3) == ["T1-"]
    assert forced_wins(game.state_from_position(WIN_IN_ONE), 1) == ["O4"]


def test_finds_the_winning_move_of_a_won_cage_position() -> None:
    game = load("cage")
    state = game.state_from_position(WIN_IN_THREE)
    before = state.position()
    moves = GenericAnalyser(game, seed=1).analyse(state, seconds=20.0, top=3)
    assert state.position() == before  # the analysed state is not changed
    best = moves[0]
    assert (best.text, best.solved, best.value) == ("T1-", "win", 1.0)
    assert best.pv[0] == "T1-" and len(best.pv) >= 2
    assert len(moves) == 3 and all(m.solved != "win" for m in moves[1:])


@pytest.mark.parametrize("game_string", ["cage", "axia"])
def test_a_spent_clock_still_gives_the_moves_asked_for(game_string: str) -> None:
    """However loaded the machine (here: a clock spent at once), the analysis looks at as many
    root moves as it was asked to show before it stops."""
    game = load(game_string)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    moves = GenericAnalyser(game, seed=3).analyse(state, seconds=1e-9, top=3)
    assert len(moves) == min(3, len(state.legal_actions()))


def test_values_and_order() -> None:
    game = load("cage")
    state = game.new_initial_state()
    moves = GenericAnalyser(game, seed=2, iterations=400).analyse(state, seconds=3.0, top=0)
    assert len(moves) == len(state.legal_actions())
    assert all(0.0 <= m.value <= 1.0 for m in moves)
    values = [m.value for m in moves if m.solved is None]
    assert values == sorted(values, reverse=True)
    assert all(m.pv and m.pv[0] == m.text for m in moves)


def test_marks_a_known_blunder() -> None:
    """Player 2 can win at once with O4 but plays B0: a blunder; the winning move is not."""
    game = load("cage")
    start = game.state_from_position(WIN_IN_ONE)
    states = [start.clone()]
    for move in ("B0", None):
        start.play(move if move is not None else start.legal_actions()[0])
        states.append(start.clone())
    plies = analyse_game(states, GenericAnalyser(game, seed=3), seconds=1.5, top=2)
    first = plies[0]
    assert first.played == "B0" and first.best[0].text == "O4" and first.best[0].solved == "win"
    assert first.label == "blunder" and first.loss is not None and first.loss > 0.2

    won = game.state_from_position(WIN_IN_ONE)
    states = [won.clone()]
    won.play("O4")
    states.append(won.clone())
    (only,) = analyse_game(states, GenericAnalyser(game, seed=3), seconds=1.5)
    assert only.label is None and only.loss == 0.0 and only.played_value == 1.0


def test_judge_thresholds() -> None:
    best = MoveAnalysis(0, "a", 0.70, None, ("a",))

    def at(value: float, solved: str | None = None) -> str | None:
        return judge(best, MoveAnalysis(1, "b", value, solved, ("b",))).label

    assert [at(0.66), at(0.63), at(0.57), at(0.45)] == [None, "inaccuracy", "mistake", "blunder"]
    won = MoveAnalysis(0, "a", 1.0, "win", ("a",))
    assert judge(won, MoveAnalysis(1, "b", 0.5, "draw", ("b",))).label == "blunder"
    assert judge(won, MoveAnalysis(1, "b", 1.0, "win", ("b",))).label is None


def test_refuses_what_it_cannot_analyse() -> None:
    game = load("cage")
    state = game.state_from_position(WIN_IN_ONE)
    state.play("O4")
    with pytest.raises(AnalysisError, match="over"):
        GenericAnalyser(game).analyse(state, 1.0)
    with pytest.raises(AnalysisError, match="seconds"):
        GenericAnalyser(game).analyse(game.new_initial_state(), 0.0)


# --- hidden information -------------------------------------------------------------------


def axia_positions() -> list[AxiaState]:
    return [
        advance_to("axia", PHASE_PLACE, 3, skip=4),
        advance_to("axia", PHASE_TURN, 3, skip=6),
        advance_to("axia(players=3)", PHASE_TURN, 5, skip=6),
    ]


def analyse(state: State, peek: bool = False) -> list[MoveAnalysis]:
    analyser = GenericAnalyser(
        state.game, seed=5, iterations=80, determinizer=copy_state if peek else None
    )
    return analyser.analyse(state, seconds=60.0, top=0)


def test_axia_analysis_never_reads_other_hands() -> None:
    for state in axia_positions():
        me = state.current_player()
        twin = hidden_twin(state, me)
        assert twin.position() != state.position() and twin.view(me) == state.view(me)
        assert analyse(state) == analyse(twin)


def test_a_peeking_analysis_would_be_caught() -> None:
    """The same comparison with an analyser that searches the true state tells the twins
    apart, so the check above has teeth."""
    differences = 0
    for state in axia_positions():
        twin = hidden_twin(state, state.current_player())
        differences += analyse(state, peek=True) != analyse(twin, peek=True)
    assert differences > 0


# --- choosing and checking the analyser ---------------------------------------------------
class Blind:
    """An analyser that never sees the winning move: it offers the first legal move only."""

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        action = state.legal_actions()[0]
        text = state.action_to_string(action)
        return [MoveAnalysis(action, text, 0.6, None, (text,))]


def test_a_checked_analyser_never_hides_a_win_in_one() -> None:
    state = load("cage").state_from_position(WIN_IN_ONE)
    assert Blind().analyse(state, 1.0)[0].text != "O4"
    moves = CheckedAnalyser(Blind()).analyse(state, 1.0, top=5)
    assert [(m.text, m.solved, m.value) for m in moves] == [("O4", "win", 1.0), ("O0", None, 0.6)]


def test_the_strongest_analyser_is_chosen() -> None:
    for game_string in ("cage", "axiom", "axia"):
        game = load(game_string)
        chosen = analyser_for(game, seed=1)
        able = []
        for name in AGENTS:
            try:
                agent = make_agent(name, game, 1)
            except ValueError:
                continue
            if callable(getattr(agent, "analyse", None)):
                able.append(type(agent))
        if able:
            assert isinstance(chosen, CheckedAnalyser) and type(chosen.inner) in able
        else:
            assert isinstance(chosen, GenericAnalyser)
