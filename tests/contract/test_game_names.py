"""Generic modules never choose by a game's name: outside ``games/`` and each game's own packs
(``agents/<game>/``, its learning pack ``learn/<game>/`` and its JAX copy ``rl/jax/<game>.py``),
no module compares with or lists a registered game's name (``"cage"``,
``"axia(players=1)"``), imports a game package (``gameshelf.games.cage``) or builds a game
module's name to import it (``f"gameshelf.games.{name}"``). What a game knows reaches the
generic code through its registry entry and its pack.

Read from the source with ``ast``: docstrings and comments may name games (examples), code may
not. A few modules outside this work's reach still do; :data:`KNOWN` lists them with how many
each holds, and the test fails on any new one and on a count that went down without the list
following (so the list only shrinks).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from gameshelf.core.registry import available_games

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "gameshelf"
GAME_MODULES = "gameshelf.games."

KNOWN: dict[str, int] = {}
"""Modules that still name games, with their count: to be emptied, never extended."""


def _docstrings(tree: ast.Module) -> set[int]:
    """``id()`` of every string statement (module, class, function and attribute docstrings)."""
    found = set()
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if not isinstance(statements, list):
                continue
            for statement in statements:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    found.add(id(statement.value))
    return found


def names_in(source: str, games: list[str]) -> list[tuple[int, str]]:
    """``(line, what)`` for each use of a game's name in ``source`` (see the module doc)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    # an f-string's text parts are constants too; the f-string is judged whole, below
    docs |= {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            text = node.value
            if any(text == g or text.startswith(f"{g}(") for g in games):
                found.append((node.lineno, repr(text)))
            elif text.startswith(GAME_MODULES):
                found.append((node.lineno, f"module name {text!r}"))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if _game(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and _game(node.module or ""):
            found.append((node.lineno, f"from {node.module} import"))
        elif isinstance(node, ast.JoinedStr):
            head = node.values[0] if node.values else None
            if isinstance(head, ast.Constant) and str(head.value).startswith(GAME_MODULES):
                found.append((node.lineno, f"built module name {head.value!r}..."))
    return sorted(found)


def _game(module: str) -> bool:
    return module.startswith(GAME_MODULES)


def generic_modules(games: list[str]) -> list[Path]:
    """Every module outside ``games/`` and outside each game's packs (``agents/<game>/``,
    ``learn/<game>/``) and JAX copy (``rl/jax/<game>.py``)."""
    packs = {PACKAGE / part / game for game in games for part in ("agents", "learn")}
    copies = {PACKAGE / "rl" / "jax" / f"{game}.py" for game in games}
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "games"
        and path not in copies
        and not any(pack in path.parents for pack in packs)
    ]


def test_generic_modules_name_no_game() -> None:
    games = available_games()
    counts: Counter[str] = Counter()
    uses: dict[str, list[str]] = {}
    for path in generic_modules(games):
        found = names_in(path.read_text(encoding="utf-8"), games)
        if found:
            key = path.relative_to(PACKAGE).as_posix()
            counts[key] = len(found)
            uses[key] = [f"{key}:{line}: {what}" for line, what in found]
    new = [use for key, found in uses.items() if counts[key] > KNOWN.get(key, 0) for use in found]
    assert not new, "a generic module names a game (ask the registry or the pack):\n  " + (
        "\n  ".join(new)
    )
    stale = {key: (allowed, counts[key]) for key, allowed in KNOWN.items() if counts[key] < allowed}
    assert not stale, f"names went away; lower KNOWN to match (allowed, found): {stale}"


def test_the_checker_finds_each_way_of_naming_a_game() -> None:
    source = '''
"""A docstring may say cage."""
import gameshelf.games.cage
from gameshelf.games.axia.rules import AxiaState
from importlib import import_module
if game.spec.name == "axiom":
    pass
GAMES = ("cage", "nim")
BENCH = "axia(players=1)"
module = import_module(f"gameshelf.games.{name}")
fine = f"{name} wins"
'''
    found = names_in(source, ["axia", "axiom", "cage"])
    assert [line for line, _ in found] == [3, 4, 6, 8, 9, 10]


def test_the_packs_and_the_games_may_name_their_game() -> None:
    games = available_games()
    modules = {path.relative_to(PACKAGE).as_posix() for path in generic_modules(games)}
    assert "agents/levels.py" in modules and "rl/encodings.py" in modules
    assert not any(m.startswith(("games/", "agents/cage/", "agents/axia/")) for m in modules)
    assert "learn/loop.py" in modules and "rl/jax/__init__.py" in modules
    assert not any(m.startswith(("learn/cage/", "learn/axiom/", "rl/jax/cage")) for m in modules)
