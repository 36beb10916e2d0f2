"""Axiom positions as the network reads them: the RL encoder's observation for the mover, and
each legal move as the three parts of its fixed id.

The parts are those of :class:`~gameshelf.agents.axiom.encoding.AxiomActionEncoding`: the source
and target cells on a box laid over the structure, and the kind (a sceptre's face, or a cube's
dome set). They are computed here from the engine's decoded moves in one pass, rather than id by
id, and a structure wider or taller than the box (which the fixed encoding refuses) has its cells
clamped to the box's edge: the network's priors there are rougher, and play goes on.
"""

from __future__ import annotations

import numpy as np

from gameshelf.agents.axiom.encoding import AxiomActionEncoding, AxiomEncoder
from gameshelf.core.game import Game, State
from gameshelf.games.axiom import AxiomState
from gameshelf.games.axiom.actions import SCEPTRE, decode
from gameshelf.games.axiom.board import unpack
from gameshelf.games.axiom.geometry import PLACEMENT_INDEX

FIXED = AxiomActionEncoding
SCEPTRE_KINDS = 6
"""Kinds 0-5 are a sceptre's faces; a cube's dome set is ``6 +`` its placement index."""


class AxiomCodec:
    """The mover's observation and the fixed-id parts of legal moves."""

    def __init__(self, game: Game) -> None:
        self.encoder = AxiomEncoder(game)

    def features(self, state: State) -> np.ndarray:
        """The RL encoder's observation of ``state`` for the player to move."""
        return self.encoder.encode(state, state.current_player())

    def move_codes(self, state: State, actions: list[int]) -> np.ndarray:
        """``int32[len(actions), 3]``: source cell, target cell and kind of each action."""
        axiom = _axiom(state)
        rows = []
        for action in actions:
            move = decode(axiom.board, action)
            if move is None:
                raise ValueError(f"action {action} names no move in this Axiom position")
            kind, source, target, extra = move
            code = extra if kind == SCEPTRE else SCEPTRE_KINDS + PLACEMENT_INDEX[extra]
            rows.append((*unpack(source), *unpack(target), code))
        table = np.asarray(rows, np.int32).reshape(-1, 7)
        corner = np.min(np.asarray(list(axiom.cubes), np.int32), axis=0)[:2] - 1
        codes = np.empty((len(actions), 3), np.int32)
        codes[:, 0] = _box(table[:, 0:3], corner)
        codes[:, 1] = _box(table[:, 3:6], corner)
        codes[:, 2] = table[:, 6]
        return codes


def _box(cells: np.ndarray, corner: np.ndarray) -> np.ndarray:
    """The fixed encoding's box cells of ``cells`` (``[N, 3]``), clamped to the box."""
    dx = np.clip(cells[:, 0] - corner[0], 0, FIXED.SPAN - 1)
    dy = np.clip(cells[:, 1] - corner[1], 0, FIXED.SPAN - 1)
    dz = np.clip(cells[:, 2] - 1, 0, FIXED.HEIGHT - 1)
    result: np.ndarray = (dx * FIXED.SPAN + dy) * FIXED.HEIGHT + dz
    return result


def _axiom(state: State) -> AxiomState:
    """``state`` as an Axiom position; ``ValueError`` for any other game's."""
    if not isinstance(state, AxiomState):
        raise ValueError(f"Axiom's network reads Axiom positions, not {type(state).__name__}")
    return state
