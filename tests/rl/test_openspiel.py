"""The OpenSpiel adapter: registration, truthful game facts, OpenSpiel's own conformance test,
observers, hidden information, resampling and OpenSpiel's MCTS / IS-MCTS bots."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]

import gameshelf.rl.openspiel as gso
from gameshelf.core.errors import InvalidOption
from gameshelf.core.registry import load

Utility = pyspiel.GameType.Utility

SIM_CASES = [
    ("gameshelf_cage", 4),
    ("gameshelf_cage(players=3)", 4),
    ("gameshelf_cage(players=4)", 4),
    ("gameshelf_cage(simultaneous=shared,no_reverse=semantic)", 3),
    ("gameshelf_axiom", 2),
    ("gameshelf_axiom(sceptre_clearance=tall)", 2),
    ("gameshelf_axiom(allow_overhang=true,max_plies=60)", 2),
    ("gameshelf_axia", 2),
    ("gameshelf_axia(players=1)", 2),
    ("gameshelf_axia(players=4)", 1),
    ("gameshelf_axia(players=3,explore_regions=true,prioritize_objectives=true)", 1),
]


def test_games_are_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {"gameshelf_axiom", "gameshelf_cage", "gameshelf_axia"} <= names
    gso.register()  # a second registration is harmless


@pytest.mark.parametrize(("game_string", "sims"), SIM_CASES)
def test_random_sim_test(game_string: str, sims: int) -> None:
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_options_are_parameters_with_their_defaults() -> None:
    spec = pyspiel.load_game("gameshelf_cage").get_type().parameter_specification
    assert spec["players"] == 2
    assert spec["allow_noop_twists"] is True
    assert spec["simultaneous"] == "draw"
    assert spec["stock"] == "standard"
    axia = pyspiel.load_game("gameshelf_axia").get_type().parameter_specification
    assert axia["cards"] == gso.DEFAULT_TEXT
    assert pyspiel.load_game("gameshelf_cage(players=3)").num_players() == 3
    game = pyspiel.load_game("gameshelf_cage(stock=2:3)")
    assert game.gs_game.game_string == "cage(stock=2:3)"


def test_text_parameters_with_commas_pass_as_a_dict() -> None:
    setup = "C(0,0,1)x+ y-; C(0,0,2)z-; S(0,0,2)x+"
    game = pyspiel.load_game("gameshelf_axiom", {"setup": setup, "diagonal_moves": False})
    assert game.gs_game.spec.params["setup"] == setup
    assert game.gs_game.spec.params["diagonal_moves"] is False


def test_bad_option_values_are_refused_with_the_option_named() -> None:
    with pytest.raises(InvalidOption, match="players='7' is not allowed"):
        pyspiel.load_game("gameshelf_cage(players=7)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("gameshelf_cage(colour=7)")


def test_load_game_takes_our_game_strings() -> None:
    game = gso.load_game("cage(players=3,allow_noop_twists=false)")
    assert game.num_players() == 3
    assert game.gs_game.game_string == "cage(players=3,allow_noop_twists=false)"


@pytest.mark.parametrize(
    ("game_string", "utility", "info"),
    [
        ("gameshelf_cage", Utility.ZERO_SUM, pyspiel.GameType.Information.PERFECT_INFORMATION),
        ("gameshelf_cage(players=3)", Utility.GENERAL_SUM, None),
        ("gameshelf_cage(simultaneous=shared)", Utility.GENERAL_SUM, None),
        ("gameshelf_axiom", Utility.ZERO_SUM, pyspiel.GameType.Information.PERFECT_INFORMATION),
        ("gameshelf_axia", Utility.GENERAL_SUM, pyspiel.GameType.Information.IMPERFECT_INFORMATION),
    ],
)
def test_game_type_and_info_are_truthful(game_string: str, utility: object, info: object) -> None:
    game = pyspiel.load_game(game_string)
    spec = game.gs_game.spec
    kind = game.get_type()
    assert kind.utility == utility
    if info is not None:
        assert kind.information == info
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    stochastic = kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert stochastic == spec.chance
    assert game.num_distinct_actions() == spec.num_distinct_actions
    assert game.max_chance_outcomes() == spec.max_chance_outcomes
    assert game.min_utility() == spec.min_utility
    assert game.max_utility() == spec.max_utility
    assert game.max_game_length() == spec.max_game_length
    assert game.num_players() == spec.num_players
    assert kind.provides_information_state_tensor == spec.hidden_information


def test_axia_facts() -> None:
    solo = pyspiel.load_game("gameshelf_axia(players=1)")
    assert solo.num_players() == 1 and solo.max_utility() == 1000.0
    assert pyspiel.load_game("gameshelf_axia").max_chance_outcomes() == 60
    assert pyspiel.load_game("gameshelf_cage(max_plies=40)").max_game_length() == 40


def _play_to_decision(game: object, seed: int, decisions: int) -> object:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if seen == decisions:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
        seen += 1
    return state


def test_serialisation_and_clone_round_trip() -> None:
    game = pyspiel.load_game("gameshelf_axia(players=3)")
    state = _play_to_decision(game, seed=1, decisions=60)
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state)
    assert again.history() == state.history()
    assert str(again_game) == str(game)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)
    assert pickle.loads(pickle.dumps(state._box)).state.position() == state.inner.position()


def test_perfect_information_strings() -> None:
    game = pyspiel.load_game("gameshelf_cage")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(30)
    assert state.information_state_string(0) == "0 30"
    assert state.observation_string(1) == state.inner.position()
    tensor = np.array(state.observation_tensor(0))
    assert tensor.shape == (game.observation_tensor_size(),)


def test_axia_information_state_is_the_seats_view() -> None:
    game = pyspiel.load_game("gameshelf_axia")
    state = _play_to_decision(game, seed=3, decisions=40)
    inner = state.inner
    for player in range(2):
        text = state.information_state_string(player)
        assert text == state.observation_string(player)
        other = inner.game.cards.territory
        own = {other[c].id for c in inner.hands[player]}
        theirs = {other[c].id for c in inner.hands[1 - player]} - own
        assert all(f'"{card}"' in text for card in own)
        assert not any(f'"{card}"' in text for card in theirs)
        info = np.array(state.information_state_tensor(player))
        assert info.shape == (game.information_state_tensor_size(),)


def test_axia_public_observer_hides_every_hand() -> None:
    game = pyspiel.load_game("gameshelf_axia")
    state = _play_to_decision(game, seed=3, decisions=40)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    text = observer.string_from(state, 0)
    assert '"hand"' not in text and '"viewer":null' in text
    with pytest.raises(ValueError, match="every seat"):
        everyone = pyspiel.IIGObservationType(
            perfect_recall=False,
            public_info=True,
            private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
        )
        game.make_py_observer(everyone)


def test_resample_keeps_the_information_state_and_changes_the_hidden_cards() -> None:
    game = pyspiel.load_game("gameshelf_axia(players=3)")
    state = _play_to_decision(game, seed=8, decisions=50)
    player = state.current_player()
    key = state.information_state_string(player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(8):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == key
        assert world.legal_actions() == state.legal_actions()
        hands.add(tuple(tuple(h) for h in world.inner.hands))
        world.apply_action(world.legal_actions()[0])  # a sampled world plays on
        _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))
        assert str(again) == str(world)
        assert world.history() == [world.history()[0]]  # starts empty: nothing hidden leaks
    assert len(hands) > 1


def test_resample_of_a_perfect_information_game_is_a_copy() -> None:
    game = pyspiel.load_game("gameshelf_cage")
    state = game.new_initial_state()
    state.apply_action(3)
    copy = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(copy) == str(state) and copy.history() == [3]


def _play_with(game: object, choose: object, rng: np.random.RandomState) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(choose(state))  # type: ignore[operator]
    return state


def _seat_zero(bot: object, rng: np.random.RandomState) -> object:
    """Seat 0 asks ``bot``; every other seat plays uniformly at random."""

    def choose(state: object) -> int:
        if state.current_player() == 0:  # type: ignore[attr-defined]
            return int(bot.step(state))  # type: ignore[attr-defined]
        return int(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]

    return choose


@pytest.mark.parametrize("game_string", ["gameshelf_cage", "gameshelf_axiom(max_plies=16)"])
def test_openspiel_mcts_bot_plays_complete_games(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, 2.0, 12, evaluator, random_state=rng)
    state = _play_with(game, bot.step, rng)
    assert state.is_terminal()
    assert sum(state.returns()) == 0.0


def test_openspiel_mcts_bot_beats_random_play_on_the_cage() -> None:
    game = pyspiel.load_game("gameshelf_cage(stock=4:4)")
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(2, rng)
    bot = mcts.MCTSBot(game, 2.0, 60, evaluator, random_state=rng)
    score = 0.0
    for _ in range(4):
        state = _play_with(game, _seat_zero(bot, rng), rng)
        score += state.returns()[0]
    assert score >= 2.0


@pytest.mark.parametrize("game_string", ["gameshelf_axia", "gameshelf_axia(players=1)"])
def test_openspiel_ismcts_bot_plays_complete_games(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=rng)
    state = _play_with(game, _seat_zero(bot, rng), rng)
    assert state.is_terminal()
    spec = load(game_string.removeprefix("gameshelf_")).spec
    assert all(spec.min_utility <= value <= spec.max_utility for value in state.returns())
