"""Rubik's Cage: 2-4 player three-in-a-row inside a twistable, flippable 3x3x3 cage.

Rules as implemented, options, notation and encodings: ``docs/games/cage.md``.
"""

from gameshelf.core.engines import is_compiled
from gameshelf.core.registry import GameEntry

from . import actions as _actions
from . import board as _board
from . import geometry as _geometry
from . import rules as _rules
from .details import CageMove, legal_move_details
from .facts import NOTATION, rules_summary
from .options import OPTIONS
from .rules import CageGame, CageState, make_game
from .view import CageView

COMPILED: bool = is_compiled(_actions, _board, _geometry, _rules)
"""Whether the board transitions and the state run compiled (mypyc) rather than from source."""

ENTRY = GameEntry(
    name="cage",
    title="Rubik's Cage",
    summary="2-4 players drop, twist and flip to make three of one colour in a row",
    options=OPTIONS,
    factory=make_game,
    notation=NOTATION,
    rules=rules_summary,
    test_option_sets=(
        "",
        "players=3",
        "players=4,simultaneous=shared",
        "no_reverse=semantic,allow_noop_twists=false",
        "no_reverse=off,repetition_draw=2",
        "stock=12:12,simultaneous=mover_priority",
        "continue_after_last_drop=true,max_plies=120",
    ),
    move_details=legal_move_details,
    view_type=CageView,
    move_type=CageMove,
    featured=True,  # the lobby offers it first: open information and quick to learn
)
"""The registration that the ``gameshelf.games`` entry point names (pyproject.toml)."""

__all__ = ["COMPILED", "ENTRY", "OPTIONS", "CageGame", "CageState"]
