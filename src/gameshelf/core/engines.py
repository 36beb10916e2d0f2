"""Which engine runs: each game's hot modules compiled with mypyc, or the same Python source.

A platform wheel (and a checkout after ``scripts/setup-venv.sh``) holds each compiled module as an
extension file next to its ``.py``; Python's own finder prefers the extension, so nothing here
chooses it. This module only answers which one was loaded, and offers the two ways back to the
Python source:

- ``GAMESHELF_PURE=1`` in the environment (read when :mod:`gameshelf` is imported);
- a checkout whose compiled files are older than their sources: the in-place build writes
  ``gameshelf/_compiled.json`` (module name to SHA-256 of the source it was built from), and a
  module whose ``.py`` no longer matches makes every game run from source, with a warning, so
  that an edit is never shadowed by an old build. Installed wheels carry no such file.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .registry import GameEntry

PURE_ENV = "GAMESHELF_PURE"
"""Set to anything but ``""`` or ``"0"`` to run every game from its Python source."""
MANIFEST = "_compiled.json"
"""The in-place build's record, in the ``gameshelf`` package folder."""
_PACKAGE = "gameshelf"
_ROOT = Path(__file__).resolve().parents[1]

pure_reason = ""
"""Why the Python source is forced (empty when Python's finder decides)."""


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds ``gameshelf`` modules in their ``.py`` files only, never in an extension file."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of ``fullname``'s source file, for modules of the package only."""
        if not fullname.startswith(_PACKAGE + ".") or not path:
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, *loaders).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def pure_requested() -> bool:
    """Whether ``GAMESHELF_PURE`` asks for the Python source."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def stale_builds(root: Path = _ROOT) -> list[str]:
    """Modules of the in-place build whose source changed since they were compiled."""
    try:
        recorded = json.loads((root / MANIFEST).read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    stale = []
    for name, digest in sorted(recorded.items()):
        source = root.parent.joinpath(*name.split(".")).with_suffix(".py")
        try:
            current = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            current = ""
        if current != digest:
            stale.append(name)
    return stale


def choose_engine(root: Path = _ROOT) -> None:
    """Put the source-only finder first when pure Python is asked for or the build under
    ``root`` is stale (run by ``gameshelf/__init__.py``, before any game module is imported)."""
    global pure_reason
    if any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        return
    if pure_requested():
        pure_reason = f"{PURE_ENV} is set"
    else:
        stale = stale_builds(root)
        if not stale:
            return
        pure_reason = f"the compiled build is older than {', '.join(stale)}"
        warnings.warn(
            f"gameshelf: {pure_reason}; running Python source (scripts/setup-venv.sh rebuilds it)",
            RuntimeWarning,
            stacklevel=2,
        )
    sys.meta_path.insert(0, _SourceFirst())


def is_compiled(*modules: ModuleType) -> bool:
    """Whether every one of ``modules`` was loaded from an extension file (compiled)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return bool(modules) and all(str(m.__file__ or "").endswith(suffixes) for m in modules)


def game_package(entry: GameEntry) -> ModuleType | None:
    """The module that registers ``entry`` (the one whose ``ENTRY`` it is), if loaded."""
    parts = entry.factory.__module__.split(".")
    for end in range(len(parts), 0, -1):
        module = sys.modules.get(".".join(parts[:end]))
        if module is not None and getattr(module, "ENTRY", None) is entry:
            return module
    return None


def engine_of_game(entry: GameEntry) -> str:
    """``"compiled"`` or ``"pure"`` for a registered game."""
    package = game_package(entry)
    return engine_of(package) if package is not None else "pure"


def engine_of(game_module: ModuleType) -> str:
    """``"compiled"`` or ``"pure"`` for a game package (its ``COMPILED`` flag; a game without
    one runs its source)."""
    return "compiled" if getattr(game_module, "COMPILED", False) is True else "pure"


__all__ = [
    "MANIFEST",
    "PURE_ENV",
    "choose_engine",
    "engine_of",
    "engine_of_game",
    "game_package",
    "is_compiled",
    "pure_requested",
    "stale_builds",
]
