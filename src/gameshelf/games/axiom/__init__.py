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

from gameshelf.core import Game, GameEntry, InvalidPosition, OptionSpec, State

from .rules import AxiomActionInfo, AxiomGame, AxiomState, parse_setup


def _parse_setup_option(text: str) -> str:
    parse_setup(text)
    return "standard" if text.strip().lower() == "standard" else text.strip()


def _parse_repetition(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError("not an integer") from None
    if value != 0 and not 2 <= value <= 100:
        raise ValueError("must be 0 (off) or 2..100")
    return value


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "setup",
        "str",
        "standard",
        "start position: 'standard' or Black's half as 'C(x,y,z)domes; ...; S(x,y,z)face' "
        "(White's half is its half-turn)",
        parser=_parse_setup_option,
        allowed='standard or Black\'s half, e.g. "C(0,0,1)x+ y-; C(0,0,2)z-; S(0,0,2)x+"',
    ),
    OptionSpec("diagonal_moves", "bool", True, "sceptres may move diagonally within one plane"),
    OptionSpec("concave_turns", "bool", True, "lateral moves turn up inside corners (else stop)"),
    OptionSpec(
        "diagonal_squeeze",
        "choice",
        "all_planes",
        "where a diagonal step between two cubes at air height is blocked",
        choices=("all_planes", "top_only", "off"),
    ),
    OptionSpec(
        "sceptre_clearance",
        "choice",
        "air",
        "a sceptre fills its air cell only (air) or also the cell beyond (tall)",
        choices=("air", "tall"),
    ),
    OptionSpec("allow_overhang", "bool", False, "cubes may hang from interlocked side joints"),
    OptionSpec(
        "forbid_recess_contact", "bool", False, "a placed cube may not put a recess to a recess"
    ),
    OptionSpec("require_connected", "bool", False, "a cube move may not split the structure"),
    OptionSpec(
        "self_capture",
        "choice",
        "losing_move",
        "ending on your other sceptre's cube loses; only_if_forced: allowed only when forced",
        choices=("losing_move", "only_if_forced"),
    ),
    OptionSpec(
        "no_move_result",
        "choice",
        "loss",
        "a player with no legal move loses, or the game is drawn",
        choices=("loss", "draw"),
    ),
    OptionSpec(
        "repetition_draw",
        "int",
        3,
        "draw when a position (up to x/y translation) occurs this often; 0 = off",
        parser=_parse_repetition,
        allowed="0 (off) or an integer 2..100",
    ),
    OptionSpec("max_plies", "int", 300, "draw after this many plies", minimum=1, maximum=100000),
)


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
    from .render import render_svg as _render_svg

    if not isinstance(state, AxiomState):
        raise InvalidPosition("render_svg needs an Axiom state")
    return _render_svg(state)


ENTRY = GameEntry(
    name="axiom",
    title="Axiom",
    summary="two players rebuild a board of domed cubes while their sceptres hunt each other",
    options=OPTIONS,
    factory=make_game,
    test_option_sets=(
        "",
        "sceptre_clearance=tall",
        "allow_overhang=true",
        "require_connected=true",
        "diagonal_moves=false,concave_turns=false,diagonal_squeeze=top_only",
        "forbid_recess_contact=true,self_capture=only_if_forced,no_move_result=draw,"
        "repetition_draw=2",
    ),
)
"""The registration that the ``gameshelf.games`` entry point names (pyproject.toml)."""

__all__ = [
    "ENTRY",
    "OPTIONS",
    "AxiomActionInfo",
    "AxiomGame",
    "AxiomState",
    "load_listing",
    "make_game",
    "render_svg",
]
