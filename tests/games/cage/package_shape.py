"""What a game package's import graph may contain, read from its source (imports inside functions
included, imports for type checking only excluded); the Cage and AXIA package tests share it."""

from __future__ import annotations

import ast
import sys
from collections.abc import Collection
from pathlib import Path

SRC = Path(__file__).resolve().parents[3] / "src"


def _runtime_imports(
    tree: ast.Module, module: str, is_package: bool, modules: Collection[str] = ()
) -> list[str]:
    """Absolute names of every module ``module`` imports at run time.

    ``from P import x`` counts as importing ``P.x`` where that is one of ``modules``, else ``P``
    (the way the interpreter resolves it).
    """
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(sub) for sub in ast.walk(node))
    base = module.split(".") if is_package else module.split(".")[:-1]
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[: len(base) - (node.level - 1)]
                target = ".".join(parent + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                out.append(candidate if candidate in modules else target)
    return out


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, for every module of ``package``."""
    root = SRC / package.replace(".", "/")
    modules: dict[str, tuple[Path, bool]] = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text())
        targets = _runtime_imports(tree, name, is_package, modules)
        graph[name] = {t for t in targets if t in modules} - {name}
    return graph


def outside_imports(package: str) -> dict[str, set[str]]:
    """Module -> the top-level names it imports from outside the standard library and core."""
    root = SRC / package.replace(".", "/")
    bad: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        for target in _runtime_imports(ast.parse(path.read_text()), name, is_package):
            top = target.split(".")[0]
            allowed = (
                top in sys.stdlib_module_names
                or top == "__future__"
                or target.startswith(("gameshelf.core", package))
            )
            if not allowed:
                bad.setdefault(name, set()).add(target)
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), or a module importing
    itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found
