#!/usr/bin/env python3
"""Write the golden playthroughs (tests/data/golden/) and perft files (tests/data/perft/).

Both pin today's behaviour of the engines so that a refactor which changes a rule, an action
id, a notation, a position string or a result shows up as a diff in a text file. Regenerate
only on purpose (a rule change that was decided), and say why in the commit:

    python scripts/gen-golden.py            # golden playthroughs
    python scripts/gen-golden.py --perft    # perft files as well (slower: depth 3-4 trees)

tests/contract/test_golden.py and tests/contract/test_perft.py check the files; they import
the formatting functions from here so the file format is written in one place.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterator
from pathlib import Path

from gameshelf.core.game import CHANCE, State
from gameshelf.core.perft import perft
from gameshelf.core.registry import load
from gameshelf.core.rng import make_rng

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


def actions_digest(actions: list[int]) -> str:
    """A short stable digest of a list of action ids (the ids in full would swamp the file)."""
    text = ",".join(str(action) for action in actions)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _one_line(text: str) -> str:
    # Positions may span lines (Axiom's does); escape so one ply stays one record line.
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def play_golden(game_string: str, seed: int) -> Iterator[str]:
    """The lines of one golden playthrough, as written to its file."""
    game = load(game_string)
    state = game.new_initial_state(seed)
    rng = make_rng(seed)
    yield f"game {game.game_string}"
    yield f"seed {seed}"
    yield f"start {_one_line(state.position())}"
    ply = 0
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = state.sample_chance(rng)
            chances = " ".join(f"{a}:{p!r}" for a, p in outcomes)
            head = f"ply {ply} chance outcomes {len(outcomes)} [{chances}]"
        else:
            action = rng.choice(legal)
            head = f"ply {ply} player {player} legal {len(legal)} ids {actions_digest(legal)}"
        text = state.action_to_string(action)
        state.apply_action(action)
        yield f"{head} action {action} {text!r}"
        yield f"  position {_one_line(state.position())}"
        ply += 1
    returns = " ".join(repr(value) for value in state.returns())
    yield f"end plies {ply} returns {returns}"


def golden_text(game_string: str, seed: int) -> str:
    """The full text of a golden file for ``game_string`` and ``seed``."""
    return "\n".join(play_golden(game_string, seed)) + "\n"


def perft_root(game_string: str, seed: int, plies: int) -> State:
    """The state reached from the start by ``plies`` seeded random plies (never the end)."""
    game = load(game_string)
    state = game.new_initial_state(seed)
    rng = make_rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            raise ValueError(f"{game_string} seed {seed} ends before ply {plies}")
        action = (
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
        state.apply_action(action)
    return state


def perft_text(game: str) -> str:
    """The text of ``tests/data/perft/<game>.perft``: roots and counts by depth."""
    blocks = []
    for ident, game_string, seed, plies, depth in PERFT[game]:
        state = perft_root(game_string, seed, plies)
        lines = [
            f"id {ident}",
            f"game {load(game_string).game_string}",
            f"position {_one_line(state.position())}",
        ]
        lines += [f"perft {d} = {perft(state, d)}" for d in range(1, depth + 1)]
        blocks.append("\n".join(lines))
    header = (
        f"# Perft of {game}: move sequences of exactly N plies from each position "
        "(python-chess's style).\n# Written by scripts/gen-golden.py --perft; "
        "checked by tests/contract/test_perft.py.\n"
    )
    return header + "\n" + "\n\n".join(blocks) + "\n"


def main() -> None:
    """Write the golden files (and the perft files with ``--perft``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perft", action="store_true", help="also write the perft files")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
