"""The environment the suite runs in is the locked one: every installed package is pinned in
``constraints.txt`` at the version installed, so a fresh machine and CI install exactly what
was tested (``scripts/setup-venv.sh`` installs with ``-c constraints.txt``; a dependency added
without rerunning ``scripts/lock-deps.sh`` fails here)."""

from __future__ import annotations

import importlib.metadata
import re
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / "constraints.txt"
UNPINNED = frozenset({"gameshelf", "pip", "setuptools", "wheel"})
"""The project itself (installed editable) and the installer's own tools."""


def normalise(name: str) -> str:
    """A distribution name as package indexes compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(text: str) -> dict[str, str]:
    """``name -> version`` of each ``name==version`` line; comments and blank lines skipped;
    any other line is an error that names it."""
    found: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;=]+)", line)
        if match is None:
            raise ValueError(f"constraints.txt line {number} is not name==version: {raw!r}")
        name = normalise(match.group(1))
        if name in found:
            raise ValueError(f"constraints.txt line {number} pins {name} a second time")
        found[name] = match.group(2)
    return found


def installed() -> dict[str, str]:
    """``name -> version`` of every distribution installed in this environment's
    site-packages but the unpinned ones. Only there: Ray, once imported, puts its vendored
    packages (psutil, colorama) on ``sys.path``, and pip neither installed nor can pin those."""
    paths = sysconfig.get_paths()
    site = sorted({paths["purelib"], paths["platlib"]})
    return {
        normalise(dist.metadata["Name"]): dist.version
        for dist in importlib.metadata.distributions(path=site)
        if normalise(dist.metadata["Name"]) not in UNPINNED
    }


def test_pins_parse_and_refuse_anything_else() -> None:
    assert pins("# note\n\nFoo_Bar==1.2.3  # why\nbaz==2\n") == {"foo-bar": "1.2.3", "baz": "2"}
    for bad in ("foo>=1\n", "foo\n", "foo==1\nFOO==2\n"):
        with pytest.raises(ValueError, match=r"constraints\.txt line \d"):
            pins(bad)


def test_every_installed_package_is_pinned_at_its_version() -> None:
    import ray  # noqa: F401  (its vendored packages on sys.path must not count, in any test order)

    locked = pins(CONSTRAINTS.read_text(encoding="utf-8"))
    here = installed()
    assert len(here) >= 100, f"site-packages not read: {sorted(here)}"
    assert {"fastapi", "pytest", "ruff", "mypy", "open-spiel"} <= set(locked)
    missing = sorted(name for name in here if name not in locked)
    assert not missing, f"not in constraints.txt (run scripts/lock-deps.sh): {missing}"
    other = sorted(
        f"{name} {version} (locked {locked[name]})"
        for name, version in here.items()
        if locked[name] != version
    )
    assert not other, f"installed at other versions than constraints.txt: {other}"


def test_setup_installs_with_the_constraints() -> None:
    setup = (ROOT / "scripts" / "setup-venv.sh").read_text(encoding="utf-8")
    assert "-c constraints.txt" in setup
    assert "constraints.txt -nt" in setup  # a changed lock reinstalls
