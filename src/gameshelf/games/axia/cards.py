"""AXIA card data: the typed model, the JSON loader and every constraint of the rules page.

The shipped file ``data/cards.json`` is a *reconstruction* (no public card list exists); a user's
own file (``axia(cards=PATH)``) goes through exactly the same checks. Every violation is reported
by a stable name (``territory.count``, ``beast.count.zorak``, ...), all at once, in one
:class:`~gameshelf.core.errors.InvalidData`. The format is described in ``data/SCHEMA.md``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gameshelf.core.errors import InvalidData
from gameshelf.core.files import parse_json_text, read_text_file

FORMAT = "gameshelf-axia-cards"
DEFAULT_PATH = Path(__file__).with_name("data") / "cards.json"

REGIONS: tuple[str, ...] = ("forest", "desert", "mountain", "lake", "temple")
REGULAR_REGIONS: tuple[str, ...] = REGIONS[:4]
TEMPLE = 4

ACOLYTES: tuple[str, ...] = (
    "acolyte_1",
    "acolyte_2",
    "acolyte_3",
    "acolyte_4",
    "acolyte_5",
    "acolyte_master",
)
TEMPLE_BEASTS = frozenset({"temple_sentinel", "temple_guardian", *ACOLYTES})

#: Copies of each beast across all 240 spaces (the rulebook's counts; Rakya fills the rest).
BEAST_COUNTS: dict[str, int] = {
    **{f"sentinel_{region}": 13 for region in REGULAR_REGIONS},
    "zorak": 10,
    "rut": 24,
    "foga": 9,
    "cadra": 8,
    "temple_sentinel": 10,
    "torcha": 9,
    "ariak": 14,
    **{f"king_{region}": 4 for region in REGULAR_REGIONS},
    "temple_guardian": 4,
    "ryde": 5,
    "corvo": 5,
    "acolyte_master": 5,
    **{name: 6 for name in ACOLYTES[:5]},
    "rakya": 39,
}
BEASTS: tuple[str, ...] = tuple(BEAST_COUNTS)

TERRITORY_CARDS = 60
SCORING_CARDS = 32
ITEM_CARDS = 24

CRITERION_KINDS: tuple[str, ...] = (
    "region_spaces",
    "two_region_spaces",
    "defeated_region",
    "type_spaces",
    "defeated_type",
    "defeated_any",
    "majority_region",
)
#: Kinds whose scope is printed on the card ("lines" or "territory"); the others are fixed.
FIXED_SCOPE = {"region_spaces": "lines", "two_region_spaces": "territory", "type_spaces": "lines"}
TYPES: tuple[str, ...] = ("magical", "acolyte", "rakya")
SCOPES: tuple[str, ...] = ("lines", "territory")

ITEM_EFFECTS: tuple[str, ...] = (
    "defeat_nonmagical",
    "defeat_region",
    "physical_as_magic",
    "change_die",
    "hit_diagonal",
)


@dataclass(frozen=True)
class Space:
    """One quarter of a Territory card."""

    region: str
    beast: str
    magic: bool
    critical: int | None

    @property
    def label(self) -> str:
        """Short text such as ``forest rut M3`` (``M*`` = no printed number)."""
        crit = "*" if self.critical is None else str(self.critical)
        return f"{self.region} {self.beast} {'M' if self.magic else 'P'}{crit}"


@dataclass(frozen=True)
class TerritoryCard:
    """A 2×2 Territory card; ``spaces`` in reading order (top-left, top-right, ...)."""

    id: str
    spaces: tuple[Space, Space, Space, Space]


@dataclass(frozen=True)
class Criterion:
    """One side of a Scoring card."""

    kind: str
    points: int
    scope: str
    region: str | None = None
    regions: tuple[str, ...] = ()
    type: str | None = None

    def describe(self) -> str:
        """A short English description of the criterion."""
        where = "in the linked lines" if self.scope == "lines" else "in the territory"
        what = {
            "region_spaces": f"{self.region} space",
            "two_region_spaces": f"{' or '.join(self.regions)} space",
            "defeated_region": f"defeated {self.region} beast",
            "type_spaces": f"{self.type} space",
            "defeated_type": f"defeated {self.type}",
            "defeated_any": "defeated beast",
            "majority_region": "space of the most frequent region",
        }[self.kind]
        return f"{self.points} per {what} {where}"


@dataclass(frozen=True)
class ScoringCard:
    """A double-sided Scoring card."""

    id: str
    row: Criterion
    column: Criterion


@dataclass(frozen=True)
class ItemCard:
    """An Item card: its effect (with the region for ``defeat_region``) and its VP if kept."""

    id: str
    effect: str
    vp: int
    region: str | None = None

    def describe(self) -> str:
        """A short English description of the item."""
        text = {
            "defeat_nonmagical": "defeat a non-magical beast",
            "defeat_region": f"defeat a beast in {self.region}",
            "physical_as_magic": "use a Physical die as a Magic die this turn",
            "change_die": "change the value of an unused die",
            "hit_diagonal": "hit two diagonally adjacent beasts",
        }[self.effect]
        return f"{text} ({self.vp} VP if kept)"


@dataclass(frozen=True)
class CardSet:
    """A validated set of cards."""

    territory: tuple[TerritoryCard, ...]
    scoring: tuple[ScoringCard, ...]
    items: tuple[ItemCard, ...]
    provenance: str
    source: str


class _Checker:
    """Collects named violations while reading a card file."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def fail(self, name: str, message: str) -> None:
        self.errors.append(f"{name}: {message}")

    def field(self, data: Any, key: str, kind: type, where: str, name: str) -> Any:
        if not isinstance(data, dict) or key not in data:
            self.fail(name, f"{where} has no {key!r}")
            return None
        value = data[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            self.fail(name, f"{where} field {key!r} must be {kind.__name__}")
            return None
        return value


def _provenance(check: _Checker, data: Any, where: str) -> None:
    value = data.get("provenance") if isinstance(data, dict) else None
    if not isinstance(value, str) or not value:
        check.fail("provenance", f"{where} has no provenance text")


def _read_space(check: _Checker, data: Any, where: str) -> Space | None:
    region = check.field(data, "region", str, where, "space.schema")
    beast = check.field(data, "beast", str, where, "space.schema")
    die = check.field(data, "die", str, where, "space.schema")
    critical = data.get("critical") if isinstance(data, dict) else None
    ok = True
    if region is not None and region not in REGIONS:
        check.fail("space.region", f"{where} has unknown region {region!r}")
        ok = False
    if beast is not None and beast not in BEAST_COUNTS:
        check.fail("space.beast", f"{where} has unknown beast {beast!r}")
        ok = False
    if die is not None and die not in ("physical", "magic"):
        check.fail("space.die", f"{where} die must be 'physical' or 'magic', not {die!r}")
        ok = False
    if critical is not None and (
        not isinstance(critical, int) or isinstance(critical, bool) or not 1 <= critical <= 6
    ):
        check.fail("space.critical", f"{where} critical must be 1..6 or null, not {critical!r}")
        ok = False
    if not ok or region is None or beast is None or die is None:
        return None
    if beast in TEMPLE_BEASTS and region != "temple":
        check.fail("space.temple_beast", f"{where}: {beast} must live in the temple, not {region}")
    return Space(region, beast, die == "magic", critical)


def _read_territory(check: _Checker, cards: Any, all_spaces: list[Space]) -> list[TerritoryCard]:
    result: list[TerritoryCard] = []
    if not isinstance(cards, list):
        check.fail("territory.schema", "'territory' must be a list")
        return result
    if len(cards) != TERRITORY_CARDS:
        check.fail(
            "territory.count", f"expected {TERRITORY_CARDS} Territory cards, found {len(cards)}"
        )
    for index, card in enumerate(cards):
        where = f"territory[{index}]"
        card_id = check.field(card, "id", str, where, "territory.schema")
        _provenance(check, card, where)
        spaces = check.field(card, "spaces", list, where, "territory.schema")
        if spaces is None:
            continue
        if len(spaces) != 4:
            check.fail("territory.spaces", f"{where} must have 4 spaces, found {len(spaces)}")
            continue
        read = [_read_space(check, s, f"{where}.spaces[{i}]") for i, s in enumerate(spaces)]
        all_spaces.extend(s for s in read if s is not None)
        if card_id is not None and all(s is not None for s in read):
            good = [s for s in read if s is not None]
            result.append(TerritoryCard(card_id, (good[0], good[1], good[2], good[3])))
    return result


def _check_territory_totals(check: _Checker, spaces: list[Space]) -> None:
    """Copy counts, region balance, magical share, critical mix and no-number share."""
    if not spaces:
        return
    beasts = Counter(space.beast for space in spaces)
    for beast, expected in BEAST_COUNTS.items():
        if beasts[beast] != expected:
            check.fail(
                f"beast.count.{beast}", f"expected {expected} {beast}, found {beasts[beast]}"
            )
    regions = Counter(space.region for space in spaces)
    regular = {regions[r] for r in REGULAR_REGIONS}
    if len(regular) != 1:
        counts = ", ".join(f"{r}={regions[r]}" for r in REGULAR_REGIONS)
        check.fail("regions.balanced", f"the four regular regions must be equal: {counts}")
    magical = sum(space.magic for space in spaces)
    if not len(spaces) // 10 <= magical <= len(spaces) // 2:
        check.fail("magical.share", f"{magical} magical spaces; expected 10%..50% of the spaces")
    criticals = Counter(space.critical for space in spaces)
    missing = [str(n) for n in (None, 1, 2, 3, 4, 5, 6) if criticals[n] == 0]
    if missing:
        check.fail("critical.mix", f"no space with critical {', '.join(missing)}")
    if criticals[None] * 3 > len(spaces):
        check.fail(
            "critical.share",
            f"{criticals[None]} of {len(spaces)} spaces print no critical number; at most a "
            "third may (the two-hit kill, wound then defeat, is the normal case)",
        )


def _read_criterion(check: _Checker, data: Any, where: str) -> Criterion | None:
    kind = check.field(data, "kind", str, where, "scoring.schema")
    points = check.field(data, "points", int, where, "scoring.schema")
    if kind is None or points is None:
        return None
    if kind not in CRITERION_KINDS:
        check.fail("scoring.kind", f"{where} has unknown kind {kind!r}")
        return None
    if points <= 0:
        check.fail("scoring.points", f"{where} points must be positive, not {points}")
    scope = FIXED_SCOPE.get(kind)
    if scope is None:
        scope = data.get("scope")
        if scope not in SCOPES:
            check.fail("scoring.scope", f"{where} scope must be 'lines' or 'territory'")
            return None
    region = data.get("region")
    regions = data.get("regions") or []
    type_ = data.get("type")
    if kind in ("region_spaces", "defeated_region") and region not in REGIONS:
        check.fail("scoring.region", f"{where} needs a region, not {region!r}")
        return None
    if kind == "two_region_spaces" and (
        not isinstance(regions, list)
        or len(regions) != 2
        or len(set(regions)) != 2
        or any(r not in REGIONS for r in regions)
    ):
        check.fail("scoring.regions", f"{where} needs two different regions, not {regions!r}")
        return None
    if kind in ("type_spaces", "defeated_type") and type_ not in TYPES:
        check.fail("scoring.type", f"{where} type must be one of {', '.join(TYPES)}")
        return None
    return Criterion(kind, points, scope, region, tuple(regions), type_)


def _read_scoring(check: _Checker, cards: Any) -> list[ScoringCard]:
    result: list[ScoringCard] = []
    if not isinstance(cards, list):
        check.fail("scoring.schema", "'scoring' must be a list")
        return result
    if len(cards) != SCORING_CARDS:
        check.fail("scoring.count", f"expected {SCORING_CARDS} Scoring cards, found {len(cards)}")
    for index, card in enumerate(cards):
        where = f"scoring[{index}]"
        card_id = check.field(card, "id", str, where, "scoring.schema")
        _provenance(check, card, where)
        row = _read_criterion(
            check, card.get("row") if isinstance(card, dict) else None, where + ".row"
        )
        col = _read_criterion(
            check, card.get("column") if isinstance(card, dict) else None, where + ".column"
        )
        if card_id is not None and row is not None and col is not None:
            result.append(ScoringCard(card_id, row, col))
    kinds = {side.kind for card in result for side in (card.row, card.column)}
    if result and (missing := [k for k in CRITERION_KINDS if k not in kinds]):
        check.fail("scoring.kinds", f"no Scoring card side of kind {', '.join(missing)}")
    return result


def _read_items(check: _Checker, cards: Any) -> list[ItemCard]:
    result: list[ItemCard] = []
    if not isinstance(cards, list):
        check.fail("items.schema", "'items' must be a list")
        return result
    if len(cards) != ITEM_CARDS:
        check.fail("items.count", f"expected {ITEM_CARDS} Item cards, found {len(cards)}")
    for index, card in enumerate(cards):
        where = f"items[{index}]"
        card_id = check.field(card, "id", str, where, "items.schema")
        _provenance(check, card, where)
        effect = check.field(card, "effect", str, where, "items.schema")
        vp = check.field(card, "vp", int, where, "items.schema")
        if effect is not None and effect not in ITEM_EFFECTS:
            check.fail("items.effect", f"{where} has unknown effect {effect!r}")
            continue
        region = card.get("region") if isinstance(card, dict) else None
        if effect == "defeat_region" and region not in REGIONS:
            check.fail("items.region", f"{where} defeat_region needs a region, not {region!r}")
            continue
        if vp is not None and vp < 0:
            check.fail("items.vp", f"{where} vp must not be negative")
        if card_id is not None and effect is not None and vp is not None:
            result.append(
                ItemCard(card_id, effect, vp, region if effect == "defeat_region" else None)
            )
    effects = {item.effect for item in result}
    if result and (missing := [e for e in ITEM_EFFECTS if e not in effects]):
        check.fail("items.effects", f"no Item card with effect {', '.join(missing)}")
    return result


def _check_ids(check: _Checker, ids: list[str]) -> None:
    for card_id, count in Counter(ids).items():
        if count > 1:
            check.fail("ids.unique", f"card id {card_id!r} is used {count} times")


def parse_cards(data: Any, source: str = "<data>") -> CardSet:
    """Validate decoded JSON card data; :class:`InvalidData` lists every violation by name."""
    check = _Checker()
    if not isinstance(data, dict):
        raise InvalidData(f"{source}: format: a card file must be a JSON object")
    if data.get("format") != FORMAT:
        check.fail("format", f"'format' must be {FORMAT!r}")
    _provenance(check, data, "the file")
    spaces: list[Space] = []
    territory = _read_territory(check, data.get("territory"), spaces)
    _check_territory_totals(check, spaces)
    scoring = _read_scoring(check, data.get("scoring"))
    items = _read_items(check, data.get("items"))
    _check_ids(check, [c.id for c in territory] + [c.id for c in scoring] + [c.id for c in items])
    if check.errors:
        listed = "\n  ".join(check.errors)
        raise InvalidData(f"{source}: {len(check.errors)} card-data violation(s):\n  {listed}")
    return CardSet(
        tuple(territory), tuple(scoring), tuple(items), str(data.get("provenance")), source
    )


@lru_cache(maxsize=8)
def load_cards(path: str | None = None) -> CardSet:
    """Read and validate a card file (the shipped reconstruction when ``path`` is ``None``)."""
    target = DEFAULT_PATH if path is None else Path(path)
    text = read_text_file(target, "card file", InvalidData)
    data = parse_json_text(text, "card file", str(target), InvalidData)
    return parse_cards(data, str(target) if path is not None else "cards.json")
