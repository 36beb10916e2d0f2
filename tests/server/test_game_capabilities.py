"""The server asks each game's registry entry, never a game's name: the board types it exports,
the game the lobby starts from, and the named data sets a file-naming option may take."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Literal, TypedDict

import pytest

from gameshelf.core import registry
from gameshelf.core.errors import InvalidData, InvalidOption
from gameshelf.core.registry import GameEntry, available_games, game_entry, offered_games
from gameshelf.server.export_contract import board_schemas, board_types, type_prefix
from gameshelf.server.vetting import (
    CardSetCatalog,
    data_set_game,
    network_option,
    vet_network_game,
)


class PegView(TypedDict):
    """A made-up plug-in's view."""

    holes: list[bool]


class PegJump(TypedDict):
    """A made-up plug-in's jump."""

    move: str
    kind: Literal["jump"]
    source: int


class PegPass(TypedDict):
    """A made-up plug-in's pass."""

    move: str
    kind: Literal["pass"]


class PegNote(TypedDict):
    """A move shape without a literal ``kind``: nothing to tell members apart by."""

    move: str
    kind: str


def _swap(monkeypatch: pytest.MonkeyPatch, name: str, **changes: object) -> GameEntry:
    """Register ``name`` with ``changes`` made to its entry (or a new entry made from the
    Cage's options and factory), for this test only."""
    available_games()  # discovery first, so that it never overwrites the swap
    base = registry._REGISTRY.get(name) or dataclasses.replace(game_entry("cage"), name=name)
    entry = dataclasses.replace(
        base, view_type=None, move_type=None, featured=False, data_sets=None
    )
    entry = dataclasses.replace(entry, **changes)  # type: ignore[arg-type]
    monkeypatch.setitem(registry._REGISTRY, name, entry)
    return entry


def test_a_plug_ins_board_types_are_exported_under_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _swap(monkeypatch, "peg_solitaire", view_type=PegView, move_type=PegJump | PegPass)
    schemas = board_schemas()
    assert schemas["PegSolitaireView"]["required"] == ["holes"]
    move = schemas["PegSolitaireMove"]
    assert move["discriminator"]["propertyName"] == "kind"
    assert set(move["discriminator"]["mapping"]) == {"jump", "pass"}
    assert {"AxiomView", "CageMove", "AxiaView"} <= set(schemas)


def test_a_union_without_literal_kinds_is_not_discriminated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _swap(monkeypatch, "peg", move_type=PegJump | PegNote)
    assert "discriminator" not in board_schemas()["PegMove"]


def test_a_game_without_board_types_exports_none(monkeypatch: pytest.MonkeyPatch) -> None:
    _swap(monkeypatch, "axiom")
    assert not {"AxiomView", "AxiomMove"} & set(board_types())
    assert {"CageView", "CageMove"} <= set(board_types())


def test_two_games_of_one_type_name_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    assert type_prefix("tic_tac-toe") == "TicTacToe"
    _swap(monkeypatch, "axiom_", view_type=PegView)  # its types would be Axiom... too
    with pytest.raises(ValueError, match="both named AxiomView"):
        board_types()


def test_the_featured_game_comes_first_then_the_rest_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    featured = [name for name in available_games() if game_entry(name).featured]
    assert featured, "no game is featured: the lobby would start from the first by name"
    rest = sorted(set(available_games()) - set(featured))
    assert offered_games() == sorted(featured) + rest
    _swap(monkeypatch, "cage")
    _swap(monkeypatch, "axiom", featured=True)
    others = sorted(set(available_games()) - {"axiom"})
    assert offered_games() == ["axiom", *others]


def test_the_card_sets_are_those_of_the_game_that_offers_them() -> None:
    game = data_set_game()
    assert game is not None
    provider = game_entry(game).data_sets
    assert provider is not None
    catalog = CardSetCatalog()
    assert catalog.names() == [provider.standard] and catalog.offers(game)
    spec = next(o for o in game_entry(game).options if o.names_file)
    default, allowed, _ = network_option(spec, catalog, game)
    assert default == provider.standard and provider.standard in allowed


def test_a_game_without_data_sets_takes_no_file_option_value(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = data_set_game()
    assert game is not None
    spec = next(o for o in game_entry(game).options if o.names_file)
    _swap(monkeypatch, game)  # the same game, without its data sets
    catalog = CardSetCatalog()
    assert catalog.names() == [] and not catalog.offers(game)
    with pytest.raises(InvalidOption, match="knows only: none"):
        vet_network_game(f"{game}({spec.name}=standard)", catalog, max_plies=300)
    assert vet_network_game(game, catalog, max_plies=300).extras.data_digest is None
    assert "none here" in network_option(spec, catalog, game)[1]
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps({"territory": []}), encoding="utf-8")
    with pytest.raises(InvalidData, match="no game of this shelf takes named data sets"):
        CardSetCatalog({"mine": cards})


def test_a_second_game_with_data_sets_is_named_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    game = data_set_game()
    assert game is not None
    _swap(monkeypatch, "cage", data_sets=game_entry(game).data_sets)
    with pytest.raises(InvalidData, match="take named data sets"):
        CardSetCatalog()
