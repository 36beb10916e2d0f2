"""Optional extras (``pyproject.toml``): the one line that says which to install.

A command that needs an extra checks for it before any work and, when a package is missing,
stops with status 2 and this line, instead of a traceback part-way through.
"""

from __future__ import annotations

import sys
from typing import NoReturn


def install_hint(extra: str) -> str:
    """The command that adds ``extra`` to the checkout's ``.venv``, at the tested versions."""
    return f".venv/bin/pip install -c constraints.txt -e '.[{extra}]'"


def missing_extra(what: str, extra: str, error: ImportError) -> NoReturn:
    """Stop ``what`` with status 2 and one line naming the missing package and the extra."""
    package = error.name or str(error)
    print(f"{what}: needs {package} from the {extra} extra: {install_hint(extra)}", file=sys.stderr)
    raise SystemExit(2)
