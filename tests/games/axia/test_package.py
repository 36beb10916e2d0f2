"""The AXIA package's shape: options -> cards/board/scoring -> actions -> notation, position,
view, render -> rules -> __init__, no import cycle, only rules (no policy) inside."""

from __future__ import annotations

import dataclasses

import pytest

from gameshelf.core.errors import InvalidOption
from gameshelf.games.axia.actions import (
    MULLIGAN,
    PHASE_MULLIGAN,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_SCORE_PICK,
    PHASE_TURN,
    PLACE,
    REFILL,
)
from gameshelf.games.axia.options import OPTIONS, make_config
from gameshelf.games.axia.rules import AxiaGame

from ..cage.package_shape import cycles, import_graph, outside_imports

PACKAGE = "gameshelf.games.axia"


def test_no_module_of_axia_is_part_of_an_import_cycle() -> None:
    assert cycles(import_graph(PACKAGE)) == []


def test_only_init_imports_the_state_module() -> None:
    graph = import_graph(PACKAGE)
    users = {module for module, targets in graph.items() if f"{PACKAGE}.rules" in targets}
    assert users == {PACKAGE}


def test_axia_imports_only_the_standard_library_and_core() -> None:
    assert outside_imports(PACKAGE) == {}


def test_the_rules_package_holds_no_policy_or_heuristic() -> None:
    graph = import_graph(PACKAGE)
    assert f"{PACKAGE}.calibration" not in graph
    from gameshelf.agents.axia import policies as axia_policies

    assert callable(axia_policies.heuristic) and callable(axia_policies.planner)


def test_phase_constants_are_named_apart_from_the_action_id_bases() -> None:
    phases = (
        PHASE_SCORE_PICK,
        PHASE_MULLIGAN,
        PHASE_PLACE,
        PHASE_REFILL,
        PHASE_TURN,
        PHASE_OVER,
    )
    assert phases == tuple(range(len(PHASE_NAMES)))
    # the id bases of the same words are other numbers: mixing them up cannot go unnoticed
    assert {MULLIGAN, PLACE, REFILL}.isdisjoint(phases)


def test_every_default_comes_from_the_option_specs() -> None:
    config = make_config({})
    for spec in OPTIONS:
        assert getattr(config, spec.name) == spec.default, spec.name
    assert make_config({"players": 3}).players == 3


def test_the_config_is_frozen() -> None:
    config = make_config({})
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.players = 4  # type: ignore[misc]


def test_an_unknown_option_given_by_hand_is_refused_by_name() -> None:
    with pytest.raises(InvalidOption, match="colour"):
        AxiaGame({"players": 2, "colour": "red"})


def test_a_game_built_by_hand_reads_its_options_from_the_config() -> None:
    game = AxiaGame({"players": 1, "must_hit_if_possible": False})
    assert game.players == game.config.players == 1
    assert game.must_hit_if_possible is False and game.explore_regions is False
    assert game.game_string == "axia(players=1,must_hit_if_possible=false)"


def test_score_sheet_refuses_a_state_of_another_game() -> None:
    from gameshelf.core import load
    from gameshelf.games.axia import score_sheet

    with pytest.raises(TypeError, match="AXIA"):
        score_sheet(load("cage").new_initial_state())
