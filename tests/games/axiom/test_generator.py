"""The fast cube-move generator agrees with the rule-by-rule explainer on random positions."""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.games.axiom.board import cube_moves, placement_problem
from gameshelf.games.axiom.geometry import masks_for, popcount
from gameshelf.games.axiom.rules import AxiomState


def brute_force(state: AxiomState) -> set[tuple[object, ...]]:
    """Every (source, target, mask) that placement_problem accepts, by exhaustive search."""
    opts, cubes, sceptres = state.game.options, state.cubes, state.sceptres
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
                            opts, cubes, sceptres, state.to_move, source, target, mask
                        ):
                            found.add((source, target, mask))
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
        ply = 0
        while not state.is_terminal() and ply < 60:
            if ply % 6 == 0:
                assert isinstance(state, AxiomState)
                fast = {
                    (s, t, m)
                    for s, t, masks in cube_moves(
                        game.options,
                        state.cubes,
                        state.sceptres,
                        state.to_move,  # type: ignore[attr-defined]
                    )
                    for m in masks
                }
                assert fast == brute_force(state), state.position()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
            ply += 1
    assert checked >= 6
