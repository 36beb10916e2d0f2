"""Every registered game, with each option set it declares, against the protocol's contracts.

The cases come from the registry (``available_games()`` × ``GameEntry.test_option_sets``), so a
new game, or a new option set in a game's entry, gets every check here without a new test.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameshelf.core.conformance import (
    check_random_rollout,
    check_replay,
    check_undo,
    random_playouts,
)
from gameshelf.core.game import Game, State
from gameshelf.core.registry import available_games, game_entry, load

CASES = [
    game_string
    for name in available_games()
    for game_string in game_entry(name).test_game_strings()
]
GAMES = available_games()


def _game(game_string: str) -> Game:
    return load(game_string)


def _stride(game: Game, checks: int) -> int:
    """Check about ``checks`` plies of a longest game (keeps each case to seconds)."""
    return max(1, game.spec.max_game_length // checks)


def test_every_game_declares_option_sets_that_load() -> None:
    for name in GAMES:
        strings = game_entry(name).test_game_strings()
        assert strings, f"{name} declares no option set"
        assert len(set(strings)) == len(strings), f"{name} declares an option set twice"
        for game_string in strings:
            assert load(game_string).spec.name == name


@pytest.mark.parametrize("game_string", CASES)
def test_random_playouts_keep_every_invariant(game_string: str) -> None:
    game = _game(game_string)
    stats = random_playouts(game, games=3, seed=101, check_every=_stride(game, 100))
    assert stats.games == 3
    assert 0 < stats.longest <= game.spec.max_game_length


@pytest.mark.parametrize("game_string", CASES)
def test_undo_takes_back_each_action(game_string: str) -> None:
    game = _game(game_string)
    assert check_undo(game, games=1, seed=202, every=_stride(game, 40)) > 0


@pytest.mark.parametrize("game_string", CASES)
def test_replay_rebuilds_and_refuses_by_ply(game_string: str) -> None:
    check_replay(_game(game_string), games=2, seed=303)


@pytest.mark.parametrize("game_string", CASES)
def test_random_rollout_plays_the_generic_loop(game_string: str) -> None:
    check_random_rollout(_game(game_string), games=3, seed=404)


def _reach(state: State, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 400))
def test_notation_round_trips(name: str, seed: int, plies: int) -> None:
    """Property: in any position random play reaches, every legal action's notation parses
    back to that action, and no two legal actions share a text."""
    options = game_entry(name).test_game_strings()
    game = load(options[seed % len(options)])
    state = game.new_initial_state(seed)
    _reach(state, random.Random(seed), plies)
    actions = state.legal_actions()
    texts = [state.action_to_string(action) for action in actions]
    assert len(set(texts)) == len(texts), f"{game.game_string}: shared notation in {texts}"
    for action, text in zip(actions, texts, strict=True):
        assert state.parse_action(text) == action, f"{game.game_string}: {text!r} != {action}"
        assert state.move_to_action(text) == action
