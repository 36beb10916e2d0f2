"""The cube-move generator agrees with the rule-by-rule explanation on random positions.

The generator memoises per target neighbourhood and reuses ids across lifted cubes; the
explanation asks each rule of ``board.py`` for one move at a time. Every cell near the
structure and every dome set is tried.
"""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.games.axiom.actions import CUBE, decode
from gameshelf.games.axiom.board import GROUND, pack, unpack
from gameshelf.games.axiom.explain import placement_problem
from gameshelf.games.axiom.generator import (
    ENTRY_MASK,
    MoveGenerator,
    key_anchor,
    key_entry,
    make_key,
)
from gameshelf.games.axiom.geometry import masks_for, popcount
from gameshelf.games.axiom.state import AxiomGame, AxiomState


def brute_force(state: AxiomState) -> set[tuple[object, ...]]:
    """Every (source, target, mask) that placement_problem accepts, by exhaustive search."""
    opts, board, cubes = state.game.options, state.board, state.cubes
    xs = [c[0] for c in cubes]
    ys = [c[1] for c in cubes]
    zs = [c[2] for c in cubes]
    found = set()
    for source, value in cubes.items():
        if value >> 6 != state.to_move:
            continue
        for x in range(min(xs) - 1, max(xs) + 2):
            for y in range(min(ys) - 1, max(ys) + 2):
                for z in range(1, max(zs) + 2):
                    for mask in masks_for(popcount(value & 63)):
                        target = (x, y, z)
                        if target in cubes and target != source:
                            continue
                        if not placement_problem(
                            opts, board, state.to_move, pack(source), pack(target), mask
                        ):
                            found.add((source, target, mask))
    return found


def generated(state: AxiomState) -> set[tuple[object, ...]]:
    """The cube moves among the legal actions, as (source, target, mask)."""
    found = set()
    for action in state.legal_actions():
        move = decode(state.board, action)
        assert move is not None
        kind, source, target, mask = move
        if kind == CUBE:
            found.add((unpack(source), unpack(target), mask))
    return found


@pytest.mark.parametrize(
    "game_string",
    [
        "axiom",
        "axiom(sceptre_clearance=tall)",
        "axiom(allow_overhang=true)",
        "axiom(require_connected=true,forbid_recess_contact=true)",
    ],
)
def test_generator_matches_brute_force(game_string: str) -> None:
    game = gameshelf.load(game_string)
    rng = random.Random(5)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        assert isinstance(state, AxiomState)
        ply = 0
        while not state.is_terminal() and ply < 60:
            if ply % 6 == 0:
                assert generated(state) == brute_force(state), state.position()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
            ply += 1
    assert checked >= 6


def test_key_helpers_round_trip() -> None:
    for entry in (0, 1, GROUND | 63, ENTRY_MASK):
        for anchor in (-1, 0, 5, 71):
            key = make_key(entry, anchor)
            assert (key_entry(key), key_anchor(key)) == (entry, anchor)
    # keys in ascending order are cells in ascending anchor code (the order of their ids)
    assert make_key(ENTRY_MASK, 3) < make_key(0, 4)


def test_each_game_owns_its_generator_and_its_memo_is_bounded() -> None:
    plain, overhang = gameshelf.load("axiom"), gameshelf.load("axiom(allow_overhang=true)")
    assert isinstance(plain, AxiomGame) and isinstance(overhang, AxiomGame)
    assert plain.generator is not overhang.generator
    assert overhang.generator.options.allow_overhang
    small = MoveGenerator(plain.options, memo_bound=5)
    rng = random.Random(11)
    state = plain.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        board, me = state.board, state.to_move
        assert small.legal_ids(board, me) == state.legal_actions()
        assert small.memo_size() <= 5
        state.apply_action(rng.choice(state.legal_actions()))
    assert plain.generator.memo_size() > 5  # the game's own memo was not the small one
