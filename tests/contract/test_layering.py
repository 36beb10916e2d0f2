"""The package's layering and the absence of import cycles, read from the source with ``ast``.

Layers, lowest first: {``core``, ``extras``} ← ``games`` ← ``agents`` ← {``arena``, ``rl``,
``learn``, ``server``, ``bench``} ← ``cli``. The bots are a library the arena, the RL wrappers,
self-play training, the server and the bench all use, so they sit on a floor of their own below
them. A module may import its
own layer or a lower one, never a higher one; one game package never imports another; and no set
of modules imports itself round a cycle.
Nothing in the package imports the maintainers' tools (``tools/``, outside the package): an
installed gameshelf has no ``tools`` to import.
Every import counts, at module level or inside a function: a deferred import hides a
dependency, it does not remove it. Imports under ``if TYPE_CHECKING:`` count for the layering
(a type from a higher layer is still an upward dependency) but not for cycles: they never run,
and an annotation naming the module that imports you is the usual way to type a callback.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SRC = ROOT / "src"
PACKAGE = "gameshelf"

LAYERS: dict[str, int] = {
    "core": 0,
    "extras": 0,  # standard library only: the install line of an optional extra
    "games": 1,
    "agents": 2,
    "arena": 3,
    "rl": 3,
    "learn": 3,  # self-play training and the master bot: above the bots it measures against
    "server": 3,
    "bench": 3,
    "cli": 4,
}


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    modules: dict[str, Path] = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _type_checking_only(tree: ast.Module) -> set[int]:
    """``id()`` of every node inside an ``if TYPE_CHECKING:`` block."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
            if name == "TYPE_CHECKING":
                for child in node.body:
                    hidden.update(id(inner) for inner in ast.walk(child))
    return hidden


def imports_of(name: str, modules: dict[str, Path]) -> Iterator[tuple[str, int, bool]]:
    """``(module imported, line, runs)`` for each import of a package module in ``name``;
    ``runs`` is false for imports under ``if TYPE_CHECKING:``."""
    tree = ast.parse(modules[name].read_text(encoding="utf-8"), str(modules[name]))
    package = name if _is_package(name, modules) else name.rpartition(".")[0]
    hidden = _type_checking_only(tree)
    for node in ast.walk(tree):
        runs = id(node) not in hidden
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _known(alias.name, modules)
                if target:
                    yield target, node.lineno, runs
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                # ``from pkg import sub`` imports the submodule when there is one.
                target = _known(f"{base}.{alias.name}", modules) or _known(base, modules)
                if target:
                    yield target, node.lineno, runs


def _known(dotted: str, modules: dict[str, Path]) -> str | None:
    """The longest package module that ``dotted`` names (``None`` outside the package)."""
    parts = dotted.split(".")
    if parts[0] != PACKAGE:
        return None
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def layer_of(name: str) -> int:
    """The layer of a module; the top-level ``gameshelf`` facade re-exports core."""
    parts = name.split(".")
    if len(parts) == 1:
        return 0
    if parts[1] not in LAYERS:
        raise AssertionError(f"{name} sits in no layer; add {parts[1]!r} to LAYERS")
    return LAYERS[parts[1]]


def import_graph(runtime_only: bool = False) -> dict[str, dict[str, int]]:
    """module → {imported module: first line}, for imports within the package (with
    ``runtime_only``, leaving out those under ``if TYPE_CHECKING:``)."""
    modules = module_files()
    graph: dict[str, dict[str, int]] = {}
    for name in modules:
        edges: dict[str, int] = {}
        for target, line, runs in imports_of(name, modules):
            if target != name and (runs or not runtime_only):
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (the cycles)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def layering_violations(graph: dict[str, dict[str, int]]) -> list[str]:
    """Each upward import and each import of one game package by another, with its line."""
    problems = []
    for name, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            if layer_of(target) > layer_of(name):
                problems.append(f"{name}:{line} imports {target} (a higher layer)")
            mine, theirs = name.split("."), target.split(".")
            if (
                len(mine) > 2
                and len(theirs) > 2
                and mine[1] == theirs[1] == "games"
                and mine[2] != theirs[2]
            ):
                problems.append(f"{name}:{line} imports {target} (another game)")
    return problems


def test_no_upward_import_and_no_game_imports_another() -> None:
    problems = layering_violations(import_graph())
    assert not problems, "layering broken:\n  " + "\n  ".join(problems)


def test_the_bots_sit_below_everything_that_uses_them() -> None:
    # A bot that reached up into the server (or the arena, RL, the bench) would pass if they
    # shared a floor; each such import must be reported.
    for user in ("server", "arena", "rl", "bench"):
        graph = {"gameshelf.agents.x": {f"gameshelf.{user}.y": 3}, f"gameshelf.{user}.y": {}}
        assert layering_violations(graph) == [
            f"gameshelf.agents.x:3 imports gameshelf.{user}.y (a higher layer)"
        ]
    assert layering_violations({"gameshelf.server.y": {"gameshelf.agents.x": 1}}) == []


def test_no_import_cycle() -> None:
    graph = import_graph(runtime_only=True)
    cycles = strongly_connected(graph)
    described = []
    for component in cycles:
        inside = set(component)
        edges = [
            f"{name} -> {target} (line {line})"
            for name in component
            for target, line in graph[name].items()
            if target in inside
        ]
        described.append("; ".join(edges))
    assert not cycles, "import cycles:\n  " + "\n  ".join(described)


OUTSIDE = "tools"
"""The repository's maintainer tools: they import the package, never the other way round."""


def imports_outside(path: Path, outside: str = OUTSIDE) -> list[int]:
    """The lines of ``path`` that import ``outside`` or a module under it (at any depth of the
    file: a deferred import still needs it at run time)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name == outside or name.startswith(outside + ".") for name in names):
            lines.append(node.lineno)
    return sorted(lines)


def test_nothing_in_the_package_imports_the_tools() -> None:
    found = [
        f"{name}:{line}" for name, path in module_files().items() for line in imports_outside(path)
    ]
    assert not found, "the package imports tools/:\n  " + "\n  ".join(found)


def test_the_checker_sees_imports_of_the_tools(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(
        "import toolsmith\nfrom tools.golden import GOLDEN\ndef f():\n    import tools\n"
        "from . import tools as mine\n",
        encoding="utf-8",
    )
    assert imports_outside(path) == [2, 4]


def test_core_names_no_game() -> None:
    # Games are found through entry points; core must not know any by name.
    for name, path in module_files().items():
        if layer_of(name) == 0:
            text = path.read_text(encoding="utf-8")
            for game in ("axiom", "axia", "cage"):
                assert f"games.{game}" not in text, f"{name} names the game {game}"


def test_the_checker_sees_deferred_and_relative_imports(tmp_path: Path) -> None:
    # The AST reader must find imports inside functions and resolve relative ones.
    modules = {
        "gameshelf.core": tmp_path / "__init__.py",
        "gameshelf.core.a": tmp_path / "a.py",
        "gameshelf.core.b": tmp_path / "b.py",
        "gameshelf.games": tmp_path / "g" / "__init__.py",
        "gameshelf.games.x": tmp_path / "g" / "x.py",
    }
    (tmp_path / "g").mkdir()
    for path in modules.values():
        path.write_text("", encoding="utf-8")
    modules["gameshelf.core.a"].write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import gameshelf.core.b\n"
        "def f():\n    from gameshelf.games import x\n    from . import b\n",
        encoding="utf-8",
    )
    seen = list(imports_of("gameshelf.core.a", modules))
    assert sorted(seen) == [
        ("gameshelf.core.b", 3, False),
        ("gameshelf.core.b", 6, True),
        ("gameshelf.games.x", 5, True),
    ]
    found = {"gameshelf.games.x": 5}
    graph = {"gameshelf.core.a": found, "gameshelf.games.x": {"gameshelf.core.a": 1}}
    assert layering_violations(graph) == [
        "gameshelf.core.a:5 imports gameshelf.games.x (a higher layer)"
    ]
    assert strongly_connected(graph) == [["gameshelf.core.a", "gameshelf.games.x"]]
