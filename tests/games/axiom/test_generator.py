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
from gameshelf.games.axiom.board import pack, unpack
from gameshelf.games.axiom.explain import placement_problem
from gameshelf.games.axiom.geometry import masks_for, popcount
from gameshelf.games.axiom.state import AxiomState


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
