"""Terminal pictures of an AXIA state and of a player's territory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gameshelf.core.game import Game, State

from .actions import PHASE_NAMES
from .cards import REGIONS, CardSet, load_cards
from .view import score_sheet

if TYPE_CHECKING:
    from .rules import AxiaState

_ABBREV = {
    "sentinel_forest": "SF",
    "sentinel_desert": "SD",
    "sentinel_mountain": "SM",
    "sentinel_lake": "SL",
    "temple_sentinel": "TS",
    "zorak": "Zo",
    "rut": "Ru",
    "foga": "Fo",
    "cadra": "Ca",
    "torcha": "To",
    "ariak": "Ar",
    "king_forest": "KF",
    "king_desert": "KD",
    "king_mountain": "KM",
    "king_lake": "KL",
    "temple_guardian": "TG",
    "ryde": "Ry",
    "corvo": "Co",
    "acolyte_1": "A1",
    "acolyte_2": "A2",
    "acolyte_3": "A3",
    "acolyte_4": "A4",
    "acolyte_5": "A5",
    "acolyte_master": "A6",
    "rakya": "Rk",
}
_COLOURS = ("\x1b[32m", "\x1b[33m", "\x1b[37m", "\x1b[36m", "\x1b[35m")
_RESET = "\x1b[0m"


def beast_abbrev(beast: str) -> str:
    """Two-letter abbreviation of a beast name."""
    return _ABBREV.get(beast, beast[:2])


def render_territory(state: AxiaState, p: int, color: bool = False) -> list[str]:
    """Lines picturing player ``p``'s 6×6 territory.

    A space reads ``fRuM3x``: region initial, beast, die (P/M), critical (``*`` = any), and a
    mark (``/`` wounded, ``X`` defeated).
    """
    g = state.game
    lines = ["     " + "".join(f"{c:^8}" for c in "abcdef")]
    for row in range(6):
        cells = []
        for col in range(6):
            s = row * 6 + col
            gs = state.card_spaces[p][s]
            if gs < 0:
                cells.append("   .    ")
                continue
            t = g.tables
            crit = str(t.critical[gs]) if t.critical[gs] else "*"
            mark = " /X"[state.marks[p][s]]
            die = "M" if t.magic[gs] else "P"
            text = f"{REGIONS[t.region[gs]][0]}{beast_abbrev(t.beast[gs])}{die}{crit}{mark}"
            if color:
                text = _COLOURS[t.region[gs]] + text + _RESET
            cells.append(f" {text} ")
        sep = "  " if row % 2 else ""
        lines.append(f"  {row + 1}  " + "".join(cells) + sep)
    return lines


def render_state(state: AxiaState, color: bool = False, viewer: int | None = None) -> str:
    """Every territory (with its scoring slots), the face-up row, the dice and the turn.

    With ``viewer`` the slots and scores are those ``state.view(viewer)`` shows (a face-down
    Scoring card reads ``??``, a score with private item points ``?``); without it, everything.
    """
    seen = None if viewer is None else state.view(viewer)["players"]

    g = state.game
    out = [
        # Round 0 is the setup (scoring cards and the first placement), before the 8 rounds.
        f"AXIA {f'round {state.round}/8' if state.round else 'setup'}, "
        f"{PHASE_NAMES[state.phase]} step, "
        f"{state.describe_player(state.current_player())} to move"
    ]
    dice = []
    for d in range(g.num_dice):
        value = state.dice[d] or "?"
        used = "" if state.dice_taken_by[d] < 0 else f"(used by {state.dice_taken_by[d]})"
        dice.append(f"{g.die_name(d)}={value}{used}")
    out.append("dice: " + " ".join(dice))
    out.append(
        "face-up: " + " ".join(g.cards.territory[c].id if c >= 0 else "--" for c in state.face_up)
    )
    for p in range(g.players):
        slots = [g.cards.scoring[c].id if c >= 0 else "--" for c in state.scoring_slots[p]]
        score: object = state.score_sheet(p)["total"]
        if seen is not None:
            shown = seen[p]["scoring"]
            slots = [
                "--" if c < 0 else (shown[i] or "??") for i, c in enumerate(state.scoring_slots[p])
            ]
            score = "?" if seen[p]["score"] is None else seen[p]["score"]
        out.append(
            f"{state.describe_player(p)}: rows {' '.join(slots[:3])}  "
            f"columns {' '.join(slots[3:])}  "
            f"hand {len(state.hands[p])}  items {len(state.items[p])}  "
            f"score {score}"
        )
        out.extend(render_territory(state, p, color))
    task = state.task()
    if task is not None:
        out.append(f"effect waiting: {task[0]}")
    if state.is_terminal():
        out.append(state.result_text())
    return "\n".join(out)


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


def picture_key(game: Game) -> str:
    """What the terminal picture's short codes mean: regions, beasts, dice and marks."""
    beasts = {
        beast_abbrev(space.beast): space.beast.replace("_", " ")
        for card in getattr(getattr(game, "cards", None), "territory", ())
        for space in card.spaces
    }
    regions = "f forest, d desert, m mountain, l lake, t temple"
    return (
        f"key: a space such as fRuM3/ reads region ({regions}), beast, die (P physical, "
        "M magic), the number that hits it (* any), then / wounded or X defeated\n"
        "beasts: " + ", ".join(f"{code} {name}" for code, name in sorted(beasts.items()))
    )
