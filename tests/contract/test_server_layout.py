"""The server's layout holds: no import cycle between its modules (type-checking imports
included), no module much over 400 lines, every table in the store, and one writer of a
match's changes (the round, through the group committer)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.games.cage.package_shape import cycles

SERVER = Path(__file__).resolve().parents[2] / "src" / "gameshelf" / "server"
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    found = {}
    for path in SERVER.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(SERVER).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The server modules ``name`` imports (``from . import x`` counts as ``x`` alone)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package.split(".") if package else []
        base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
        target = ".".join([*base, *([node.module] if node.module else [])])
        children = [f"{target}.{a.name}".strip(".") for a in node.names]
        named = [child for child in children if child in modules]
        for module in named or [target]:
            if module in modules and module != name:
                found.add(module)
    return found


def test_no_import_cycle_between_server_modules() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_server_module_is_much_over_400_lines() -> None:
    long = {
        name: count
        for name, path in _modules().items()
        if (count := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_every_table_is_declared_in_the_store() -> None:
    outside = []
    for name, path in _modules().items():
        if name.startswith("store"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id == "Base" for base in node.bases
            ):
                outside.append(f"{name}.{node.name}")
    assert outside == []


def test_only_the_round_writes_changes_of_a_match() -> None:
    writers = []
    for name, path in _modules().items():
        text = path.read_text()
        if "write_changes" in text or ".writer.write(" in text:
            writers.append(name)
    assert sorted(writers) == ["committer", "round", "store.matches"]


def test_routes_hold_no_queries() -> None:
    """Routes ask the store; no route opens a session or builds a query itself."""
    querying = [
        name
        for name, path in _modules().items()
        if name.startswith("routes")
        and any(word in path.read_text() for word in ("session()", "select(", "update("))
    ]
    assert querying == []
