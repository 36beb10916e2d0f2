"""Learn the two-player Cage evaluation's weights from self-play, and measure them.

    .venv/bin/python scripts/cage_learn.py train [--games 600] [--nodes 3000] [--opening 4]
        [--jobs 2] [--out src/gameshelf/agents/data/cage_weights.json] [--play-weights FILE|hand]
    .venv/bin/python scripts/cage_learn.py duel [--weights FILE] [--against FILE|hand]
        [--games 200] [--nodes 12000] [--opening 4] [--jobs 2]

``train`` plays the self-play games of the Cage alpha-beta (``--play-weights``: the
hand-written evaluation by default, or a weights file to iterate from; ``--nodes`` a move, each
game opened by ``--opening`` seeded random plies), fits the weights
(gameshelf.agents.cage_learn) and writes them with how they were made. ``duel`` plays the
weights against others (default: the hand-written evaluation) on equal node budgets from the
same random openings, each opening once with each side first.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gameshelf.agents.cage_eval import LEARNED_PATH, TERMS, CageWeights, load_weights
from gameshelf.agents.cage_learn import duel, fit, run_jobs, self_play_job


def progress(done: int, total: int, what: str) -> None:
    filled = done * 30 // total
    print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {what}", end="", file=sys.stderr)
    if done == total:
        print(file=sys.stderr)


def weights_named(name: str) -> CageWeights | None:
    """``hand`` (None: the hand-written evaluation) or the weights of a file."""
    return None if name == "hand" else load_weights(Path(name))


def train(args: argparse.Namespace) -> int:
    players = weights_named(args.play_weights)
    jobs = [(index, args.nodes, args.opening, players) for index in range(args.games)]
    rows = []
    for done, game_rows in enumerate(run_jobs(self_play_job, jobs, args.jobs), 1):
        rows.extend(game_rows)
        progress(done, len(jobs), "self-play games")
    result = fit(rows)
    data = {
        "weights": dict(zip(TERMS, result.weights.vector(), strict=True)),
        "trained": {
            "games": args.games,
            "nodes": args.nodes,
            "opening_plies": args.opening,
            "self_play_weights": args.play_weights,
            "positions": result.positions,
            "cross_entropy": round(result.cross_entropy, 4),
            "constant_cross_entropy": round(result.constant_cross_entropy, 4),
        },
    }
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2))
    print(f"written to {args.out}")
    return 0


def duel_command(args: argparse.Namespace) -> int:
    mine = load_weights(args.weights)
    theirs = weights_named(args.against)
    jobs = [(index, args.nodes, args.opening, mine, theirs) for index in range(args.games)]
    score = wins = draws = 0.0
    for done, result in enumerate(run_jobs(duel, jobs, args.jobs), 1):
        score += result
        wins += result == 1.0
        draws += result == 0.5
        progress(done, len(jobs), f"games, {args.weights.name} {score:g}")
    losses = args.games - wins - draws
    print(
        f"{args.weights} against {args.against}, {args.nodes} nodes a move, {args.games} games "
        f"from {args.games // 2} openings: scored {score:g} of {args.games} "
        f"({100 * score / args.games:.1f}%): {wins:g} won, {draws:g} drawn, {losses:g} lost"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    learn = sub.add_parser("train", help="self-play, fit, write the weights")
    learn.add_argument("--games", type=int, default=600)
    learn.add_argument("--nodes", type=int, default=3000)
    learn.add_argument("--opening", type=int, default=4)
    learn.add_argument("--jobs", type=int, default=2)
    learn.add_argument("--out", type=Path, default=LEARNED_PATH)
    learn.add_argument(
        "--play-weights",
        default="hand",
        help="the weights the self-play games are played with: a weights file, or hand (default)",
    )
    learn.set_defaults(func=train)
    match = sub.add_parser("duel", help="learned against other weights at equal nodes")
    match.add_argument("--weights", type=Path, default=LEARNED_PATH)
    match.add_argument("--against", default="hand", help="a weights file, or hand (default)")
    match.add_argument("--games", type=int, default=200)
    match.add_argument("--nodes", type=int, default=12000)
    match.add_argument("--opening", type=int, default=4)
    match.add_argument("--jobs", type=int, default=2)
    match.set_defaults(func=duel_command)
    args = parser.parse_args()
    try:
        return int(args.func(args))
    except ValueError as exc:  # a broken weights file, too few positions to fit
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
