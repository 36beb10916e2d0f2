"""The multi-player Cage search: lines in one, blocks for every other player, rational opponents
(who do not hand the searcher the game either), no concession while a safe move is left,
no draw it is not forced to, its last cubie kept back, fixed-budget reproducibility and the
levels that used it (hard and expert at three and four players are now the Cage MCTS)."""

from __future__ import annotations

import random

import pytest

from gameshelf.agents.base import make_agent
from gameshelf.agents.cage.multi import DRAW_VALUE, PROVEN, CageParanoidAgent
from gameshelf.agents.cage.search import CageSearchAgent, decisive_moves, drop_win
from gameshelf.agents.levels import build_level, level_spec
from gameshelf.agents.mcts import Node
from gameshelf.agents.simple import GreedyAgent
from gameshelf.core.registry import load
from gameshelf.games.cage import CageState
from gameshelf.games.cage.actions import DROP_ACTIONS
from gameshelf.games.cage.board import line_colours

THREE = "cage(players=3)"
FOUR = "cage(players=4)"
WIN_IN_ONE_3P = ["W0", "R4", "B2", "W0", "R5", "B6"]
"""Player 1 (white, yellow) completes column 0 with W0."""
NEXT_THREATENS = ["W0", "R4", "B2", "W1", "R4", "B6"]
"""Player 2 (red) completes column 4 with R4 next; player 1 has no line to make."""
AFTER_NEXT_THREATENS = ["W0", "R1", "B4", "W2", "R3", "B4"]
"""Player 3 (blue) completes column 4 with B4 in two plies; players 1 and 2 have no line."""


def position(moves: list[str], game_string: str = THREE) -> CageState:
    state = load(game_string).new_initial_state()
    for move in moves:
        state.apply_action(state.parse_action(move))
    assert isinstance(state, CageState)
    return state


def agent(state: CageState, seed: int = 1, nodes: int = 4000) -> CageParanoidAgent:
    return CageParanoidAgent(state.game, seed, node_budget=nodes)


def test_takes_a_line_in_one() -> None:
    state = position(WIN_IN_ONE_3P)
    assert state.action_to_string(agent(state).step(state)) == "W0"
    four = position(["W0", "Y4", "R2", "O6", "W0", "Y4", "R6", "O2"], FOUR)
    assert four.action_to_string(agent(four).step(four)) == "W0"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_blocks_the_next_players_line(seed: int) -> None:
    state = position(NEXT_THREATENS)
    assert decisive_moves(state)[0] == [] and drop_win(state, 1) >= 0
    after = state.clone()
    after.apply_action(agent(state, seed).step(state))
    assert decisive_moves(after)[0] == [], "the next player is left a winning move"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_blocks_the_line_of_the_player_after_next(seed: int) -> None:
    state = position(AFTER_NEXT_THREATENS)
    assert drop_win(state, 2) >= 0 and drop_win(state, 1) < 0 and not decisive_moves(state)[0]
    after = state.clone()
    after.apply_action(agent(state, seed).step(state))
    assert decisive_moves(after)[0] == [], "the next player is left a winning move"
    assert drop_win(after, 2) < 0, "the third player's drop still completes their line"


SETS_UP_BLUE = ["W2", "R4", "B2", "Y7", "R0", "B4", "Y6"]
"""Player 2 (red) to move; blue holds the middle row's ends on the right face, so a drop into
the empty column 3 (R3, O3) would let blue complete it with B3."""


def test_other_players_do_not_set_up_a_third() -> None:
    state = position(SETS_UP_BLUE)
    assert state.player == 1 and drop_win(state, 2) < 0
    searcher = agent(state)
    searcher._me = 0
    replies = [action for action, _ in searcher._replies(state, None, 1, mine=False)]
    held_back = set(state.legal_actions()) - set(replies)
    assert {state.parse_action("R3"), state.parse_action("O3")} <= held_back
    for action in held_back:  # each gives blue a winning drop
        child = state.clone()
        child.apply_action(action)
        assert drop_win(child, 2) >= 0
    own_turn = [action for action, _ in searcher._replies(state, None, 1, mine=True)]
    assert sorted(own_turn) == sorted(state.legal_actions())


def test_a_threat_already_there_is_not_assumed_blocked() -> None:
    state = position(AFTER_NEXT_THREATENS)
    state.apply_action(state.parse_action("Y6"))
    assert state.player == 1 and drop_win(state, 2) >= 0
    searcher = agent(state)
    searcher._me = 0
    replies = [action for action, _ in searcher._replies(state, None, 1, mine=False)]
    assert sorted(replies) == sorted(state.legal_actions())


def test_a_fixed_budget_reproduces_a_seed_and_stops_at_it() -> None:
    state = position(["W0", "R1", "B2"])
    agents = [agent(state, seed=7, nodes=3000) for _ in range(2)]
    moves = {a.step(state) for a in agents}
    assert len(moves) == 1
    assert all(a.nodes <= 3001 and a.completed_depth >= 2 for a in agents)


@pytest.mark.parametrize("game_string", [THREE, FOUR])
def test_the_multi_player_levels_use_the_cage_mcts(game_string: str) -> None:
    game = load(game_string)
    assert level_spec(game, "hard").algorithm == "cage-search"
    fixed = build_level(game, "hard", seed=1, fixed=True)
    assert isinstance(fixed, CageSearchAgent)
    assert fixed.time_limit is None and fixed.iterations == level_spec(game, "hard").budget
    clocked = build_level(game, "hard", seed=1, time_limit=0.5)
    assert isinstance(clocked, CageSearchAgent) and clocked.time_limit == 0.5
    assert fixed.model_opponents and clocked.model_opponents
    two = build_level(load("cage"), "expert", seed=1, fixed=True)
    assert not getattr(two, "model_opponents", False)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_hard_level_takes_a_line_and_blocks_the_next_players(seed: int) -> None:
    win = position(WIN_IN_ONE_3P)
    hard = build_level(win.game, "hard", seed=seed, fixed=True)
    assert win.action_to_string(hard.step(win)) == "W0"
    state = position(NEXT_THREATENS)
    after = state.clone()
    after.apply_action(build_level(state.game, "hard", seed=seed, fixed=True).step(state))
    assert decisive_moves(after)[0] == [], "the next player is left a winning move"


def test_the_paranoid_search_stays_available_by_name() -> None:
    paranoid = make_agent("cage-paranoid", load(FOUR), seed=1)
    assert isinstance(paranoid, CageParanoidAgent) and paranoid.time_limit == 1.0
    with pytest.raises(ValueError, match="plays cage only"):
        make_agent("cage-paranoid", load("axiom"), seed=1)


def test_refuses_other_games() -> None:
    with pytest.raises(ValueError, match="plays the Cage, not axiom"):
        CageParanoidAgent(load("axiom"))


COALITION = ["W2", "T2+", "G6", "W0", "R4"]
"""Player 3 to move: if players 1 and 2 played as one side, one of them would force a line
within two plies whatever player 3 does; each of them would be giving the other the game."""


def test_the_others_are_not_assumed_to_give_each_other_the_game() -> None:
    state = position(COALITION)
    rational = CageParanoidAgent(state.game, 1, node_budget=10**6, max_depth=4)
    rational.step(state)
    assert rational.completed_depth == 4 and rational.last_value > -PROVEN
    paranoid = CageParanoidAgent(state.game, 1, node_budget=10**6, max_depth=4, rational=False)
    paranoid.step(state)
    # against a coalition every move is lost at depth 3: it keeps its depth-2 move
    assert paranoid.completed_depth == 2
    assert paranoid._root(state, state.legal_actions(), 3)[0] <= -PROVEN
    fresh = CageParanoidAgent(state.game, 1)  # searching for player 1
    assert not fresh._third_threatens(position(["W0"]))
    assert fresh._third_threatens(position(NEXT_THREATENS[:5]))  # red's drop, blue to move


DRAWN_BY_TWIST = ["W0", "Y2", "R6", "O0", "W2", "Y4", "F", "O6", "W4", "Y2", "R2", "O0", "W0", "Y3"]
"""Red (player 3) to move at four players: the twist T1- completes white's and orange's lines at
once, a draw, though red is only a little behind."""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_does_not_twist_into_a_draw_it_is_not_forced_to(seed: int) -> None:
    state = position(DRAWN_BY_TWIST, FOUR)
    twist = state.parse_action("T1-")
    drawn = state.clone()
    drawn.apply_action(twist)
    assert drawn.returns() == [0.0] * 4 and line_colours(drawn.board)
    searcher = agent(state, seed)
    assert searcher.step(state) != twist
    assert searcher.last_value > -PROVEN


def _holding_one_cubie(seed: int) -> CageState | None:
    """The first position of a seeded random 4-player game where the mover holds one cubie, the
    others at least two between them, and no one can complete a line by a drop."""
    state = position([], FOUR)
    colours = state.game.config.colours
    rng = random.Random(seed)
    while not state.is_terminal():
        mine = sum(state.left[c] for c in colours[state.player])
        quiet = all(drop_win(state, player) < 0 for player in range(4))
        if mine == 1 and sum(state.left) >= 3 and quiet and not decisive_moves(state)[0]:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return None


@pytest.mark.parametrize("seed", [0, 1, 2, 4, 6, 8])
def test_keeps_its_last_cubie_back_while_others_hold_some(seed: int) -> None:
    state = _holding_one_cubie(seed)
    assert state is not None
    move = agent(state).step(state)
    assert move >= DROP_ACTIONS, f"dropped its last cubie: {state.action_to_string(move)}"


def test_a_leaf_without_cubies_is_worth_no_more_than_a_draw() -> None:
    state = position(["W0", "Y4", "R2", "O6"], FOUR)
    searcher = agent(state)
    searcher._me = 0
    assert not searcher._empty_handed(state)
    state.left[0] = 0  # white (player 1) has dropped everything; the others hold cubies
    assert searcher._empty_handed(state)
    assert searcher._score(state) <= DRAW_VALUE
    searcher._me = 1
    assert not searcher._empty_handed(state)


HANDS_RED_THE_GAME = [
    "W4",
    "Y2",
    "R2",
    "O6",
    "W0",
    "Y0",
    "R4",
    "O4",
    "W2",
    "Y0",
    "T1+",
    "O6",
    "T1+",
    "Y0",
    "R7",
    "T2-",
]
"""White (player 1) to move at four players, from a measured game: after W7 each of yellow's
moves either completes another player's line (some of them white's) or leaves red a line in
one."""


def test_a_player_without_a_safe_move_is_not_assumed_to_hand_the_searcher_the_game() -> None:
    state = position(HANDS_RED_THE_GAME, FOUR)
    drop = state.parse_action("W7")
    after = state.clone()
    after.apply_action(drop)
    for reply in after.legal_actions():  # every yellow move loses for yellow
        child = after.clone()
        child.apply_action(reply)
        assert (child.outcome is not None and child.returns()[1] < 0) or decisive_moves(child)[0]
    searcher = agent(state)
    searcher._me = 0
    # yellow loses either way, so it is not assumed to choose white's line over red's
    assert searcher._root(state, [drop], 3)[0] <= -PROVEN
    for seed in (1, 2, 3):
        assert agent(state, seed).step(state) != drop


OFFERS_A_LINE = ["W2", "Y0", "R0", "O4", "W6", "Y6", "R2", "O2", "W6", "Y0", "R7", "O4"]
"""White to move at four players, from a measured game: one twist alone leaves yellow, next, no
line in one; every other move ends the game or lets yellow complete a line."""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_does_not_concede_while_a_move_loses_nothing_at_once(seed: int) -> None:
    state = position(OFFERS_A_LINE, FOUR)
    safe = [action for action in state.legal_actions() if not _concedes(state, action)]
    assert [state.action_to_string(action) for action in safe] == ["T1-"]
    move = agent(state, seed).step(state)
    assert move in safe, f"conceded with {state.action_to_string(move)}"


def _concedes(state: CageState, action: int) -> bool:
    """Whether ``action`` ends the game (no move here wins) or leaves the next player a line."""
    child = state.clone()
    child.apply_action(action)
    return child.outcome is not None or bool(decisive_moves(child)[0])


KEEPS_THE_LAST_CUBIE = [
    "W2", "Y0", "R0", "O4", "W6", "Y0", "R6", "O4",
    "W4", "Y2", "R7", "T2-", "T0-", "Y4", "F", "O6",
]  # fmt: skip
"""White to move at four players with its last cubie, from a measured game; red and orange still
hold one each. Every move is worth a draw to the paranoid search; dropping the cubie leaves the
ending to them (whoever drops the last cubie ends the game, a draw unless that drop makes a line),
while several twists leave no one a line in one."""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_keeps_its_last_cubie_while_a_draw_is_not_forced(seed: int) -> None:
    state = position(KEEPS_THE_LAST_CUBIE, FOUR)
    assert state.left[0] == 1 and state.left[2] == state.left[3] == 1
    searcher = agent(state, seed, nodes=12_000)
    move = searcher.step(state)
    child = state.clone()
    child.apply_action(move)
    assert child.left[0] == 1, f"dropped its last cubie with {state.action_to_string(move)}"
    assert not _concedes(state, move)


# --- the opponent model ---------------------------------------------------------------------
def _play(
    game_string: str, seats: list[str], plies: int, seed: int = 2
) -> tuple[CageState, list[int]]:
    """``plies`` moves by ``greedy`` or ``random`` seats (the searcher's seat 0 plays random)."""
    state = load(game_string).new_initial_state()
    greedy = GreedyAgent(state.game, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        kind = seats[state.current_player()]
        move = greedy.step(state) if kind == "greedy" else rng.choice(state.legal_actions())
        state.apply_action(move)
    assert isinstance(state, CageState) and not state.is_terminal()
    return state, state.history()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_greedy_chooses_among_its_best_moves(seed: int) -> None:
    state, _ = _play(THREE, ["random"] * 3, 7, seed)
    best = GreedyAgent(state.game).best_moves(state)
    assert 0 < len(best) <= len(state.legal_actions())
    picks = {GreedyAgent(state.game, s).step(state) for s in range(20)}
    assert picks == set(best)


def test_greedy_gives_no_set_of_best_moves_where_cards_are_hidden() -> None:
    game = load("axia")
    with pytest.raises(ValueError, match="hidden cards"):
        GreedyAgent(game).best_moves(game.new_initial_state(seed=1))


def test_the_search_predicts_greedy_and_only_greedy() -> None:
    state, _ = _play(THREE, ["random", "greedy", "random"], 9)
    searcher = CageSearchAgent(state.game, 1, iterations=300, model_opponents=True)
    searcher.step(state)
    assert searcher.modeled == {1}
    assert searcher.evidence[2] == float("-inf")
    plain = CageSearchAgent(state.game, 1, iterations=300)
    plain.step(state)
    assert plain.modeled == frozenset()


def test_a_position_set_up_by_hand_models_nobody() -> None:
    state, _ = _play(THREE, ["random", "greedy", "random"], 9)
    copy = state.game.state_from_position(state.position())
    assert isinstance(copy, CageState)
    searcher = CageSearchAgent(state.game, 1, iterations=300, model_opponents=True)
    searcher.step(copy)
    assert searcher.modeled == frozenset()
    searcher.step(state)  # the same agent, now given the game from its start
    assert searcher.modeled == {1}


GIFT_TRAPS = [
    [4, 30, 32, 0, 24, 34],
    [12, 26, 34, 12, 28, 34, 49, 30, 43, 7, 30, 53],
]
"""Three-player games (seat 1 greedy, seat 2 a Cage MCTS) where the Cage MCTS in seat 0, not
modelling anyone, plays a move after which every move greedy would choose hands seat 2 a line
in one (found by playing seeded games)."""


def _hands_the_next_a_line(state: CageState, action: int, greedy: GreedyAgent) -> bool:
    after = state.clone()
    after.apply_action(action)
    for reply in greedy.best_moves(after):
        then = after.clone()
        then.apply_action(reply)
        if then.is_terminal() or not decisive_moves(then)[0]:
            return False
    return True


@pytest.mark.parametrize("history", GIFT_TRAPS)
def test_the_model_keeps_greedy_from_handing_the_next_player_a_line(history: list[int]) -> None:
    state = load(THREE).new_initial_state()
    for action in history:
        state.apply_action(action)
    assert isinstance(state, CageState) and state.current_player() == 0
    greedy = GreedyAgent(state.game)
    traps = [a for a in state.legal_actions() if _hands_the_next_a_line(state, a, greedy)]
    assert traps, "the position holds no trap"
    for seed in (1, 2, 3):
        searcher = CageSearchAgent(state.game, seed, iterations=2000, model_opponents=True)
        chosen = searcher.step(state)
        assert 1 in searcher.modeled
        assert chosen not in traps, f"seed {seed}: {state.action_to_string(chosen)} is a trap"


def test_a_greedy_seat_is_a_chance_among_its_best_moves() -> None:
    """Greedy picks at random among the moves it ties between: the tree samples them evenly
    and proves such a node only when every one of them ends the same."""
    searcher = CageSearchAgent(load(THREE), 1, model_opponents=True)
    searcher.modeled = frozenset({1})
    node = Node(-1, 0, 3)
    node.untried = []
    gift = searcher._child(node, 5, 1)
    safe = searcher._child(node, 6, 1)
    gift.proven, safe.proven = [0.0, 0.0, 1.0], [0.5, 0.5, 0.5]
    for child in (gift, safe):
        child.visits = 1
    node.visits = 2
    searcher._update_proof(node)
    assert node.proven is None, "a rational seat would take the draw; greedy may hand the line"
    picks = {searcher._uct_child(node, 1).action for _ in range(40)}
    assert picks == {5, 6}
    safe.proven = [0.0, 0.0, 1.0]
    searcher._update_proof(node)
    assert node.proven == [0.0, 0.0, 1.0]
    rational = CageSearchAgent(load(THREE), 1)
    other = Node(-1, 0, 3)
    other.untried = []
    for action, value in ((5, [0.0, 0.0, 1.0]), (6, [0.5, 0.5, 0.5])):
        rational._child(other, action, 1).proven = value
    rational._update_proof(other)
    assert other.proven == [0.5, 0.5, 0.5]
