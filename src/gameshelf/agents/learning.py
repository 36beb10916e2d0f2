"""What the learned evaluations share (Axiom's, :mod:`.axiom_learn`, and the two-player
Cage's, :mod:`.cage_learn`): games in a process pool, the logistic fit, the weights files' term
check, and the ``train`` / ``duel`` command line of their scripts (``scripts/*_learn.py``).

NumPy is needed for the fit only (``pip install 'gameshelf[rl]'``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from gameshelf.core.game import State
from gameshelf.core.registry import load


def run_jobs(func: Callable[[Any], Any], jobs: Sequence[Any], workers: int) -> Iterator[Any]:
    """``func`` over ``jobs`` in ``workers`` processes (in order; one: in this process)."""
    if workers <= 1:
        yield from map(func, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(func, jobs)


def random_opening(game_string: str, seed: int, plies: int) -> State | None:
    """The start of ``game_string`` with ``plies`` uniformly random plies of ``seed`` played
    (``None`` when they end the game): what makes self-play and duel games differ."""
    state = load(game_string).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return None
    return state


def progress(done: int, total: int, what: str) -> None:
    """A progress bar on standard error, ended by a new line when ``done`` reaches ``total``."""
    filled = done * 30 // total
    print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {what}", end="", file=sys.stderr)
    if done == total:
        print(file=sys.stderr)


def newton_logistic(x: Any, y: Any, start: Any, ridge: float) -> Any:
    """The coefficients of a logistic regression of ``y`` (results in [0, 1]) on the rows of
    ``x``: Newton's method from ``start``, with a ridge of ``ridge`` per row."""
    import numpy as np

    beta = np.array(start, dtype=float)
    penalty = ridge * len(y) * np.eye(len(beta))
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ beta)))
        gradient = x.T @ (p - y) + penalty @ beta
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        beta = beta - step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return beta


def check_terms(values: object, terms: Sequence[str], source: str) -> dict[str, Any]:
    """``values`` as a weights mapping with exactly ``terms`` as keys; ``ValueError`` naming
    ``source`` and what is wrong otherwise."""
    if not isinstance(values, dict):
        raise ValueError(f"{source}: no 'weights' object")
    unknown = sorted(set(values) - set(terms))
    missing = [term for term in terms if term not in values]
    if unknown or missing:
        raise ValueError(
            f"{source}: unknown terms {unknown}, missing terms {missing}; "
            f"the terms are {', '.join(terms)}"
        )
    return values


def self_play_rows(job: Callable[[Any], list[Any]], jobs: Sequence[Any], workers: int) -> list[Any]:
    """Every row of the self-play games ``jobs``, with a progress bar."""
    rows: list[Any] = []
    for done, game_rows in enumerate(run_jobs(job, jobs, workers), 1):
        rows.extend(game_rows)
        progress(done, len(jobs), "self-play games")
    return rows


def self_play_jobs(args: argparse.Namespace, players: Any) -> list[tuple[Any, ...]]:
    """The ``train`` command's games: ``(index, nodes, opening plies, players' weights)``."""
    return [(index, args.nodes, args.opening, players) for index in range(args.games)]


def trained_facts(args: argparse.Namespace, positions: int, cross_entropy: float) -> dict[str, Any]:
    """How a ``train`` run made its weights, for the weights file's ``trained`` object."""
    return {
        "games": args.games,
        "nodes": args.nodes,
        "opening_plies": args.opening,
        "self_play_weights": args.play_weights,
        "positions": positions,
        "cross_entropy": round(cross_entropy, 4),
    }


def write_trained(out: Path, data: dict[str, Any]) -> None:
    """Write a weights file ``data`` (weights and how they were trained) and show it."""
    out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2))
    print(f"written to {out}")


def duel_jobs(args: argparse.Namespace, mine: Any, theirs: Any) -> list[tuple[Any, ...]]:
    """The ``duel`` command's games: ``(index, nodes, opening plies, mine, theirs)``."""
    return [(index, args.nodes, args.opening, mine, theirs) for index in range(args.games)]


def duel_report(duel: Callable[[Any], float], jobs: Sequence[Any], args: argparse.Namespace) -> str:
    """Play the duel ``jobs`` (each a result of ``args.weights`` in 1, 0.5, 0) with a progress
    bar and say how the weights scored against ``args.against``."""
    score = wins = draws = 0.0
    for done, result in enumerate(run_jobs(duel, jobs, args.jobs), 1):
        score += result
        wins += result == 1.0
        draws += result == 0.5
        progress(done, len(jobs), f"games, {args.weights.name} {score:g}")
    games = len(jobs)
    losses = games - wins - draws
    return (
        f"{args.weights} against {args.against}, {args.nodes} nodes a move, {games} games "
        f"from {games // 2} openings: scored {score:g} of {games} "
        f"({100 * score / games:.1f}%): {wins:g} won, {draws:g} drawn, {losses:g} lost"
    )


def duel_command(
    duel: Callable[[Any], float],
    load_weights: Callable[[Path], Any],
    weights_named: Callable[[str], Any],
) -> Callable[[argparse.Namespace], int]:
    """The ``duel`` command of a learner: ``args.weights`` (a file) against ``args.against``
    (a file or ``hand``), games played by ``duel``."""

    def command(args: argparse.Namespace) -> int:
        jobs = duel_jobs(args, load_weights(args.weights), weights_named(args.against))
        print(duel_report(duel, jobs, args))
        return 0

    return command


def learner_main(
    doc: str,
    train: Callable[[argparse.Namespace], int],
    duel: Callable[[argparse.Namespace], int],
    learned: Path,
    train_defaults: tuple[int, int],
    duel_nodes: int,
) -> int:
    """The scripts' command line: ``train`` (``--games``, ``--nodes`` as ``train_defaults``,
    ``--opening``, ``--jobs``, ``--out``, ``--play-weights``) and ``duel`` (``--weights``,
    ``--against``, ``--games``, ``--nodes`` ``duel_nodes``, ``--opening``, ``--jobs``); a
    broken weights file or too few positions end it with status 2 and the reason."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    learn = sub.add_parser("train", help="self-play, fit, write the weights")
    learn.add_argument("--games", type=int, default=train_defaults[0])
    learn.add_argument("--nodes", type=int, default=train_defaults[1])
    learn.add_argument("--opening", type=int, default=4)
    learn.add_argument("--jobs", type=int, default=2)
    learn.add_argument("--out", type=Path, default=learned)
    learn.add_argument(
        "--play-weights",
        default="hand",
        help="the weights the self-play games are played with: a weights file, or hand (default)",
    )
    learn.set_defaults(func=train)
    match = sub.add_parser("duel", help="learned against other weights at equal nodes")
    match.add_argument("--weights", type=Path, default=learned)
    match.add_argument("--against", default="hand", help="a weights file, or hand (default)")
    match.add_argument("--games", type=int, default=200)
    match.add_argument("--nodes", type=int, default=duel_nodes)
    match.add_argument("--opening", type=int, default=4)
    match.add_argument("--jobs", type=int, default=2)
    match.set_defaults(func=duel)
    args = parser.parse_args()
    try:
        return int(args.func(args))
    except ValueError as exc:  # a broken weights file, too few positions to fit
        print(f"error: {exc}", file=sys.stderr)
        return 2
