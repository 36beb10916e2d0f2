"""``gameshelf solve`` and ``gameshelf arena``: argparse sub-commands for the main CLI.

The CLI owner wires them in with ``add_solve_parser(subparsers)`` and
``add_arena_parser(subparsers)``; each sets ``func`` to a handler that takes the parsed
arguments and returns an exit code (0 success, 2 bad input).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from gameshelf.core.errors import GameshelfError
from gameshelf.core.registry import load

DEFAULT_SOLVE_PLIES = 12


def add_solve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``solve GAME [--max-plies N] [--position TEXT]``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "solve",
        help="solve a small game exactly within a horizon",
        description=(
            "Exact value for the player to move (win/loss in N plies, draw, or unknown within "
            "the horizon) and the best first moves. Meant for the Cage's analysis variants, "
            "e.g. 'cage(players=2,stock=3:1,continue_after_last_drop=true)'."
        ),
    )
    parser.add_argument("game", help="game string, e.g. 'cage(players=2,stock=3:1)'")
    parser.add_argument(
        "--max-plies",
        type=int,
        default=DEFAULT_SOLVE_PLIES,
        help=f"search horizon in plies (default {DEFAULT_SOLVE_PLIES})",
    )
    parser.add_argument("--position", help="solve this position string instead of the start")
    parser.set_defaults(func=solve_command)
    return parser


def add_arena_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``arena GAME --agents A,B[,C...] --games N [--jobs K] [--backend ...]``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        help="play a seat-rotated round robin between bots and rate them",
        description=(
            "Every table of agents plays --games games with the seats rotated (three or more "
            "players: through every turn order); prints a "
            "results table with openskill ratings; with --out saves every game record, "
            "summary.json, results.md and ratings.png."
        ),
    )
    parser.add_argument("game", help="game string, e.g. cage or 'axia(players=3)'")
    parser.add_argument("--agents", required=True, help="comma-separated agent names")
    parser.add_argument("--games", type=int, default=10, help="games per table (default 10)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--backend", default="local", help="local (processes) or ray")
    parser.add_argument("--address", default=None, help="Ray cluster address (backend ray)")
    parser.add_argument("--out", type=Path, default=None, help="directory for the results")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument(
        "--seating",
        default="all",
        help=(
            "three or more players: every turn order of each table, each rotated through the "
            "seats (all, the default), or the listed order only, rotated (rotate)"
        ),
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    from gameshelf.agents.engine import add_engine_arguments

    add_engine_arguments(parser)
    parser.set_defaults(func=arena_command)
    return parser


def solve_command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Handler of ``gameshelf solve``."""
    from gameshelf.agents.solver import solve

    stream = out or sys.stdout
    try:
        if args.max_plies < 1:
            raise GameshelfError(f"--max-plies must be at least 1, not {args.max_plies}")
        game = load(args.game)
        state = game.state_from_position(args.position) if args.position else None
        result = solve(game, args.max_plies, state)
    except (GameshelfError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stream.write(f"{result.game}: {result.summary()} for the player to move\n")
    label = "best first moves" if result.verdict != "unknown" else "moves not proven lost"
    stream.write(f"{label}: {' '.join(result.best_moves) or '(none)'}\n")
    stream.write(f"searched {result.nodes} nodes in {result.seconds:.2f} s\n")
    return 0


def arena_command(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Handler of ``gameshelf arena``."""
    from .report import chart_missing, report_text
    from .tournament import TournamentConfig, parse_agents, run_tournament, text_progress

    stream = out or sys.stdout
    no_chart = chart_missing() if args.out is not None else None
    if no_chart is not None:  # said before the games, not found out after them
        print(f"arena: {no_chart}; the rest is written", file=sys.stderr)
    try:
        engines = getattr(args, "engine", None) or []
        if engines:
            from gameshelf.agents.engine import register_engines

            if args.backend != "local":
                raise GameshelfError(
                    "--engine runs external programs on this machine: use --backend local"
                )
            register_engines(engines, args.engine_seconds)
        config = TournamentConfig(
            game=args.game,
            agents=parse_agents(args.agents),
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            backend=args.backend,
            address=args.address,
            out=args.out,
            seating=args.seating,
        )
        if config.jobs < 1:
            raise GameshelfError(f"--jobs must be at least 1, not {config.jobs}")
        progress = None if args.quiet else text_progress(sys.stderr)
        result = run_tournament(config, progress)
    except GameshelfError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stream.write(f"{result.game_string}: {len(result.results)} games\n")
    stream.write(report_text(result) + "\n")
    if config.out is not None:
        chart = "" if no_chart is not None else " and ratings.png"
        stream.write(f"records, summary.json, results.md{chart} in {config.out}\n")
        if no_chart is not None:
            stream.write(f"{no_chart}\n")
    return 0
