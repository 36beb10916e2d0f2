"""AXIA: Slayer Combo for 1-4 players: rules, card data, scoring and solo ranks.

``gameshelf.core.registry.load("axia(players=3)")`` builds a game. The CLI uses
:func:`format_deck` (``gameshelf cards axia``), :func:`score_sheet` and
:func:`format_score_sheet`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameshelf.core.game import State
from gameshelf.core.options import OptionSpec
from gameshelf.core.registry import GameEntry

from .cards import CardSet, load_cards
from .cardsets import resolve_cards
from .rules import RAKYA_EFFECTS, AxiaGame, AxiaState
from .scoring import solo_rank


def _cards_path(text: str) -> str:
    if not text:
        raise ValueError("empty path")
    resolve_cards(text)  # every named violation is reported now, as InvalidData
    return text


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("players", "int", 2, "number of Slayers (1 = solo mode)", minimum=1, maximum=4),
    OptionSpec(
        "cards",
        "str",
        None,
        "a card set: 'standard' (shipped), a registered set's name, or a card file's path",
        parser=_cards_path,
        allowed="standard, a registered card set's name, or a card file's path "
        "(see docs/games/axia.md)",
        names_file=True,
    ),
    OptionSpec(
        "first_game", "bool", False, "deal 6 Scoring cards at random and place them randomly"
    ),
    OptionSpec(
        "prioritize_objectives",
        "bool",
        False,
        "variant: draft Scoring cards (7, pick 1, pass left)",
    ),
    OptionSpec("explore_regions", "bool", False, "variant: one redraw of the starting hand"),
    OptionSpec(
        "must_hit_if_possible",
        "bool",
        True,
        "forbid taking a die you cannot use while a usable die remains",
    ),
    OptionSpec(
        "rakya_effect",
        "choice",
        RAKYA_EFFECTS[0],
        "a defeated Rakya hits a non-magical beast (the Overview's eighth immediate effect), "
        "or has no effect",
        choices=RAKYA_EFFECTS,
    ),
)


def _factory(values: Mapping[str, Any]) -> AxiaGame:
    return AxiaGame(values, OPTIONS)


ENTRY = GameEntry(
    name="axia",
    title="AXIA: Slayer Combo",
    summary="Dice, hidden hands and beast-effect combos on a 3x3 territory (1-4 players)",
    options=OPTIONS,
    factory=_factory,
    test_option_sets=(
        "players=1",
        "",
        "players=3,prioritize_objectives=true,explore_regions=true",
        "players=4,first_game=true,must_hit_if_possible=false,rakya_effect=none",
    ),
)
"""The registration that the ``gameshelf.games`` entry point names (pyproject.toml)."""


def format_deck(cards_path: str | None = None) -> str:
    """The whole deck printed readably (for ``gameshelf cards axia``)."""
    cards: CardSet = load_cards(cards_path)
    out = [f"AXIA card data ({cards.source}), provenance: {cards.provenance}", ""]
    out.append(f"Territory cards ({len(cards.territory)}); spaces in reading order:")
    for card in cards.territory:
        out.append(f"  {card.id}: " + " | ".join(space.label for space in card.spaces))
    out.append("")
    out.append(f"Scoring cards ({len(cards.scoring)}):")
    for sc in cards.scoring:
        out.append(f"  {sc.id}: row: {sc.row.describe()}; column: {sc.column.describe()}")
    out.append("")
    out.append(f"Item cards ({len(cards.items)}):")
    for item in cards.items:
        out.append(f"  {item.id}: {item.describe()}")
    return "\n".join(out) + "\n"


def score_sheet(state: State) -> dict[str, Any]:
    """Score sheet data for every player: per scoring card, beast effects, Acolytes, items."""
    if not isinstance(state, AxiaState):
        raise TypeError("score_sheet needs an AXIA state")
    players = []
    for p in range(state.game.n):
        sheet = state.score_sheet(p)
        sheet["player"] = p
        if state.game.n == 1:
            sheet["rank"] = solo_rank(sheet["total"])
        players.append(sheet)
    return {
        "final": state.is_terminal(),
        "players": players,
        "winners": state.winners() if state.is_terminal() else [],
    }


def format_score_sheet(state: State) -> str:
    """The score sheet as a terminal table (one column per player)."""
    data = score_sheet(state)
    players = data["players"]
    rows: list[tuple[str, list[str]]] = []
    for slot in ("R1", "R2", "R3", "C1", "C2", "C3"):
        cells = []
        for sheet in players:
            entry = next((r for r in sheet["scoring_cards"] if r["slot"] == slot), None)
            if entry is None:
                cells.append("-")
            else:
                flag = "" if entry["active"] else " (off)"
                cells.append(f"{entry['card']} {entry['points']}{flag}")
        rows.append((f"scoring {slot}", cells))
    beasts = sorted({b for sheet in players for b in sheet["beasts"]})
    for beast in beasts:
        rows.append((beast, [str(sheet["beasts"].get(beast, 0)) for sheet in players]))
    rows.append(("acolyte sets", [str(s["acolytes"]) for s in players]))
    rows.append(("items kept", [str(s["items"]) for s in players]))
    rows.append(("TOTAL", [str(s["total"]) for s in players]))
    rows.append(("defeated (tie 1)", [str(s["defeated"]) for s in players]))
    rows.append(("defeated Rakya (tie 2)", [str(s["defeated_rakya"]) for s in players]))
    if len(players) == 1:
        rows.append(("rank", [players[0]["rank"]]))
    width = max(len(label) for label, _ in rows) + 2
    col = max([14, *(len(c) + 2 for _, cells in rows for c in cells)])
    names = [state.describe_player(s["player"]) for s in players]
    header = " " * width + "".join(f"{name:>{col}}" for name in names)
    lines = [header, "-" * len(header)]
    lines += [f"{label:<{width}}" + "".join(f"{c:>{col}}" for c in cells) for label, cells in rows]
    if data["final"]:
        winners = [state.describe_player(w) for w in data["winners"]]
        if len(winners) == 1:
            lines.append(f"winner: {winners[0]}")
        else:
            lines.append("shared victory: " + ", ".join(winners))
    return "\n".join(lines) + "\n"


__all__ = [
    "ENTRY",
    "OPTIONS",
    "AxiaGame",
    "AxiaState",
    "format_deck",
    "format_score_sheet",
    "score_sheet",
]
