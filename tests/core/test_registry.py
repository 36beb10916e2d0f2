"""Game discovery through the ``gameshelf.games`` entry points, and registration by hand."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from gameshelf.core import registry
from gameshelf.core.errors import UnknownGame
from gameshelf.core.registry import (
    ENTRY_POINT_GROUP,
    GameEntry,
    RegistryError,
    available_games,
    entry_from_point,
    facts_of,
    game_entry,
    load,
    register,
)

ROOT = Path(__file__).resolve().parents[2]

CAGE = game_entry("cage")
# Registration objects an entry point may name, reachable by import from this module.
NOT_AN_ENTRY = 42


def renamed_cage() -> GameEntry:
    """A registration function (an entry point may name one), for a game called 'cagette'."""
    return GameEntry(
        "cagette",
        title="Cagette",
        summary="a renamed Cage",
        options=CAGE.options,
        factory=CAGE.factory,
    )


def _point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


def test_the_shipped_games_are_declared_as_entry_points() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'[project.entry-points."{ENTRY_POINT_GROUP}"]' in text
    assert {"axia", "axiom", "cage"} <= set(available_games())


def test_an_entry_point_may_name_a_function_returning_the_entry() -> None:
    entry = entry_from_point(_point("cagette", f"{__name__}:renamed_cage"))
    assert entry.name == "cagette" and entry.factory is CAGE.factory


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("cage", "gameshelf.no_such_module:ENTRY", "does not load: ModuleNotFoundError"),
        ("cage", f"{__name__}:NOT_AN_ENTRY", "gives a int, not a GameEntry"),
        ("cage", f"{__name__}:renamed_cage", "registers a game named 'cagette'"),
    ],
)
def test_a_bad_entry_point_is_named_in_the_error(name: str, value: str, message: str) -> None:
    with pytest.raises(RegistryError, match=message) as caught:
        entry_from_point(_point(name, value))
    assert value in str(caught.value)


def test_an_outside_game_registers_and_loads_like_a_shipped_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    available_games()  # discover first, then work on a copy the test throws away
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))

    def factory(values: Mapping[str, Any]) -> Any:
        return CAGE.factory(values)

    register(
        GameEntry(
            "test_outside_cage",
            title="Outside",
            summary="a test game",
            options=CAGE.options,
            factory=factory,
        )
    )
    assert "test_outside_cage" in available_games()
    state = load("test_outside_cage(players=3)").new_initial_state()
    assert state.game.spec.num_players == 3


def test_register_refuses_what_is_not_an_entry() -> None:
    with pytest.raises(RegistryError, match="needs a GameEntry, not dict"):
        register({"name": "x"})  # type: ignore[arg-type]


def test_an_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match=r"available games: .*axiom.*cage"):
        game_entry("chess")


def test_test_option_sets_become_game_strings() -> None:
    strings = CAGE.test_game_strings()
    assert strings[0] == "cage" and "cage(players=3)" in strings


def test_an_entry_without_facts_gets_generic_ones() -> None:
    # A plug-in that registers only options and a factory is still titled and its seats named.
    bare = GameEntry("cage", options=CAGE.options, factory=CAGE.factory)
    facts = bare.facts(load("cage(players=3)"))
    assert facts.title == "cage" and bare.title == "cage"
    assert facts.seats == ("player 1", "player 2", "player 3")
    assert facts.notation == () and facts.rules == ()


def test_the_facts_come_from_the_entry_and_the_engine() -> None:
    facts = facts_of(load("axiom"))
    assert facts.title == game_entry("axiom").title == "Axiom"
    assert facts.seats == ("black", "white")
    assert facts.notation == game_entry("axiom").notation != ()


@pytest.mark.parametrize("game", ["axiom", "cage"])
def test_the_rules_summary_states_the_tables_ply_limit(game: str) -> None:
    def text(game_string: str) -> str:
        return " ".join(i for s in facts_of(load(game_string)).rules for i in s.items)

    assert "After 137 plies the game is a draw." in text(f"{game}(max_plies=137)")
    assert "137 plies" not in text(game)


def test_the_facts_of_another_games_entry_are_refused() -> None:
    with pytest.raises(RegistryError, match="not a game of the entry 'axiom'"):
        game_entry("axiom").facts(load("cage"))
