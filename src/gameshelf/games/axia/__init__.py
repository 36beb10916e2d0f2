"""AXIA: Slayer Combo for 1-4 players: rules, card data, scoring and solo ranks.

``gameshelf.core.registry.load("axia(players=3)")`` builds a game. The CLI uses
:func:`format_deck` (``gameshelf cards axia``), :func:`score_sheet` and
:func:`format_score_sheet`.
"""

from __future__ import annotations

from gameshelf.core.engines import is_compiled
from gameshelf.core.game import Game
from gameshelf.core.registry import DataSets, GameEntry

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
from .cardsets import (
    STANDARD,
    card_data_digest,
    register_card_set,
    registered_card_set,
    standard_card_data,
)
from .details import AxiaMove, legal_move_details
from .facts import NOTATION, rules_summary
from .options import OPTIONS
from .render import format_deck, format_score_sheet, picture_key
from .rules import AxiaGame, AxiaState, make_game
from .view import AxiaView, score_sheet

COMPILED: bool = is_compiled(
    actions, board, cards, chance, effects, hits, items, results, rounds, rules, scoring,
    setup_phase, state_fields,
)  # fmt: skip
"""Whether the rules, cards, scoring and state run compiled (mypyc) rather than from source
(the modules of the mypyc ``include`` list in ``pyproject.toml``)."""


def card_words(game: Game) -> dict[str, str]:
    """Each card id of ``game``'s card data with what the card is, in words. The card data is
    public: only who holds which card is private."""
    if not isinstance(game, AxiaGame):
        raise TypeError(f"{game.game_string} is not an AXIA game")
    cards = game.cards
    words = {card.id: " | ".join(space.label for space in card.spaces) for card in cards.territory}
    for card in cards.scoring:
        words[card.id] = f"row: {card.row.describe()}; column: {card.column.describe()}"
    words.update((card.id, card.describe()) for card in cards.items)
    return words


CARD_SETS = DataSets(
    standard=STANDARD,
    standard_data=standard_card_data,
    digest=card_data_digest,
    register=register_card_set,
    registered=registered_card_set,
)
"""The card sets that the ``cards`` option takes by name (the server's card sets)."""

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
    card_words=card_words,
    data_sets=CARD_SETS,
    view_type=AxiaView,
    move_type=AxiaMove,
)
"""The registration that the ``gameshelf.games`` entry point names (pyproject.toml)."""


__all__ = [
    "CARD_SETS",
    "COMPILED",
    "ENTRY",
    "OPTIONS",
    "AxiaGame",
    "AxiaState",
    "card_words",
    "format_deck",
    "format_score_sheet",
    "score_sheet",
]
