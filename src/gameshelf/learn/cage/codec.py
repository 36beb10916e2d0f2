"""Engine Cage positions as the network reads them (what ``master`` asks the network)."""

from __future__ import annotations

import numpy as np

from gameshelf.core.game import Game, State
from gameshelf.games.cage.rules import CageState

from .features import encode, seat_tables


class CageCodec:
    """The features of an engine position and its actions' canonical ids, for the mover."""

    def __init__(self, game: Game) -> None:
        self.tables = seat_tables(game.spec.num_players)

    def features(self, state: State) -> np.ndarray:
        """The mover's features (the same function the JAX self-play computes)."""
        cage = _cage(state)
        features: np.ndarray = encode(
            np,
            self.tables.order[cage.player],
            np.asarray(cage.board),
            np.asarray(cage.left),
            np.asarray(cage.last),
            np.asarray(cage.ply),
            cage.game.max_plies,
        )
        return features

    def move_codes(self, state: State, actions: list[int]) -> np.ndarray:
        """Each action's canonical id (the one policy head)."""
        codes: np.ndarray = self.tables.canonical_action[_cage(state).player, actions]
        return codes[:, None]


def _cage(state: State) -> CageState:
    """``state`` as a Cage position; ``ValueError`` for any other game's."""
    if not isinstance(state, CageState):
        raise ValueError(f"the Cage's network reads Cage positions, not {type(state).__name__}")
    return state
