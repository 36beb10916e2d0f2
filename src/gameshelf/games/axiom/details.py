"""Axiom's legal moves as structures: what a table chooses a move by, next to its notation.

A sceptre move names the cube it leaves, the cube it goes to and the face it stands on there;
a cube move names the cell it is lifted from, the cell it is placed in and the directions of
its domes there. Cells use the view's ``{"x", "y", "z"}`` and directions its names (``"z+"``),
so a table matches moves against the pieces it draws without reading notation.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from gameshelf.core.errors import InvalidPosition
from gameshelf.core.game import State

from .actions import SCEPTRE, decode
from .board import unpack
from .geometry import ALL_DIRS, DIR_NAMES
from .state import AxiomState
from .view import AxiomCell


class AxiomSceptreMove(TypedDict):
    """A sceptre moves to a face of a cube."""

    move: str
    kind: Literal["sceptre"]
    source: AxiomCell
    """The cube the sceptre stands on now."""
    target: AxiomCell
    """The cube it goes to."""
    face: str
    """The face of ``target`` it stands on (the way it points)."""


class AxiomCubeMove(TypedDict):
    """A cube is lifted and placed elsewhere with its domes facing given ways."""

    move: str
    kind: Literal["cube"]
    source: AxiomCell
    """The cell the cube is lifted from."""
    target: AxiomCell
    """The cell it is placed in."""
    domes: list[str]
    """The directions its domes face there, in the order ``x+ x- y+ y- z+ z-``."""


AxiomMove = AxiomSceptreMove | AxiomCubeMove
"""One legal move, told apart by ``kind``."""


def _cell(code: int) -> AxiomCell:
    x, y, z = unpack(code)
    return {"x": x, "y": y, "z": z}


def legal_move_details(state: State) -> list[AxiomMove]:
    """Every legal move of ``state`` (an Axiom state) as a structure, in the order of
    ``legal_moves()``."""
    if not isinstance(state, AxiomState):
        raise InvalidPosition(f"{state.game.game_string} is not an Axiom game")
    out: list[AxiomMove] = []
    for move in state.legal_moves():
        decoded = decode(state.board, move.action)
        assert decoded is not None  # a legal id always decodes
        kind, source, target, extra = decoded
        if kind == SCEPTRE:
            out.append(
                {
                    "move": move.text,
                    "kind": "sceptre",
                    "source": _cell(source),
                    "target": _cell(target),
                    "face": DIR_NAMES[extra],
                }
            )
        else:
            domes = [DIR_NAMES[d] for d in ALL_DIRS if extra >> d & 1]
            out.append(
                {
                    "move": move.text,
                    "kind": "cube",
                    "source": _cell(source),
                    "target": _cell(target),
                    "domes": domes,
                }
            )
    return out
