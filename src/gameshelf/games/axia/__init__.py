"""AXIA: Slayer Combo for 1-4 players: rules, card data, scoring and solo ranks.

``gameshelf.core.registry.load("axia(players=3)")`` builds a game. The CLI uses
:func:`format_deck` (``gameshelf cards axia``), :func:`score_sheet` and
:func:`format_score_sheet`.
"""

from __future__ import annotations

from gameshelf.core.engines import is_compiled
from gameshelf.core.registry import GameEntry

from . import (
    actions,
    board,
    cards,
    chance,
    effects,
    hits,
    items,
    results,
    rounds,
    rules,
    scoring,
    setup_phase,
    state_fields,
)
from .details import legal_move_details
from .facts import NOTATION, rules_summary
from .options import OPTIONS
from .render import format_deck, format_score_sheet, picture_key
from .rules import AxiaGame, AxiaState, make_game
from .view import score_sheet

COMPILED: bool = is_compiled(
    actions, board, cards, chance, effects, hits, items, results, rounds, rules, scoring,
    setup_phase, state_fields,
)  # fmt: skip
"""Whether the rules, cards, scoring and state run compiled (mypyc) rather than from source
(the modules of the mypyc ``include`` list in ``pyproject.toml``)."""

ENTRY = GameEntry(
    name="axia",
    title="AXIA: Slayer Combo",
    summary="Dice, hidden hands and beast-effect combos on a 3x3 territory (1-4 players)",
    options=OPTIONS,
    factory=make_game,
    notation=NOTATION,
    rules=rules_summary,
    test_option_sets=(
        "players=1",
        "",
        "players=3,prioritize_objectives=true,explore_regions=true",
        "players=4,first_game=true,must_hit_if_possible=false,rakya_effect=none",
    ),
    move_details=legal_move_details,
    format_cards=format_deck,
    picture_key=picture_key,
)
"""The registration that the ``gameshelf.games`` entry point names (pyproject.toml)."""


__all__ = [
    "COMPILED",
    "ENTRY",
    "OPTIONS",
    "AxiaGame",
    "AxiaState",
    "format_deck",
    "format_score_sheet",
    "score_sheet",
]
