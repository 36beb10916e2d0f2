"""The package's one version number: the installed distribution's, as its metadata records it.

``pyproject.toml`` holds the number; installing the package copies it into the metadata, and
everything that shows a version (``gameshelf.__version__``, ``gameshelf --version``, the
server's OpenAPI document) reads it from there. A source tree used without being installed has
no metadata: its ``pyproject.toml`` is read instead.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "gameshelf"
SOURCE_PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"
"""Where ``pyproject.toml`` sits when this file is in a source tree (``src/gameshelf/core``)."""
UNKNOWN = "0+unknown"
"""The version shown where neither the metadata nor a source tree's pyproject.toml says one."""


def package_version(
    lookup: Callable[[str], str] = metadata.version, pyproject: Path = SOURCE_PYPROJECT
) -> str:
    """The version of the installed distribution (``lookup``), else that of the source tree's
    ``pyproject``, else :data:`UNKNOWN`."""
    try:
        return lookup(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _source_version(pyproject)


def _source_version(pyproject: Path) -> str:
    """``[project] version`` of ``pyproject`` if it is this distribution's, else UNKNOWN."""
    try:
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return UNKNOWN
    if project.get("name") != DISTRIBUTION or not isinstance(project.get("version"), str):
        return UNKNOWN
    return str(project["version"])
