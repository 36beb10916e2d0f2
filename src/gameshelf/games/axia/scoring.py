"""Final scoring: Scoring cards with activation, beast scoring effects, Acolyte sets, items."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import slot_name
from .board import SLOT_LINES, SLOT_SPACES
from .cards import ACOLYTES, REGIONS, TEMPLE, CardSet, Criterion

ACOLYTE_SET_POINTS = (0, 3, 7, 13, 23, 35, 50)
WOUNDED = 1
DEFEATED = 2

#: Solo Slayer ranks: (lowest score, name).
RANKS: tuple[tuple[int, str], ...] = (
    (201, "Legend"),
    (151, "Elite"),
    (111, "Slayer"),
    (81, "Novice"),
    (0, "Apprentice"),
)


def solo_rank(score: int) -> str:
    """The rulebook's Slayer rank of a solo score (0-80 Apprentice ... 201+ Legend)."""
    for low, name in RANKS:
        if score >= low:
            return name
    return "Apprentice"


@dataclass(frozen=True)
class Tables:
    """Per global space (card index × 4 + local) attributes, for fast rules code."""

    region: tuple[int, ...]
    beast: tuple[str, ...]
    magic: tuple[bool, ...]
    critical: tuple[int, ...]  # 0 = no printed number

    @classmethod
    def build(cls, cards: CardSet) -> Tables:
        """Flatten the Territory cards of ``cards``."""
        spaces = [space for card in cards.territory for space in card.spaces]
        return cls(
            tuple(REGIONS.index(s.region) for s in spaces),
            tuple(s.beast for s in spaces),
            tuple(s.magic for s in spaces),
            tuple(s.critical or 0 for s in spaces),
        )


def acolyte_sets(counts: Sequence[int]) -> list[int]:
    """Sizes of the Acolyte sets formed from defeated counts per type (largest sets first).

    Taking every available type into each set is optimal because the table is convex.
    """
    left = list(counts)
    sizes = []
    while any(left):
        sizes.append(sum(1 for c in left if c))
        left = [c - 1 if c else 0 for c in left]
    return sizes


def _matches(tables: Tables, g: int, kind: str, crit: Criterion) -> bool:
    if kind == "region":
        return REGIONS[tables.region[g]] == crit.region
    if kind == "regions":
        return REGIONS[tables.region[g]] in crit.regions
    if crit.type == "magical":
        return tables.magic[g]
    if crit.type == "acolyte":
        return tables.beast[g] in ACOLYTES
    return tables.beast[g] == "rakya"


def criterion_count(
    tables: Tables, crit: Criterion, slot: int, spc: Sequence[int], marks: Sequence[int]
) -> int:
    """How many spaces ``crit`` counts for the card in ``slot`` (before multiplying by points)."""
    spaces = SLOT_SPACES[slot] if crit.scope == "lines" else range(36)
    placed = [s for s in spaces if spc[s] >= 0]
    kind = crit.kind
    if kind == "majority_region":
        counts = [0] * len(REGIONS)
        for s in placed:
            counts[tables.region[spc[s]]] += 1
        return max(counts)
    defeated_only = kind.startswith("defeated")
    if defeated_only:
        placed = [s for s in placed if marks[s] == DEFEATED]
    if kind == "defeated_any":
        return len(placed)
    test = {
        "region_spaces": "region",
        "defeated_region": "region",
        "two_region_spaces": "regions",
    }.get(kind, "type")
    return sum(1 for s in placed if _matches(tables, spc[s], test, crit))


def slot_active(slot: int, spc: Sequence[int], marks: Sequence[int]) -> bool:
    """A Scoring card is active when one linked line is wholly wounded or defeated."""
    return any(all(spc[s] >= 0 and marks[s] for s in line) for line in SLOT_LINES[slot])


def beast_points(tables: Tables, spc: Sequence[int], marks: Sequence[int]) -> dict[str, int]:
    """Points of each defeated scoring beast, summed by beast name."""
    defeated = [spc[s] for s in range(36) if spc[s] >= 0 and marks[s] == DEFEATED]
    acolytes_placed = sum(1 for s in range(36) if spc[s] >= 0 and tables.beast[spc[s]] in ACOLYTES)
    by_region = [0] * len(REGIONS)
    for g in defeated:
        by_region[tables.region[g]] += 1
    rakya = sum(1 for g in defeated if tables.beast[g] == "rakya")
    magical = sum(1 for g in defeated if tables.magic[g])
    out: dict[str, int] = {}
    for g in defeated:
        beast = tables.beast[g]
        if beast == "ariak":
            value = 3
        elif beast.startswith("king_"):
            value = by_region[REGIONS.index(beast[5:])]
        elif beast == "temple_guardian":
            value = 2 * by_region[TEMPLE]
        elif beast == "ryde":
            value = 2 * rakya
        elif beast == "corvo":
            value = magical
        elif beast == "acolyte_master":
            value = acolytes_placed
        else:
            continue
        out[beast] = out.get(beast, 0) + value
    return out


def defeated_tallies(
    tables: Tables, spc: Sequence[int], marks: Sequence[int]
) -> tuple[int, int, list[int]]:
    """(defeated beasts, defeated Rakya, defeated Acolytes per type) of one territory."""
    counts = [0] * len(ACOLYTES)
    defeated = rakya = 0
    for s in range(36):
        g = spc[s]
        if g < 0 or marks[s] != DEFEATED:
            continue
        defeated += 1
        beast = tables.beast[g]
        if beast == "rakya":
            rakya += 1
        elif beast in ACOLYTES:
            counts[ACOLYTES.index(beast)] += 1
    return defeated, rakya, counts


def score_totals(
    cards: CardSet,
    tables: Tables,
    spc: Sequence[int],
    marks: Sequence[int],
    slots: Sequence[int],
    items: Sequence[int],
) -> tuple[int, int, int]:
    """(total, defeated beasts, defeated Rakya) of one player: :func:`score_breakdown`'s numbers
    without the itemised sheet, for search, which asks for them at every playout's end."""
    total = 0
    for slot in range(6):
        if slots[slot] >= 0 and slot_active(slot, spc, marks):
            card = cards.scoring[slots[slot]]
            crit = card.row if slot < 3 else card.column
            total += crit.points * criterion_count(tables, crit, slot, spc, marks)
    total += sum(beast_points(tables, spc, marks).values())
    defeated, rakya, counts = defeated_tallies(tables, spc, marks)
    total += sum(ACOLYTE_SET_POINTS[size] for size in acolyte_sets(counts))
    total += sum(cards.items[i].vp for i in items)
    return total, defeated, rakya


def score_breakdown(
    cards: CardSet,
    tables: Tables,
    spc: Sequence[int],
    marks: Sequence[int],
    slots: Sequence[int],
    items: Sequence[int],
) -> dict[str, Any]:
    """The full score sheet of one player as JSON-able data."""
    rows: list[dict[str, Any]] = []
    for slot in range(6):
        if slots[slot] < 0:
            continue
        card = cards.scoring[slots[slot]]
        crit = card.row if slot < 3 else card.column
        active = slot_active(slot, spc, marks)
        count = criterion_count(tables, crit, slot, spc, marks)
        rows.append(
            {
                "slot": slot_name(slot),
                "card": card.id,
                "criterion": crit.describe(),
                "active": active,
                "count": count,
                "points": crit.points * count if active else 0,
            }
        )
    beasts = beast_points(tables, spc, marks)
    defeated, rakya, counts = defeated_tallies(tables, spc, marks)
    sets = acolyte_sets(counts)
    acolyte_points = sum(ACOLYTE_SET_POINTS[size] for size in sets)
    item_points = sum(cards.items[i].vp for i in items)
    total = (
        sum(int(r["points"]) for r in rows) + sum(beasts.values()) + acolyte_points + item_points
    )
    return {
        "scoring_cards": rows,
        "beasts": beasts,
        "acolyte_sets": sets,
        "acolytes": acolyte_points,
        "items": item_points,
        "total": total,
        "defeated": defeated,
        "defeated_rakya": rakya,
    }
