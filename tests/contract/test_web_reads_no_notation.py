"""The browser never reads notation: boards choose moves by the parts of the server's structured
legal moves and send back the move's text, as a chessground-style widget is given its
destinations by the rules engine. These checks fail when a parser of move text comes back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web" / "src"
MOVE_HANDLERS = ("boards.ts", "axiom3d.ts", "cage3d.ts", "axia.ts", "match.ts", "analysis.ts")
"""The modules that receive legal moves, hints or played moves."""

REGEX = re.compile(
    r"new RegExp|\.(?:test|exec)\(|\.(?:match|matchAll|split|replace|replaceAll|search)\(\s*/"
    r"|(?:^|[=(,:?!&|]\s*)/(?![/*])(?:\\.|[^/\n])+/[dgimsuy]*\s*(?:\.|[,);])",
    re.MULTILINE,
)
"""A regular expression in TypeScript: a literal where an expression starts, or one in use."""

TEXT_OF_A_MOVE = re.compile(
    r"\b(?:move|lastMove|suggested|hinted|legal_moves)\b\s*(?:\??\.\s*"
    r"(?:split|startsWith|endsWith|slice|substring|indexOf|includes|charAt|at)\(|\[\s*\d)"
)
"""Slicing or searching the text of a move (its notation)."""

REMOVED = ("parseAxiomMove", "groupMoves(name", "tokens(", "[WYROBG]", "legal_moves")
"""The parsers and string lists the boards used to have."""


def sources() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(WEB.glob("*.ts"))}


@pytest.mark.parametrize("name", MOVE_HANDLERS)
def test_no_regular_expression_where_moves_are_handled(name: str) -> None:
    text = (WEB / name).read_text(encoding="utf-8")
    found = [m.group(0).strip() for m in REGEX.finditer(text)]
    assert not found, f"{name} uses a regular expression: {found}"


@pytest.mark.parametrize("name", MOVE_HANDLERS)
def test_no_move_text_is_sliced_or_searched(name: str) -> None:
    text = (WEB / name).read_text(encoding="utf-8")
    found = [m.group(0) for m in TEXT_OF_A_MOVE.finditer(text)]
    assert not found, f"{name} reads the text of a move: {found}"


def test_the_removed_parsers_stay_removed() -> None:
    for name, text in sources().items():
        for word in REMOVED:
            assert word not in text, f"{name} has {word!r}: boards choose on structured moves"


def test_the_checks_find_what_they_look_for() -> None:
    """Each check catches the code it was written against (so a pass means something)."""
    assert REGEX.search("const m = /^([CS])\\((-?\\d+)\\)/.exec(move.trim());")
    assert REGEX.search("return /^[WYROBG][0-7]$/.test(move) ? 1 : 0;")
    assert REGEX.search("key = move.split(/[>@]/)[0];")
    assert not REGEX.search("const half = width / 2; const third = height / 3;")
    assert TEXT_OF_A_MOVE.search('if (move.startsWith("T")) {')
    assert TEXT_OF_A_MOVE.search("const r = Number(move[1]);")
    assert not TEXT_OF_A_MOVE.search("context.play(move.move);")


def test_views_and_moves_are_typed_from_the_generated_contract() -> None:
    """No hand-written view interface: the boards' types come from web/src/generated."""
    for name, text in sources().items():
        assert not re.search(r"\binterface \w*View\b", text), f"{name} declares a view by hand"
    types = (WEB / "types.ts").read_text(encoding="utf-8")
    for game in ("Axiom", "Cage", "Axia"):
        assert f'Schemas["{game}View"]' in types and f'Schemas["{game}Move"]' in types
    assert 'Schemas["ClientFrame"]' in types
