"""The fast path (packed cells, ``random_rollout``) plays exactly like the generic engine."""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.games.axiom import rules
from gameshelf.games.axiom.rules import AxiomState

FAST_OPTIONS = [
    "axiom",
    "axiom(diagonal_moves=false)",
    "axiom(concave_turns=false,diagonal_squeeze=off)",
    "axiom(diagonal_squeeze=top_only,forbid_recess_contact=true)",
    "axiom(self_capture=only_if_forced,no_move_result=draw,repetition_draw=2)",
    "axiom(max_plies=40)",
]


def _tuple_twin(state: AxiomState, monkeypatch: pytest.MonkeyPatch) -> AxiomState:
    """The same position on the tuple-based generator of ``board.py``."""
    with monkeypatch.context() as patch:
        patch.setattr(rules, "supports", lambda *_: False)
        twin = state.game.state_from_position(state.position())
    assert not twin._fast
    return twin


def _generic_loop(state: AxiomState, rng: random.Random, max_plies: int) -> int:
    plies = 0
    while plies < max_plies and not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        plies += 1
    return plies


@pytest.mark.parametrize("game_string", FAST_OPTIONS)
def test_fast_generator_matches_tuple_generator(
    game_string: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = gameshelf.load(game_string)
    rng = random.Random(11)
    checked = 0
    for _ in range(4):
        state = game.new_initial_state()
        assert isinstance(state, AxiomState) and state._fast
        twin = _tuple_twin(state, monkeypatch)
        while not state.is_terminal():
            assert state._generate() == state._generate_on_tuples()
            assert state.legal_actions() == twin.legal_actions()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            twin.apply_action(action)
            assert state.cubes == twin.cubes
            assert sorted(state.sceptres) == sorted(twin.sceptres)
            assert state.outcome == twin.outcome
            checked += 1
        assert twin.is_terminal() and state.returns() == twin.returns()
        assert state.position() == twin.position()
    assert checked > 100


def test_packed_repetition_key_gives_the_digest() -> None:
    state = gameshelf.load("axiom").new_initial_state()
    assert isinstance(state, AxiomState)
    rng = random.Random(3)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        key = state._rep_key()
        assert rules._key_digest(key) == rules._digest(state.cubes, state.sceptres, state.to_move)


@pytest.mark.parametrize("game_string", [*FAST_OPTIONS, "axiom(sceptre_clearance=tall)"])
def test_random_rollout_matches_generic_loop(game_string: str) -> None:
    game = gameshelf.load(game_string)
    for seed in range(40):
        start = game.new_initial_state()
        assert isinstance(start, AxiomState)
        prefix = random.Random(1000 + seed)
        for _ in range(seed % 7):  # some rollouts start mid-game, from a clone
            if not start.is_terminal():
                start.apply_action(prefix.choice(start.legal_actions()))
        max_plies = (5, 17, 400)[seed % 3]
        fast, slow = start.clone(), start.clone()
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        played = fast.random_rollout(fast_rng, max_plies)
        assert played == _generic_loop(slow, slow_rng, max_plies)
        assert fast_rng.getstate() == slow_rng.getstate()
        assert fast.history() == slow.history()
        assert fast.position() == slow.position()
        assert fast.is_terminal() == slow.is_terminal()
        assert fast.returns() == slow.returns()
        assert start.history() == fast.history()[: len(start.history())]
        assert len(fast.history()) - len(start.history()) == played


def test_random_rollout_leaves_a_terminal_state_alone() -> None:
    state = gameshelf.load("axiom(max_plies=3)").new_initial_state()
    assert isinstance(state, AxiomState)
    rng = random.Random(0)
    assert state.random_rollout(rng, 100) == 3
    assert state.is_terminal() and state.end_reason() == "ply-cap"
    before = rng.getstate()
    assert state.random_rollout(rng, 100) == 0
    assert rng.getstate() == before
