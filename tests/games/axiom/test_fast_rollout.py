"""``random_rollout`` plays exactly like the generic loop, and the repetition key gives the
digest positions have always listed."""

from __future__ import annotations

import hashlib
import random

import pytest

import gameshelf
from gameshelf.games.axiom.board import key_digest, repetition_key
from gameshelf.games.axiom.state import AxiomState

OPTION_SETS = [
    "axiom",
    "axiom(sceptre_clearance=tall)",
    "axiom(allow_overhang=true)",
    "axiom(require_connected=true)",
    "axiom(diagonal_moves=false)",
    "axiom(concave_turns=false,diagonal_squeeze=off)",
    "axiom(diagonal_squeeze=top_only,forbid_recess_contact=true)",
    "axiom(self_capture=only_if_forced,no_move_result=draw,repetition_draw=2)",
    "axiom(max_plies=40)",
]


def _generic_loop(state: AxiomState, rng: random.Random, max_plies: int) -> int:
    plies = 0
    while plies < max_plies and not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        plies += 1
    return plies


def _reference_digest(state: AxiomState) -> str:
    """The digest as positions have listed it: a hash of the position translated so its
    lowest x and y are 0, in tuple form."""
    cubes, sceptres = state.cubes, state.sceptres
    cells = sorted(cubes)
    mx = cells[0][0] if cells else 0
    my = min([c[1] for c in cells]) if cells else 0
    key = (
        state.to_move,
        [(x - mx, y - my, z, cubes[x, y, z]) for x, y, z in cells],
        [(s, x - mx, y - my, z, d) for s, (x, y, z), d in sorted(sceptres)],
    )
    return hashlib.blake2b(repr(key).encode(), digest_size=8).hexdigest()


def test_repetition_key_gives_the_digest() -> None:
    state = gameshelf.load("axiom").new_initial_state()
    assert isinstance(state, AxiomState)
    rng = random.Random(3)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        key = repetition_key(state.board, state.to_move)
        assert key_digest(key) == _reference_digest(state)


@pytest.mark.parametrize("game_string", OPTION_SETS)
def test_random_rollout_matches_generic_loop(game_string: str) -> None:
    game = gameshelf.load(game_string)
    for seed in range(24):
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
