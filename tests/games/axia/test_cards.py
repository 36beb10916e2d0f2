"""Card data invariants, named violations for broken files, and the cards= option."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from gameshelf.core import load
from gameshelf.core.errors import InvalidData, InvalidOption
from gameshelf.games.axia import format_deck
from gameshelf.games.axia.cards import (
    BEAST_COUNTS,
    CRITERION_KINDS,
    DEFAULT_PATH,
    ITEM_EFFECTS,
    REGULAR_REGIONS,
    TEMPLE_BEASTS,
    load_cards,
    parse_cards,
)


def raw() -> dict:  # type: ignore[type-arg]
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_shipped_file_counts_and_provenance() -> None:
    data = raw()
    assert data["provenance"] == "reconstructed"
    for section in ("territory", "scoring", "items"):
        assert all(card["provenance"] == "reconstructed" for card in data[section])
    cards = load_cards()
    assert (len(cards.territory), len(cards.scoring), len(cards.items)) == (60, 32, 24)
    spaces = [s for card in cards.territory for s in card.spaces]
    assert len(spaces) == 240
    assert Counter(s.beast for s in spaces) == Counter(BEAST_COUNTS)
    assert sum(BEAST_COUNTS.values()) - BEAST_COUNTS["rakya"] == 201


def test_shipped_file_regions_types_and_criticals() -> None:
    spaces = [s for card in load_cards().territory for s in card.spaces]
    regions = Counter(s.region for s in spaces)
    assert len({regions[r] for r in REGULAR_REGIONS}) == 1
    assert all(s.region == "temple" for s in spaces if s.beast in TEMPLE_BEASTS)
    magical = sum(s.magic for s in spaces)
    assert 24 <= magical <= 120
    assert {s.critical for s in spaces} == {None, 1, 2, 3, 4, 5, 6}


def test_shipped_file_covers_every_criterion_and_item_effect() -> None:
    cards = load_cards()
    kinds = {side.kind for c in cards.scoring for side in (c.row, c.column)}
    assert kinds == set(CRITERION_KINDS)
    assert {i.effect for i in cards.items} == set(ITEM_EFFECTS)
    regions = {i.region for i in cards.items if i.effect == "defeat_region"}
    assert regions >= set(REGULAR_REGIONS)


def _errors(data: dict) -> str:  # type: ignore[type-arg]
    with pytest.raises(InvalidData) as info:
        parse_cards(data, "broken.json")
    return str(info.value)


def test_broken_file_reports_every_violation_by_name() -> None:
    data = raw()
    bad = copy.deepcopy(data)
    bad["territory"][0]["spaces"][0]["beast"] = "dragon"
    bad["territory"][1]["spaces"][1]["region"] = "swamp"
    bad["territory"][2]["spaces"][2]["critical"] = 9
    bad["territory"][3]["spaces"][3]["die"] = "golden"
    bad["scoring"].pop()
    bad["items"][0]["effect"] = "teleport"
    bad["items"][1]["provenance"] = ""
    text = _errors(bad)
    for name in (
        "space.beast",
        "space.region",
        "space.critical",
        "space.die",
        "scoring.count",
        "items.effect",
        "provenance",
        "beast.count",
    ):
        assert name in text, name
    assert "broken.json" in text


def test_copy_counts_and_temple_rule_are_checked() -> None:
    bad = raw()
    space = next(s for c in bad["territory"] for s in c["spaces"] if s["beast"] == "rakya")
    space["beast"] = "zorak"
    temple = next(s for c in bad["territory"] for s in c["spaces"] if s["beast"] == "acolyte_1")
    temple["region"] = "forest"
    text = _errors(bad)
    assert "beast.count.zorak: expected 10 zorak, found 11" in text
    assert "beast.count.rakya" in text
    assert "space.temple_beast" in text
    assert "regions.balanced" in text


def test_scoring_and_item_constraints() -> None:
    bad = raw()
    bad["scoring"][0]["row"] = {"kind": "defeated_any", "points": 2}  # no scope
    bad["scoring"][1]["column"] = {"kind": "two_region_spaces", "regions": ["forest"], "points": 1}
    bad["scoring"][2]["row"]["points"] = 0
    bad["items"][3] = {"id": "I04", "provenance": "x", "effect": "defeat_region", "vp": 1}
    bad["items"][4]["id"] = bad["items"][5]["id"]
    bad["territory"][0]["spaces"] = bad["territory"][0]["spaces"][:3]
    text = _errors(bad)
    for name in (
        "scoring.scope",
        "scoring.regions",
        "scoring.points",
        "items.region",
        "ids.unique",
        "territory.spaces",
    ):
        assert name in text, name


def test_not_json_and_not_a_file(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(InvalidData, match="not valid JSON"):
        load_cards(str(path))
    with pytest.raises(InvalidData, match="cannot read"):
        load_cards(str(tmp_path / "missing.json"))


def test_a_file_that_is_not_utf8_or_nests_too_deeply_is_invalid_data(tmp_path: Path) -> None:
    latin = tmp_path / "latin1.json"
    latin.write_bytes(b'{"provenance": "r\xe9constructed"}')
    with pytest.raises(InvalidData, match=r"latin1\.json' is not UTF-8 text: byte 17"):
        load_cards(str(latin))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidData, match="is nested too deeply"):
        load_cards(str(deep))
    with pytest.raises(InvalidOption, match="not UTF-8 text"):
        load(f'axia(cards="{latin}")')


def test_cards_option_loads_a_user_file_through_the_same_checks(tmp_path: Path) -> None:
    data = raw()
    data["provenance"] = "official"
    data["items"][0]["vp"] = 5
    good = tmp_path / "mine.json"
    good.write_text(json.dumps(data), encoding="utf-8")
    game = load(f"axia(players=2,cards={good})")
    assert game.cards.items[0].vp == 5  # type: ignore[attr-defined]
    assert "cards=" in game.game_string
    data["scoring"] = data["scoring"][:5]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises((InvalidData, InvalidOption), match=r"scoring\.count"):
        load(f"axia(cards={bad})")


def test_format_deck_lists_every_card() -> None:
    text = format_deck()
    assert "provenance: reconstructed" in text
    for card in load_cards().territory:
        assert card.id in text
    assert text.count("\n  S") == 32 and text.count("\n  I") == 24
