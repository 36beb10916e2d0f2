"""Write the repository's golden playthroughs (tests/data/golden/) and perft files
(tests/data/perft/).

    .venv/bin/python -m tools.golden            # golden playthroughs
    .venv/bin/python -m tools.golden --perft    # perft files as well (depth 3-4 trees: slower)

Both pin today's behaviour of the engines (the formats: :mod:`gameshelf.core.golden`).
Regenerate only on purpose (a rule change that was decided), and say why in the commit;
tests/contract/test_golden.py and tests/contract/test_perft.py check the files.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gameshelf.core.golden import format_perft, golden_text, perft_case, perft_root

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "data" / "golden"
PERFT_DIR = ROOT / "tests" / "data" / "perft"

# (file stem, game string, seed): each a seeded random game played to the end. Seeds were
# picked so that the games run long enough to reach the rules the option set changes.
GOLDEN: tuple[tuple[str, str, int], ...] = (
    ("axiom-default", "axiom", 11),
    ("axiom-tall-overhang", "axiom(sceptre_clearance=tall,allow_overhang=true)", 3),
    ("axiom-connected-orthogonal", "axiom(require_connected=true,diagonal_moves=false)", 5),
    (
        "axiom-variants",
        "axiom(concave_turns=false,diagonal_squeeze=top_only,forbid_recess_contact=true,"
        "self_capture=only_if_forced,no_move_result=draw,repetition_draw=2,max_plies=120)",
        7,
    ),
    ("cage-default", "cage", 1),
    ("cage-3p-semantic", "cage(players=3,no_reverse=semantic,allow_noop_twists=false)", 2),
    ("cage-4p-shared", "cage(players=4,simultaneous=shared,continue_after_last_drop=true)", 3),
    ("cage-stock", "cage(stock=12:12,simultaneous=mover_priority,repetition_draw=2)", 11),
    ("axia-solo", "axia(players=1)", 1),
    ("axia-default", "axia", 2),
    ("axia-3p-variants", "axia(players=3,prioritize_objectives=true,explore_regions=true)", 3),
    (
        "axia-4p-first-game",
        "axia(players=4,first_game=true,must_hit_if_possible=false,rakya_effect=none)",
        4,
    ),
)

# (game, [(id, game string, seed, plies to play from the start, max depth)]): perft roots are
# the start and positions reached by seeded random play; depths keep each file to seconds.
PERFT: dict[str, tuple[tuple[str, str, int, int, int], ...]] = {
    "axiom": (
        ("start", "axiom", 0, 0, 3),
        ("mid-8", "axiom", 21, 8, 3),
        ("mid-16", "axiom", 23, 16, 3),
        ("mid-24", "axiom", 23, 24, 2),
        ("tall-overhang-mid-12", "axiom(sceptre_clearance=tall,allow_overhang=true)", 24, 12, 2),
        ("connected-mid-10", "axiom(require_connected=true)", 25, 10, 2),
    ),
    "cage": (
        ("start-2p", "cage", 0, 0, 4),
        ("start-4p", "cage(players=4)", 0, 0, 4),
        ("mid-2p-10", "cage", 31, 10, 4),
        ("mid-3p-20", "cage(players=3)", 32, 20, 4),
        ("mid-4p-26", "cage(players=4)", 33, 26, 4),
    ),
}


def perft_text(game: str) -> str:
    """The text of ``tests/data/perft/<game>.perft``: :data:`PERFT`'s roots and counts."""
    cases = [
        perft_case(ident, perft_root(game_string, seed, plies), depth)
        for ident, game_string, seed, plies, depth in PERFT[game]
    ]
    comments = (
        f"Perft of {game}: move sequences of exactly N plies from each position "
        "(python-chess's style).",
        "Written by python -m tools.golden --perft; checked by tests/contract/test_perft.py.",
    )
    return format_perft(cases, comments)


def main(argv: list[str] | None = None) -> int:
    """Write the golden files (and the perft files with ``--perft``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perft", action="store_true", help="also write the perft files")
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for stem, game_string, seed in GOLDEN:
        path = GOLDEN_DIR / f"{stem}.txt"
        path.write_text(golden_text(game_string, seed), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    if args.perft:
        PERFT_DIR.mkdir(parents=True, exist_ok=True)
        for game in PERFT:
            path = PERFT_DIR / f"{game}.perft"
            path.write_text(perft_text(game), encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
