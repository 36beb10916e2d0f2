"""``gameshelf learn GAME``: AlphaZero-style self-play training (``gameshelf.learn``).

The games it can learn, and each one's default settings, are their learning recipes
(:mod:`gameshelf.learn.recipe`); nothing here names a game.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from gameshelf.agents.catalogue import check_agent
from gameshelf.agents.levels import split_think
from gameshelf.core.errors import GameshelfError
from gameshelf.core.registry import load
from gameshelf.extras import missing_extra
from gameshelf.learn.level import EXTRA
from gameshelf.learn.recipe import Recipe, is_default_table, recipe_named, recipe_names
from gameshelf.learn.settings import NetConfig, Progress, RunSettings


def add_learn_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``learn GAME [--players P] --steps N [--workers K] [--resume] [--address A]
    [--out DIR]``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "learn",
        help="train the master level's network by self-play (JAX, mctx, Ray)",
        description=(
            "Self-play workers (Ray actors) play batches of games with a search guided by the "
            "network; the learner trains it with optax. --out gets "
            "checkpoint.npz (for --resume), weights.npz (what master loads), curve.png "
            "(score against the evaluation bots by step) and summary.json."
        ),
    )
    # named from the entry points: loading a recipe may need the learn extra's NumPy
    parser.add_argument("game", help=f"the game to learn: {', '.join(recipe_names())}")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="the table size to learn at, for a game learned at several (default: its first)",
    )
    parser.add_argument("--steps", type=int, default=1000, help="training steps in all")
    parser.add_argument("--workers", type=int, default=1, help="self-play workers (default 1)")
    parser.add_argument("--resume", action="store_true", help="go on from --out's checkpoint")
    parser.add_argument("--address", default=None, help="Ray cluster address (default: local)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="the run's folder (default out/learn/GAME, GAME-P at P players not the default)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    tuning = parser.add_argument_group(
        "tuning (defaults: the game's own, 'gameshelf learn GAME --show-settings'; a resumed "
        "run keeps its own)"
    )
    for flag, text in TUNING.items():
        tuning.add_argument(flag, type=int, default=None, help=text)
    tuning.add_argument(
        "--eval-against", default=None, help="curve opponents, NAME or NAME@SECONDS, by commas"
    )
    tuning.add_argument(
        "--show-settings", action="store_true", help="print the settings a new run would use"
    )
    parser.set_defaults(func=learn_command)
    return parser


TUNING = {
    "--games-per-worker": "games each worker keeps going",
    "--simulations": "search simulations a self-play move",
    "--batch-size": "samples a training step",
    "--hidden": "network width",
    "--blocks": "residual layers",
    "--eval-every": "steps between curve points",
    "--eval-games": "games a curve point (0: no curve)",
    "--eval-simulations": "master's simulations in them",
    "--checkpoint-every": "steps between checkpoints",
}
"""The integer tuning options and what each sets."""


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


def _option(args: argparse.Namespace, name: str, default: int) -> int:
    """An integer tuning option as given, else the game's default."""
    value = getattr(args, name)
    return default if value is None else int(value)


def _settings(args: argparse.Namespace, recipe: Recipe) -> RunSettings:
    """The settings of a new run: the game's defaults with the options given, every option
    checked before anything starts."""
    base = recipe.defaults
    for name in POSITIVE:
        value = getattr(args, name)
        if value is not None and value < 1:
            flag = "--" + name.replace("_", "-")
            raise GameshelfError(f"{flag} must be at least 1, not {value}")
    if args.eval_games is not None and args.eval_games < 0:
        raise GameshelfError(f"--eval-games must be 0 or more, not {args.eval_games}")
    eval_games = _option(args, "eval_games", base.eval_games)
    opponents = base.eval_opponents
    if args.eval_against is not None:
        opponents = tuple(name.strip() for name in args.eval_against.split(",") if name.strip())
    if not opponents and eval_games:
        raise GameshelfError("--eval-against names no bot (or give --eval-games 0)")
    for opponent in opponents:
        check_agent(split_think(opponent)[0], load(recipe.game))
    simulations = _option(args, "simulations", base.search.simulations)
    return replace(
        base,
        net=NetConfig(
            recipe.players,
            _option(args, "hidden", base.net.hidden),
            _option(args, "blocks", base.net.blocks),
        ),
        train=replace(base.train, batch_size=_option(args, "batch_size", base.train.batch_size)),
        search=replace(
            base.search,
            simulations=simulations,
            considered=min(base.search.considered, simulations),
        ),
        games_per_worker=_option(args, "games_per_worker", base.games_per_worker),
        eval_every=_option(args, "eval_every", base.eval_every),
        eval_games=eval_games,
        eval_opponents=opponents,
        eval_simulations=_option(args, "eval_simulations", base.eval_simulations),
        checkpoint_every=_option(args, "checkpoint_every", base.checkpoint_every),
        seed=args.seed,
    )


def learn_command(args: argparse.Namespace, stream: TextIO | None = None) -> int:
    """Handler of ``gameshelf learn``."""
    recipe = recipe_named(args.game, args.players)
    out = stream or sys.stderr
    settings = None if args.resume else _settings(args, recipe)
    if args.show_settings:
        print(json.dumps((settings or recipe.defaults).to_json(), indent=2), file=out)
        return 0
    try:
        from gameshelf.learn.loop import Run
    except ImportError as error:
        missing_extra("gameshelf learn", EXTRA, error)
    folder = args.out or Path("out/learn") / _folder_name(recipe)
    run = Run(
        recipe.name,
        folder,
        args.steps,
        workers=args.workers,
        settings=settings,
        resume=args.resume,
        address=args.address,
        players=args.players,
    )
    bar = None if args.quiet else ProgressBar(out)
    summary = run.go(bar)
    done = summary["this_session"]
    print(
        f"learn: step {summary['step']}, {summary['games']} self-play games; "
        f"{done['steps']} steps in {done['seconds']} s, "
        f"{done['positions_per_worker_second']} self-play positions/s a worker; "
        f"results in {folder}",
        file=out,
    )
    return 0


def _folder_name(recipe: Recipe) -> str:
    """The default run folder's name: the game's, and the players where they are not its
    default table's."""
    return recipe.name if is_default_table(recipe) else f"{recipe.name}-{recipe.players}"


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
