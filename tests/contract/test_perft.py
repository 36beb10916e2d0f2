"""Perft files (python-chess's style): exact move-tree counts from the start and mid-game.

``tests/data/perft/<game>.perft`` holds blocks of ``id``, ``game``, ``position`` and
``perft N = count`` lines, written by ``scripts/gen-golden.py --perft``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gameshelf.core.perft import perft
from gameshelf.core.registry import load

from .golden_format import ROOT

PERFT_DIR = ROOT / "tests" / "data" / "perft"


@dataclass
class PerftCase:
    """One root position and its expected counts by depth."""

    file: str
    ident: str
    game: str = ""
    position: str = ""
    counts: dict[int, int] = field(default_factory=dict)


def parse_perft_file(path: Path) -> list[PerftCase]:
    """The cases of one perft file; a malformed line fails with its number."""
    cases: list[PerftCase] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            cases.append(PerftCase(path.stem, rest))
        elif not cases:
            raise AssertionError(f"{path.name}:{number}: {key!r} before the first id")
        elif key == "game":
            cases[-1].game = rest
        elif key == "position":
            cases[-1].position = rest.replace("\\n", "\n").replace("\\\\", "\\")
        elif key == "perft":
            depth, equals, count = rest.split()
            assert equals == "=", f"{path.name}:{number}: expected 'perft N = count'"
            cases[-1].counts[int(depth)] = int(count)
        else:
            raise AssertionError(f"{path.name}:{number}: unknown key {key!r}")
    return cases


CASES = [case for path in sorted(PERFT_DIR.glob("*.perft")) for case in parse_perft_file(path)]


def test_perft_files_cover_start_and_mid_game() -> None:
    by_file: dict[str, list[str]] = {}
    for case in CASES:
        by_file.setdefault(case.file, []).append(case.ident)
    assert set(by_file) == {"axiom", "cage"}
    for idents in by_file.values():
        assert any(i.startswith("start") for i in idents)
        assert any(i.startswith(("mid", "tall", "connected")) for i in idents)
    axiom_start = next(c for c in CASES if c.file == "axiom" and c.ident == "start")
    # The published counts from the Axiom start (docs/games/axiom.md).
    assert axiom_start.counts == {1: 32, 2: 992, 3: 68722}


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}-{c.ident}" for c in CASES])
def test_perft(case: PerftCase) -> None:
    state = load(case.game).state_from_position(case.position)
    assert state.position() == case.position, "the stored position does not round-trip"
    got = {depth: perft(state, depth) for depth in sorted(case.counts)}
    assert got == case.counts
