"""Golden playthroughs: seeded games replayed ply by ply match the stored text exactly.

Each file in ``tests/data/golden/`` records, per ply, the player (or the chance outcomes and
their probabilities), the number of legal actions and a digest of their ids, the action, its
notation and the position after it, then the returns (the format:
:mod:`gameshelf.core.golden`). A change to any rule, id layout, notation, position string or
result shows up here as the first line that differs. Regenerate with
``python -m tools.golden`` only for a decided rule change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tools.golden import GOLDEN, GOLDEN_DIR

from gameshelf.core.golden import golden_difference, golden_source
from gameshelf.core.registry import load


def test_every_golden_file_is_written_by_the_tool() -> None:
    stored = sorted(path.stem for path in GOLDEN_DIR.glob("*.txt"))
    assert stored == sorted(stem for stem, _, _ in GOLDEN)
    games = {game_string.split("(")[0] for _, game_string, _ in GOLDEN}
    assert games == {"axia", "axiom", "cage"}


@pytest.mark.parametrize(("stem", "game_string", "seed"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_playthrough(stem: str, game_string: str, seed: int) -> None:
    path: Path = GOLDEN_DIR / f"{stem}.txt"
    stored = path.read_text(encoding="utf-8")
    # The file names the game as its canonical string and the seed the tool was given.
    assert golden_source(stored, path.name) == (load(game_string).game_string, seed)
    difference = golden_difference(stored, path.name)
    assert difference is None, difference
    assert stored.splitlines()[-1].startswith("end plies "), f"{path.name}: no result line"
