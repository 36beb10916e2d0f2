"""Axiom's plain evaluator and transposition key (the generic searches' view of Axiom)."""

from __future__ import annotations

from collections.abc import Hashable

from gameshelf.games.axiom import AxiomState

from ..evaluators import relative, scale


def axiom_evaluator(state: AxiomState) -> list[float]:
    """Axiom: cube material, plus a small bonus for the side to move's mobility."""
    material = [0.0, 0.0]
    for value in state.cubes.values():
        material[value >> 6] += 1.0
    mover = state.current_player()
    if 0 <= mover < 2:
        material[mover] += 0.02 * len(state.legal_actions())
    return scale(state.game, relative(material, 3.0))


def axiom_key(state: AxiomState) -> Hashable:
    """Transposition key of an Axiom state: cubes, sceptres and the side to move."""
    return (
        frozenset(state.cubes.items()),
        tuple(sorted(state.sceptres)),
        state.current_player(),
    )
