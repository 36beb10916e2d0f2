"""A state pickles and clones exactly, in whichever engine runs (a compiled state has no
``__dict__``: it pickles through ``__reduce__`` and clones through its constructor)."""

from __future__ import annotations

import copy
import pickle
import random

import gameshelf
from gameshelf.games.axiom import AxiomState


def _midgame(game_string: str, seed: int, plies: int) -> AxiomState:
    state = gameshelf.load(game_string).new_initial_state()
    assert isinstance(state, AxiomState)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_pickled_state_is_the_same_position_and_takes_moves_back() -> None:
    for game_string in ("axiom", "axiom(require_connected=true)"):
        state = _midgame(game_string, 3, 24)
        back = pickle.loads(pickle.dumps(state))
        assert back.game.game_string == game_string
        assert back.position() == state.position()
        assert back.history() == state.history() and back.seen == state.seen
        assert back.legal_actions() == state.legal_actions()
        back.undo()  # its own undo record, and the original keeps its move
        assert len(back.history()) == len(state.history()) - 1
        assert back.position() != state.position()


def test_copies_never_change_the_original() -> None:
    state = _midgame("axiom", 5, 20)
    before = (state.position(), state.history(), state.seen)
    for other in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert other.position() == before[0]
        other.undo()
        other.apply_action(other.legal_actions()[0])
        assert (state.position(), state.history(), state.seen) == before
