"""``gameshelf learn cage``: AlphaZero-style self-play training (``gameshelf.learn``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

import gameshelf.learn as _learn  # registers the master bot for every command
from gameshelf.core.errors import GameshelfError
from gameshelf.extras import missing_extra

GAMES = ("cage",)
"""Games with a training loop: the two-player Cage (Axiom: docs/learning.md says what it needs)."""


def add_learn_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``learn GAME --steps N [--workers K] [--resume] [--address A] [--out DIR]``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "learn",
        help="train the master level's network by self-play (JAX, mctx, Ray)",
        description=(
            "Self-play workers (Ray actors) play batches of games with mctx's Gumbel search "
            "guided by the network; the learner trains it with optax. --out gets "
            "checkpoint.npz (for --resume), weights.npz (what master loads), curve.png "
            "(score against the evaluation bots by step) and summary.json."
        ),
    )
    parser.add_argument("game", help="the game to learn: cage (two players)")
    parser.add_argument("--steps", type=int, default=1000, help="training steps in all")
    parser.add_argument("--workers", type=int, default=1, help="self-play workers (default 1)")
    parser.add_argument("--resume", action="store_true", help="go on from --out's checkpoint")
    parser.add_argument("--address", default=None, help="Ray cluster address (default: local)")
    parser.add_argument("--out", type=Path, default=Path("out/learn/cage"), help="the run's folder")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    tuning = parser.add_argument_group("tuning (a resumed run keeps its own)")
    tuning.add_argument("--games-per-worker", type=int, default=64, help="games each plays")
    tuning.add_argument("--simulations", type=int, default=32, help="search per self-play move")
    tuning.add_argument("--batch-size", type=int, default=256, help="samples per step")
    tuning.add_argument("--hidden", type=int, default=128, help="network width")
    tuning.add_argument("--blocks", type=int, default=3, help="residual layers")
    tuning.add_argument("--eval-every", type=int, default=200, help="steps between curve points")
    tuning.add_argument("--eval-games", type=int, default=4, help="games a curve point")
    tuning.add_argument(
        "--eval-against",
        default="greedy,hard@0.25",
        help="curve opponents, NAME or NAME@SECONDS (default greedy,hard@0.25)",
    )
    tuning.add_argument("--eval-simulations", type=int, default=64, help="master's search there")
    tuning.add_argument("--checkpoint-every", type=int, default=200, help="steps between saves")
    parser.set_defaults(func=learn_command)
    return parser


POSITIVE = (
    "games_per_worker",
    "simulations",
    "batch_size",
    "hidden",
    "eval_every",
    "eval_simulations",
    "checkpoint_every",
)
"""Tuning options that must be at least 1."""


def _settings(args: argparse.Namespace) -> Any:
    from gameshelf.learn.loop import RunSettings
    from gameshelf.learn.network import NetConfig
    from gameshelf.learn.selfplay import SearchConfig
    from gameshelf.learn.train import TrainConfig

    for name in POSITIVE:
        if getattr(args, name) < 1:
            flag = "--" + name.replace("_", "-")
            raise GameshelfError(f"{flag} must be at least 1, not {getattr(args, name)}")
    opponents = tuple(name.strip() for name in args.eval_against.split(",") if name.strip())
    return RunSettings(
        net=NetConfig(2, args.hidden, args.blocks),
        train=TrainConfig(batch_size=args.batch_size),
        search=SearchConfig(args.simulations, min(16, args.simulations)),
        games_per_worker=args.games_per_worker,
        eval_every=args.eval_every,
        eval_games=max(0, args.eval_games),
        eval_opponents=opponents,
        eval_simulations=args.eval_simulations,
        checkpoint_every=args.checkpoint_every,
        seed=args.seed,
    )


def learn_command(args: argparse.Namespace, stream: TextIO | None = None) -> int:
    """Handler of ``gameshelf learn``."""
    if args.game not in GAMES:
        raise GameshelfError(
            f"learn knows {', '.join(GAMES)}, not {args.game!r} (docs/learning.md: Axiom and "
            "three or four Cage players are not trained yet)"
        )
    try:
        from gameshelf.learn.loop import Run
    except ImportError as error:
        missing_extra("gameshelf learn", _learn.level.EXTRA, error)
    try:
        run = Run(
            args.out,
            args.steps,
            workers=args.workers,
            settings=None if args.resume else _settings(args),
            resume=args.resume,
            address=args.address,
        )
    except ValueError as error:
        raise GameshelfError(str(error)) from None
    out = stream or sys.stderr
    bar = None if args.quiet else ProgressBar(out)
    summary = run.go(bar)
    done = summary["this_session"]
    print(
        f"learn: step {summary['step']}, {summary['games']} self-play games; "
        f"{done['steps']} steps in {done['seconds']} s; results in {args.out}",
        file=out,
    )
    return 0


class ProgressBar:
    """A one-line progress bar (redrawn in place on a terminal, else every tenth)."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.interactive = stream.isatty()
        self.shown = -1

    def __call__(self, progress: Any) -> None:
        """Show a :class:`gameshelf.learn.loop.Progress`."""
        step, steps = progress.step, progress.steps
        filled = self.width * step // steps
        loss = "" if progress.loss is None else f", loss {progress.loss:.3f}"
        line = (
            f"[{'#' * filled}{'.' * (self.width - filled)}] {step}/{steps} steps, "
            f"{progress.games} games{loss}"
        )
        tenth = step * 10 // steps
        if self.interactive:
            self.stream.write("\r" + line + ("\n" if step == steps else ""))
        elif tenth != self.shown:
            self.stream.write(line + "\n")
            self.shown = tenth
        self.stream.flush()
