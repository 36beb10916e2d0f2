"""Golden playthroughs: seeded games replayed ply by ply match the stored text exactly.

Each file in ``tests/data/golden/`` records, per ply, the player (or the chance outcomes and
their probabilities), the number of legal actions and a digest of their ids, the action, its
notation and the position after it, then the returns. A change to any rule, id layout,
notation, position string or result shows up here as the first line that differs. Regenerate
with ``python scripts/gen-golden.py`` only for a decided rule change.
"""

from __future__ import annotations

import pytest

from .golden_format import ROOT, load_generator

GEN = load_generator()
GOLDEN_DIR = ROOT / "tests" / "data" / "golden"


def _short(line: str) -> str:
    return line if len(line) <= 300 else line[:300] + "…"


def test_every_golden_file_is_generated_by_the_script() -> None:
    stored = sorted(path.stem for path in GOLDEN_DIR.glob("*.txt"))
    assert stored == sorted(stem for stem, _, _ in GEN.GOLDEN)
    games = {game_string.split("(")[0] for _, game_string, _ in GEN.GOLDEN}
    assert games == {"axia", "axiom", "cage"}


@pytest.mark.parametrize(
    ("stem", "game_string", "seed"), GEN.GOLDEN, ids=[g[0] for g in GEN.GOLDEN]
)
def test_golden_playthrough(stem: str, game_string: str, seed: int) -> None:
    expected = (GOLDEN_DIR / f"{stem}.txt").read_text(encoding="utf-8").splitlines()
    actual = GEN.golden_text(game_string, seed).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        if want != got:
            stored, now = _short(want), _short(got)
            pytest.fail(f"{stem}.txt line {number} differs\n  stored: {stored}\n  now:    {now}")
    assert len(actual) == len(expected), f"{stem}: {len(actual)} lines now, {len(expected)} stored"
    assert expected[-1].startswith("end plies "), f"{stem}.txt does not end with the result"
