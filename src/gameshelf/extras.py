"""Optional extras (``pyproject.toml``): the one line that says which to install.

A command that needs an extra checks for it before any work and, when a package is missing,
stops with status 2 and this line, instead of a traceback part-way through.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

_CHECKOUT = Path(__file__).resolve().parents[2]
"""The repository root when this runs from a source checkout (``src/gameshelf/extras.py``)."""

MODULE_EXTRAS = {
    "pyspiel": "rl",
    "open_spiel": "rl",
    "numpy": "rl",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "matplotlib": "arena",
    "ray": "arena",
}
"""Top-level modules of optional packages, and the extra that brings each."""


def from_checkout() -> bool:
    """Whether gameshelf runs from a source checkout (its ``src/`` beside ``constraints.txt``)."""
    return (_CHECKOUT / "constraints.txt").is_file() and (_CHECKOUT / "src" / "gameshelf").is_dir()


def install_hint(extra: str) -> str:
    """The command that adds ``extra``: in a checkout to its ``.venv`` at the tested versions,
    elsewhere to the installed package."""
    if from_checkout():
        return f".venv/bin/pip install -c constraints.txt -e '.[{extra}]'"
    return f"pip install 'gameshelf[{extra}]'"


def extra_for(error: BaseException) -> str | None:
    """The extra whose missing package raised ``error``, if it is one of ours."""
    if isinstance(error, ImportError) and error.name:
        return MODULE_EXTRAS.get(error.name.split(".")[0])
    return None


def missing_extra(what: str, extra: str, error: ImportError) -> NoReturn:
    """Stop ``what`` with status 2 and one line naming the missing package and the extra."""
    package = error.name or str(error)
    print(f"{what}: needs {package} from the {extra} extra: {install_hint(extra)}", file=sys.stderr)
    raise SystemExit(2)
