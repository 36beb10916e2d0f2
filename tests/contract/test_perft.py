"""Perft files (python-chess's style): exact move-tree counts from the start and mid-game.

``tests/data/perft/<game>.perft`` holds blocks of ``id``, ``game``, ``position`` and
``perft N = count`` lines (the format: :mod:`gameshelf.core.golden`), written by
``python -m tools.golden --perft``.
"""

from __future__ import annotations

import pytest
from tools.golden import PERFT, PERFT_DIR

from gameshelf.core.golden import PerftCase, parse_perft
from gameshelf.core.perft import perft

FILES = {
    path.stem: parse_perft(path.read_text(encoding="utf-8"), path.name)
    for path in sorted(PERFT_DIR.glob("*.perft"))
}
CASES = [(game, case) for game, cases in FILES.items() for case in cases]


def test_perft_files_cover_start_and_mid_game() -> None:
    assert set(FILES) == set(PERFT) == {"axiom", "cage"}
    for game, cases in FILES.items():
        idents = [case.ident for case in cases]
        assert idents == [root[0] for root in PERFT[game]]
        assert any(i.startswith("start") for i in idents)
        assert any(i.startswith(("mid", "tall", "connected")) for i in idents)
    axiom_start = next(case for case in FILES["axiom"] if case.ident == "start")
    # The published counts from the Axiom start (docs/games/axiom.md).
    assert axiom_start.counts == {1: 32, 2: 992, 3: 68722}


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{g}-{c.ident}" for g, c in CASES])
def test_perft(game: str, case: PerftCase) -> None:
    state = case.root()
    assert state.position() == case.position, "the stored position does not round-trip"
    got = {depth: perft(state, depth) for depth in sorted(case.counts)}
    assert got == case.counts
