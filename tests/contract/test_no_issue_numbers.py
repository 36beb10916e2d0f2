"""The package's code names no issue numbers: code says what it does and why, and the history
behind a choice lives in ``docs/decisions/`` and ``CHANGELOG.md``.

Read as text, every line of every ``.py`` file under ``src/`` counts (code, comments,
docstrings, strings). An issue reference is ``issue 12``, ``Issue #12``, ``issue-12`` or
``issues 12``, or a bare ``#12`` (a hash, then digits, standing alone). A hex colour is not
one: ``#123``, ``#1234``, ``#123456`` and ``#12345678`` have the lengths a colour has, so a
bare hash of three, four, six or eight hex digits is allowed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

WORDED = re.compile(r"\bissues?\b[ \t]*[#-]?[ \t]*\d+", re.IGNORECASE)
"""``issue 12``, ``Issue #12``, ``issue-12``, ``issues 12``."""
HASHED = re.compile(r"(?<![\w#&])#([0-9A-Fa-f]+)\b")
"""A hash standing alone before a run of hex digits; :func:`issue_references` keeps the
digit-only runs that cannot be a colour."""
COLOUR_LENGTHS = frozenset({3, 4, 6, 8})


def issue_references(line: str) -> list[str]:
    """The issue references written on ``line``, as they are written."""
    worded = list(WORDED.finditer(line))
    found = [match.group(0) for match in worded]
    for match in HASHED.finditer(line):
        digits = match.group(1)
        inside = any(w.start() <= match.start() < w.end() for w in worded)  # "Issue #16"
        if digits.isdigit() and len(digits) not in COLOUR_LENGTHS and not inside:
            found.append(match.group(0))
    return found


def hits() -> list[str]:
    """``path:line: reference`` for every issue reference in the package's source."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            for reference in issue_references(line):
                where = path.relative_to(SRC.parent)
                found.append(f"{where}:{number}: {reference!r}")
    return found


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('    """Axiom hard as it was before the search (issue 19): depth 3."""', ["issue 19"]),
        ("# Speed (#10): a fast rollout", ["#10"]),
        ("measured on the issue-17 cards", ["issue-17"]),
        ("the targets of Issue #16, second pass", ["Issue #16"]),
        ('FILL = "#1f2937"  # slate', []),
        ('BORDER = "#333"', []),
        ('GREEN = "#22c55e80"', []),
        ("raise ValueError(f'move #{index} does not replay')", []),
        ("the issue's external check", []),
        ("# 12 seeded games", []),
    ],
)
def test_the_matcher_tells_issue_numbers_from_colours(line: str, expected: list[str]) -> None:
    assert issue_references(line) == expected


def test_the_package_names_no_issue_numbers() -> None:
    found = hits()
    assert not found, "issue numbers in the package's code:\n" + "\n".join(found)
