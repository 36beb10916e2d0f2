"""tools/README.md names every tool as it is run, and nothing that is not one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"


def runnable() -> set[str]:
    """The dotted names of the tool modules that run as ``python -m`` (they test __name__)."""
    return {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in TOOLS.rglob("*.py")
        if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
    }


def test_the_readme_names_every_tool_and_only_tools() -> None:
    named = set(re.findall(r"`python -m (tools\.[\w.]+)", (TOOLS / "README.md").read_text("utf-8")))
    assert named == runnable()
    assert {"tools.strength", "tools.golden", "tools.learn.axiom"} <= named
