"""The Cage package's shape: options -> geometry/board -> actions -> notation, position, view,
render -> rules -> __init__, with no import cycle and nothing outside the standard library and
core."""

from __future__ import annotations

from .package_shape import cycles, import_graph, outside_imports

PACKAGE = "gameshelf.games.cage"


def test_no_module_of_the_cage_is_part_of_an_import_cycle() -> None:
    assert cycles(import_graph(PACKAGE)) == []


def test_only_the_state_module_and_init_import_the_state_module() -> None:
    graph = import_graph(PACKAGE)
    users = {module for module, targets in graph.items() if f"{PACKAGE}.rules" in targets}
    assert users == {PACKAGE}


def test_the_cage_imports_only_the_standard_library_and_core() -> None:
    assert outside_imports(PACKAGE) == {}


def test_the_check_sees_a_cycle_made_by_an_import_inside_a_function() -> None:
    graph = import_graph(PACKAGE)
    graph[f"{PACKAGE}.board"].add(f"{PACKAGE}.rules")  # as an in-function import would add it
    assert any(f"{PACKAGE}.rules" in group for group in cycles(graph))
