"""The command line of the learning tools (``python -m tools.learn.axiom``,
``python -m tools.learn.cage``): ``train`` plays self-play games, fits the weights and writes
them with how they were made; ``duel`` plays weights against weights (or the hand-written
evaluation) on equal node budgets from the same random openings."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameshelf.arena.tournament import text_progress

from .common import run_jobs


@dataclass(frozen=True)
class Learner:
    """One learned evaluation, as its tool's commands need it."""

    self_play: Callable[[tuple[Any, ...]], list[Any]]
    """``(index, nodes, opening plies, weights)`` -> the game's rows."""
    fit: Callable[[list[Any]], Any]
    """Rows -> a fit with ``positions`` and ``cross_entropy``."""
    record: Callable[[Any], tuple[dict[str, Any], dict[str, Any]]]
    """A fit -> the weights file's ``weights`` object and its own ``trained`` facts."""
    duel: Callable[[tuple[Any, ...]], float]
    """``(index, nodes, opening plies, mine, theirs)`` -> mine's result (1, 0.5, 0)."""
    load_weights: Callable[[Path], Any]
    hand: Any
    """What ``hand`` names: the hand-written weights (or ``None`` where they are no weights)."""
    learned: Path
    """The shipped weights file (``train --out`` and ``duel --weights`` default to it)."""
    train_games: int
    train_nodes: int
    duel_nodes: int

    def weights_named(self, name: str) -> Any:
        """``hand`` or the weights of a file."""
        return self.hand if name == "hand" else self.load_weights(Path(name))


def train(learner: Learner, args: argparse.Namespace) -> int:
    """Self-play, fit, write the weights file and show it."""
    players = learner.weights_named(args.play_weights)
    jobs = [(index, args.nodes, args.opening, players) for index in range(args.games)]
    show = text_progress()
    rows: list[Any] = []
    for done, game_rows in enumerate(run_jobs(learner.self_play, jobs, args.jobs), 1):
        rows.extend(game_rows)
        show(done, len(jobs))
    result = learner.fit(rows)
    weights, facts = learner.record(result)
    trained = {
        "games": args.games,
        "nodes": args.nodes,
        "opening_plies": args.opening,
        "self_play_weights": args.play_weights,
        "positions": result.positions,
        "cross_entropy": round(result.cross_entropy, 4),
        **facts,
    }
    text = json.dumps({"weights": weights, "trained": trained}, indent=2)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"written to {args.out}")
    return 0


def duel(learner: Learner, args: argparse.Namespace) -> int:
    """Play ``args.weights`` against ``args.against`` and say how they scored."""
    mine, theirs = learner.load_weights(args.weights), learner.weights_named(args.against)
    jobs = [(index, args.nodes, args.opening, mine, theirs) for index in range(args.games)]
    show = text_progress()
    score = wins = draws = 0.0
    for done, result in enumerate(run_jobs(learner.duel, jobs, args.jobs), 1):
        score += result
        wins += result == 1.0
        draws += result == 0.5
        show(done, len(jobs))
    games = len(jobs)
    print(
        f"{args.weights} against {args.against}, {args.nodes} nodes a move, {games} games "
        f"from {games // 2} openings: scored {score:g} of {games} "
        f"({100 * score / games:.1f}%): {wins:g} won, {draws:g} drawn, "
        f"{games - wins - draws:g} lost"
    )
    return 0


LEAST = {"games": 1, "nodes": 1, "opening": 0, "jobs": 1}
"""The smallest value of each count option (a duel of no games has no score to show)."""


def check_counts(args: argparse.Namespace) -> None:
    """``ValueError`` naming the first count option below its least value."""
    for name, least in LEAST.items():
        value = getattr(args, name)
        if value < least:
            raise ValueError(f"--{name} must be at least {least}, not {value}")


def learner_main(doc: str, learner: Learner, argv: list[str] | None = None) -> int:
    """``train`` and ``duel`` for ``learner``; a broken weights file or too few positions end it
    with status 2 and the reason."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    learn = sub.add_parser("train", help="self-play, fit, write the weights")
    learn.add_argument("--games", type=int, default=learner.train_games)
    learn.add_argument("--nodes", type=int, default=learner.train_nodes)
    learn.add_argument("--out", type=Path, default=learner.learned)
    learn.add_argument(
        "--play-weights",
        default="hand",
        help="the weights the self-play games are played with: a weights file, or hand (default)",
    )
    learn.set_defaults(func=train)
    match = sub.add_parser("duel", help="learned against other weights at equal nodes")
    match.add_argument("--weights", type=Path, default=learner.learned)
    match.add_argument("--against", default="hand", help="a weights file, or hand (default)")
    match.add_argument("--games", type=int, default=200)
    match.add_argument("--nodes", type=int, default=learner.duel_nodes)
    match.set_defaults(func=duel)
    for command in (learn, match):
        command.add_argument("--opening", type=int, default=4, help="random plies opening a game")
        command.add_argument("--jobs", type=int, default=2, help="games played at once")
    args = parser.parse_args(argv)
    try:
        check_counts(args)
        return int(args.func(learner, args))
    except ValueError as exc:  # a broken weights file, too few positions to fit
        print(f"error: {exc}", file=sys.stderr)
        return 2
