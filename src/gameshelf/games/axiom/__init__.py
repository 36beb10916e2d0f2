"""Axiom: cubes and sceptres on a board the players rebuild (2008 magnetic edition rules).

>>> import gameshelf
>>> state = gameshelf.load("axiom").new_initial_state()
>>> len(state.legal_moves())
32
>>> state.play("S(-1,0,2) S(0,1,2)z+").text
'S(-1,0,2) S(0,1,2)z+'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameshelf.core import Game, GameEntry, InvalidPosition, State
from gameshelf.core.engines import is_compiled

from . import actions as _actions
from . import board as _board
from . import state as _state
from .details import AxiomMove, legal_move_details
from .facts import NOTATION, rules_summary
from .options import OPTIONS
from .render import render_svg as _render_svg
from .state import AxiomActionInfo, AxiomGame, AxiomState
from .view import AxiomView

COMPILED: bool = is_compiled(_board, _actions, _state)
"""Whether the rules, move generator and state run compiled (mypyc) rather than from source."""


def make_game(values: Mapping[str, Any]) -> Game:
    """The registry factory."""
    return AxiomGame(values, OPTIONS)


def load_listing(game: Game, text: str, to_move: str) -> State:
    """A state from a play-by-email listing and the side to move (``"black"``/``"white"``)."""
    if not isinstance(game, AxiomGame):
        raise InvalidPosition(f"{game.game_string} is not an Axiom game")
    side = to_move.strip().lower()
    if side not in ("black", "white"):
        raise InvalidPosition(f"side to move {to_move!r} must be black or white")
    return game.from_listing(text, 0 if side == "black" else 1)


def render_svg(state: State) -> str:
    """An isometric SVG picture of an Axiom state."""
    if not isinstance(state, AxiomState):
        raise InvalidPosition("render_svg needs an Axiom state")
    return _render_svg(state)


ENTRY = GameEntry(
    name="axiom",
    title="Axiom",
    summary="two players rebuild a board of domed cubes while their sceptres hunt each other",
    options=OPTIONS,
    factory=make_game,
    notation=NOTATION,
    rules=rules_summary,
    test_option_sets=(
        "",
        "sceptre_clearance=tall",
        "allow_overhang=true",
        "require_connected=true",
        "diagonal_moves=false,concave_turns=false,diagonal_squeeze=top_only",
        "forbid_recess_contact=true,self_capture=only_if_forced,no_move_result=draw,"
        "repetition_draw=2",
    ),
    move_details=legal_move_details,
    render_svg=render_svg,
    load_listing=load_listing,
    view_type=AxiomView,
    move_type=AxiomMove,
)
"""The registration that the ``gameshelf.games`` entry point names (pyproject.toml)."""

__all__ = [
    "COMPILED",
    "ENTRY",
    "OPTIONS",
    "AxiomActionInfo",
    "AxiomGame",
    "AxiomState",
    "load_listing",
    "make_game",
    "render_svg",
]
