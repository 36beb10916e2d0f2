"""``gameshelf learn cage``: AlphaZero-style self-play training (``gameshelf.learn``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from gameshelf.agents.catalogue import check_agent
from gameshelf.agents.levels import split_think
from gameshelf.core.errors import GameshelfError
from gameshelf.core.registry import load
from gameshelf.extras import missing_extra
from gameshelf.learn.level import EXTRA
from gameshelf.learn.settings import NetConfig, Progress, RunSettings, SearchConfig, TrainConfig

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
    default = RunSettings()
    for flag, value, text in (
        ("--games-per-worker", default.games_per_worker, "games each worker keeps going"),
        ("--simulations", default.search.simulations, "search simulations a self-play move"),
        ("--batch-size", default.train.batch_size, "samples a training step"),
        ("--hidden", default.net.hidden, "network width"),
        ("--blocks", default.net.blocks, "residual layers"),
        ("--eval-every", default.eval_every, "steps between curve points"),
        ("--eval-games", default.eval_games, "games a curve point (0: no curve)"),
        ("--eval-simulations", default.eval_simulations, "master's simulations in them"),
        ("--checkpoint-every", default.checkpoint_every, "steps between checkpoints"),
    ):
        tuning.add_argument(flag, type=int, default=value, help=f"{text} (default {value})")
    against = ",".join(default.eval_opponents)
    tuning.add_argument(
        "--eval-against",
        default=against,
        help=f"curve opponents, NAME or NAME@SECONDS (default {against})",
    )
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


def _settings(args: argparse.Namespace) -> RunSettings:
    """The settings of a new run, every option checked before anything starts."""
    for name in POSITIVE:
        if getattr(args, name) < 1:
            flag = "--" + name.replace("_", "-")
            raise GameshelfError(f"{flag} must be at least 1, not {getattr(args, name)}")
    if args.eval_games < 0:
        raise GameshelfError(f"--eval-games must be 0 or more, not {args.eval_games}")
    opponents = tuple(name.strip() for name in args.eval_against.split(",") if name.strip())
    if not opponents and args.eval_games:
        raise GameshelfError("--eval-against names no bot (or give --eval-games 0)")
    for opponent in opponents:
        check_agent(split_think(opponent)[0], load(GAMES[0]))
    return RunSettings(
        net=NetConfig(2, args.hidden, args.blocks),
        train=TrainConfig(batch_size=args.batch_size),
        search=SearchConfig(args.simulations, min(SearchConfig().considered, args.simulations)),
        games_per_worker=args.games_per_worker,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
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
        missing_extra("gameshelf learn", EXTRA, error)
    run = Run(
        args.out,
        args.steps,
        workers=args.workers,
        settings=None if args.resume else _settings(args),
        resume=args.resume,
        address=args.address,
    )
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
        self.last: Progress | None = None

    def __call__(self, progress: Progress) -> None:
        """Show where the run stands (each state once: the loop may report one twice)."""
        if progress == self.last:
            return
        self.last = progress
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
