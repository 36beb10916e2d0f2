"""Reading the files named on the command line, with one-line errors instead of tracebacks."""

from __future__ import annotations

from pathlib import Path

from gameshelf.core.errors import InvalidPosition
from gameshelf.core.files import read_text_file

#: A ``--position`` value at least this long is position text, never a file name.
MAX_PATH_LENGTH = 4096


def position_text(value: str) -> str:
    """A position given inline, or the contents of a file when ``value`` names one."""
    path = Path(value)
    if len(value) >= MAX_PATH_LENGTH or not path.is_file():
        return value
    return read_text_file(path, "position file", InvalidPosition)
