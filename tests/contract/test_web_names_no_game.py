"""The browser table draws every game from what the server says (the registry's facts, the
structured moves, the views): no TypeScript module chooses by a game's name, not even the
lobby's preselected game (the server lists the featured game first)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web" / "src"
NAMES = re.compile(r"""["'](axiom|cage|axia)["']""")


def _named(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if NAMES.search(line)]


def test_no_browser_module_names_a_game() -> None:
    found = []
    for path in sorted(WEB.rglob("*.ts")):
        if "generated" in path.parts:
            continue
        found += [f"{path.name}: {line}" for line in _named(path.read_text())]
    assert found == []


def test_the_check_sees_a_choice_by_name() -> None:
    assert _named('if (game.name === "axiom") return "Black";') != []
