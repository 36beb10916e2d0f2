"""The Axiom search: tactics on hand-picked positions, the clock, the repetition-aware
transposition table, reproducibility, analysis and bad input."""

from __future__ import annotations

import random
import time

import pytest

from gameshelf.agents import AlphaBetaAgent, make_agent
from gameshelf.agents.axiom.learned import (
    board_of,
    classify,
    position_hash,
    position_key,
    sceptre_facts,
    side_facts,
    summarise,
)
from gameshelf.agents.axiom.search import CONTEMPT, MATE_BOUND, AxiomSearchAgent
from gameshelf.agents.levels import build_level, level_spec
from gameshelf.core.game import State
from gameshelf.core.registry import load
from gameshelf.games.axiom import AxiomGame

SELF_CAPTURE = """
(black) C (-1,0,1)x- z+
(black) C (-1,0,2)x+
(black) C (0,1,1)z+
(black) C (1,0,1)x- z+
(black) C (1,0,2)x+
(black) C (2,1,1)x+ z+
(black) S (-1,0,2)z+
(black) S (1,0,2)z+
(white) C (-1,-1,1)x- y+
(white) C (-1,1,1)x+ z+
(white) C (-1,1,2)x-
(white) C (0,-1,1)x+
(white) C (1,1,1)x+ z+
(white) C (1,1,2)x-
(white) S (1,1,1)y+
(white) S (1,1,2)z+
"""
"""White to move; ``S(1,1,1) S(1,1,2)y+`` puts both white sceptres on one cube (a loss)."""

THREATENED = """
(black) C (-1,0,1)x- z+
(black) C (-1,0,2)x+
(black) C (1,0,1)x- z+
(black) C (1,0,2)x+
(black) C (2,0,1)y+ z+
(black) C (2,1,1)y+
(black) S (-1,0,2)z+
(black) S (2,0,1)x+
(white) C (0,0,1)x- z+
(white) C (0,1,1)x+ y+
(white) C (0,1,2)z-
(white) C (1,1,1)x+ z+
(white) C (2,0,2)y+
(white) C (2,2,1)x-
(white) S (0,1,2)z+
(white) S (2,1,1)z+
"""
"""White to move; Black threatens ``S(2,0,1) S(2,1,1)x+``, capturing on White's cube."""

SHUFFLE = (
    "S(-1,0,2) S(-1,0,1)y-",
    "S(-1,1,2) S(-1,1,1)y+",
    "S(-1,0,1) S(-1,0,2)z+",
    "S(-1,1,1) S(-1,1,2)z+",
)
"""Four sceptre moves that bring the start position back."""


def axiom_game() -> AxiomGame:
    game = load("axiom")
    assert isinstance(game, AxiomGame)
    return game


def axiom_position(listing: str, to_move: int) -> State:
    return axiom_game().from_listing(listing, to_move)


def captures_available(state: State) -> list[int]:
    return [a for a in state.legal_actions() if state.action_info(a).captures]  # type: ignore[attr-defined]


def agent(seed: int = 1, nodes: int = 3000) -> AxiomSearchAgent:
    return AxiomSearchAgent(load("axiom"), seed=seed, node_budget=nodes)


def test_takes_a_capture_in_one() -> None:
    state = load("axiom").new_initial_state()
    state.play("S(1,0,2) S(1,0,2)y-")  # Black steps off its top: White can capture there
    assert captures_available(state)
    state.apply_action(agent().step(state))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_never_captures_its_own_sceptre() -> None:
    state = axiom_position(SELF_CAPTURE, 1)
    losing = [a for a in state.legal_actions() if state.action_info(a).self_capture]  # type: ignore[attr-defined]
    assert losing  # the trap is there to fall into
    for seed in range(3):
        action = agent(seed, nodes=400).step(state)
        assert action not in losing
        child = state.clone()
        child.apply_action(action)
        assert not child.is_terminal()


def test_defends_a_capture_threat() -> None:
    state = axiom_position(THREATENED, 1)
    assert any(state.action_info(a).captures for a in state.moves_of(0))  # type: ignore[attr-defined]
    defences = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal() and not captures_available(child):
            defences.append(action)
    assert defences and len(defences) < len(state.legal_actions())
    action = agent(nodes=2000).step(state)
    assert action in defences


def test_analyse_proves_a_win_in_one() -> None:
    state = load("axiom").new_initial_state()
    state.play("S(1,0,2) S(1,0,2)y-")
    result = agent(nodes=400).analyse(state, 5.0, top=2)
    assert len(result) == 2
    best = result[0]
    assert best.solved == "win" and best.value == 1.0
    assert best.action in captures_available(state)
    assert best.pv == (state.action_to_string(best.action),)
    assert result[1].value <= best.value


def test_analyse_gives_values_and_lines() -> None:
    state = load("axiom").new_initial_state()
    result = AxiomSearchAgent(state.game, seed=2, node_budget=1500).analyse(state, 30.0, top=3)
    assert len(result) == 3
    values = [r.value for r in result]
    assert values == sorted(values, reverse=True)
    legal = state.legal_actions()
    for r in result:
        assert 0.0 <= r.value <= 1.0 and r.action in legal
        assert r.pv[0] == state.action_to_string(r.action) == r.text
        line = state.clone()
        for text in r.pv:  # the principal variation is a playable line
            line.play(text)


def test_respects_the_clock() -> None:
    state = load("axiom").new_initial_state()
    state.play("S(-1,0,2) S(0,0,2)z+")
    searcher = AxiomSearchAgent(state.game, seed=1, time_limit=0.2)
    start = time.perf_counter()
    searcher.step(state)
    elapsed = time.perf_counter() - start
    assert elapsed < 5.0  # generous: the search stops itself at 0.2 s
    assert searcher.nodes < 1_000_000


def test_the_level_stops_at_its_budget_in_nodes() -> None:
    game = load("axiom")
    bot = build_level(game, "medium", seed=1, fixed=True)
    assert isinstance(bot, AxiomSearchAgent)
    bot.step(game.new_initial_state())
    assert bot.nodes <= level_spec(game, "medium").budget


def test_a_repeated_position_is_not_the_fresh_node() -> None:
    game = axiom_game()
    played = game.new_initial_state()  # the start has occurred once
    for move in SHUFFLE[:3]:
        played.play(move)
    loaded = game.from_listing(played.listing(), played.to_move)
    twice = played.clone()
    twice.play(SHUFFLE[3])
    for move in SHUFFLE[:3]:
        twice.play(move)  # now the start has occurred twice
    back = played.parse_action(SHUFFLE[3])
    assert loaded.parse_action(SHUFFLE[3]) == twice.parse_action(SHUFFLE[3]) == back
    start = position_hash(game.new_initial_state())
    searcher = agent(nodes=50_000)
    # with no history the start is reached for the first time, after the shuffle the second
    assert abs(searcher.score_move(loaded, back, 2)) < MATE_BOUND
    assert (start, 1) in searcher.table and (start, 2) not in searcher.table
    searcher.score_move(played, back, 2)
    assert (start, 2) in searcher.table
    assert searcher.table[start, 1] is not searcher.table[start, 2]
    # the third time is a draw by repetition, whatever the table holds for the start
    assert searcher.score_move(twice, back, 2) == 0
    assert (start, 3) not in searcher.table


def test_a_draw_costs_the_player_choosing_the_contempt_in_play_and_nothing_in_analysis() -> None:
    game = axiom_game()
    twice = game.new_initial_state()
    for move in SHUFFLE + SHUFFLE[:3]:
        twice.play(move)
    back = twice.parse_action(SHUFFLE[3])  # the start position a third time: a draw
    searcher = agent(nodes=50_000)
    assert searcher.score_move(twice, back, 2) == 0
    assert searcher.score_move(twice, back, 2, contempt=CONTEMPT) == -CONTEMPT
    assert searcher.score_move(twice, back, 2) == 0  # the table is not the contempt's
    assert CONTEMPT > 0  # play uses it


def test_fixed_seed_and_node_budget_reproduce_the_moves() -> None:
    def line(seed: int) -> list[int]:
        state = load("axiom").new_initial_state()
        bot = agent(seed, nodes=250)
        moves = []
        for _ in range(3):
            action = bot.step(state)
            moves.append(action)
            state.apply_action(action)
        return moves

    assert line(7) == line(7)


def test_prefers_the_faster_win() -> None:
    state = load("axiom").new_initial_state()
    state.play("S(1,0,2) S(1,0,2)y-")
    searcher = agent()
    win = captures_available(state)[0]
    assert searcher.score_move(state, win, 1) >= MATE_BOUND
    slower = next(a for a in state.legal_actions() if a not in captures_available(state))
    assert searcher.score_move(state, slower, 3) < searcher.score_move(state, win, 1)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"node_budget": 0}, "node_budget"),
        ({"max_depth": 0}, "max_depth"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, float], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        AxiomSearchAgent(load("axiom"), seed=1, **kwargs)  # type: ignore[arg-type]


def test_other_games_are_refused() -> None:
    with pytest.raises(ValueError, match="Axiom only"):
        AxiomSearchAgent(load("cage"), seed=1)


def test_bad_analysis_requests_are_refused() -> None:
    state = load("axiom").new_initial_state()
    searcher = agent()
    with pytest.raises(ValueError, match="seconds"):
        searcher.analyse(state, 0.0)
    with pytest.raises(ValueError, match="top"):
        searcher.analyse(state, 1.0, top=0)
    with pytest.raises(ValueError, match="not a legal move"):
        searcher.score_move(state, 10**6, 1)


def test_the_batch_decoder_agrees_with_the_engine() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(6):
        state = load("axiom").new_initial_state()
        while not state.is_terminal() and state.ply < 30:  # type: ignore[attr-defined]
            for player in (0, 1):
                moves = state.moves_of(player)  # type: ignore[attr-defined]
                for action, facts in sceptre_facts(state, moves).items():
                    info = state.action_info(action)  # type: ignore[attr-defined]
                    assert info.kind == "sceptre"
                    assert (facts.source, facts.target) == (info.source, info.target)
                    assert (facts.captures, facts.self_capture) == (
                        info.captures,
                        info.self_capture,
                    )
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 500


def _random_positions(seed: int, games: int, plies: int) -> list[State]:
    """Positions of random games (captures and eliminations come up often enough)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = load("axiom").new_initial_state()
        while not state.is_terminal() and state.ply < plies:  # type: ignore[attr-defined]
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_the_one_pass_summaries_agree_with_the_move_by_move_facts() -> None:
    seen = {"capture": 0, "self-capture": 0, "elimination": 0, "pressure": 0}
    for state in _random_positions(5, 40, 40):
        board = board_of(state)
        for player in (0, 1):
            moves = state.moves_of(player)  # type: ignore[attr-defined]
            facts = sceptre_facts(state, moves)
            side = summarise(board, player, moves)
            assert side == side_facts(state, player, moves, facts)
            wins, losing, eliminating = classify(board, player, moves)
            assert wins == any(f.captures for f in facts.values())
            if not wins:
                assert losing == {a for a, f in facts.items() if f.self_capture}
                assert eliminating == {a for a in facts.keys() - losing if facts[a].eliminates}
            seen["capture"] += wins
            seen["self-capture"] += bool(losing)
            seen["elimination"] += side.eliminations > 0
            seen["pressure"] += side.pressure > 0
    assert min(seen.values()) > 10, seen


def test_the_engines_position_key_hashes_like_the_repetition_rules_position() -> None:
    keys: dict[int, tuple[object, ...]] = {}
    positions = _random_positions(9, 30, 40)
    for state in positions:
        # translated copies (a column slid in x or y) are the same position for the rule
        keys.setdefault(position_hash(state), position_key(state))
        assert keys[position_hash(state)] == position_key(state)
    assert len(set(keys.values())) == len(keys) > len(positions) // 2


def test_the_previous_hard_stays_available_for_the_arena() -> None:
    bot = make_agent("axiom-previous-hard", load("axiom"), seed=1)
    assert isinstance(bot, AlphaBetaAgent) and bot.max_depth == 3 and bot.node_budget == 6000
    with pytest.raises(ValueError, match="plays axiom only"):
        make_agent("axiom-previous-hard", load("cage"), seed=1)


def test_the_classical_engine_thinks_three_times_hards_time_on_the_clock_alone() -> None:
    game = load("axiom")
    bot = make_agent("axiom-classic", game, seed=1)
    assert isinstance(bot, AlphaBetaAgent)
    assert bot.time_limit == pytest.approx(3 * level_spec(game, "hard").time_limit)
    assert bot.node_budget > 10**12 and bot.max_depth >= 30  # the clock, not a cap, stops it
    with pytest.raises(ValueError, match="plays axiom only"):
        make_agent("axiom-classic", load("cage"), seed=1)


def test_an_analysis_cut_short_reports_only_moves_it_valued() -> None:
    state = load("axiom").new_initial_state()
    result = AxiomSearchAgent(state.game, seed=1, node_budget=20).analyse(state, 30.0, top=32)
    assert 1 <= len(result) < 32  # 20 nodes cannot value all 32 first moves
    for r in result:
        child = state.clone()
        child.apply_action(r.action)
        if captures_available(child):  # the three first moves that hand White a capture
            assert (r.solved, r.value) == ("loss", 0.0)
        else:
            assert r.solved is None and 0.0 < r.value < 1.0
