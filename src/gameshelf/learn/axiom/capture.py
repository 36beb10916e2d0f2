"""Axiom's quick test for a move that wins at once, apart from the codec so that the recipe
(read wherever the bots are, learn extra or not) imports no third-party package."""

from __future__ import annotations

from gameshelf.core.game import State
from gameshelf.games.axiom import AxiomState


def wins_at_once(state: State, actions: list[int]) -> bool:
    """Whether one of ``actions`` ends the game at once in the mover's favour by its outcome
    (a capture): each is played in the engine, without asking whether the other side is left
    with no move, which would cost a move generation each."""
    if not isinstance(state, AxiomState):
        raise TypeError(f"Axiom's win test reads an Axiom position, not {type(state).__name__}")
    mover = state.current_player()
    for action in actions:
        after = state.clone()
        after.apply_action(action)
        if after.outcome is not None and after.outcome[0] == mover:
            return True
    return False
