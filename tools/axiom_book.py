"""Rebuild the Axiom opening book (``src/gameshelf/agents/data/axiom_book.json``).

    .venv/bin/python -m tools.axiom_book [--seconds 12] [--replies 3] [--plies 5] \
        [--jobs 2] [--seats 1] [--out FILE]

Each position of the book's tree (:mod:`gameshelf.agents.axiom.book` describes the tree and
reads the book) is searched for ``--seconds`` by the Axiom search, in parallel. About 50
positions at the defaults: 6 minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gameshelf.agents.axiom.book import BOOK_GAME, BOOK_PATH, BOOK_SEATS, BOOK_SECONDS, book_key
from gameshelf.agents.axiom.search import AxiomSearchAgent
from gameshelf.core.registry import load


def _analyse(job: tuple[tuple[int, ...], float, int]) -> tuple[tuple[int, ...], list[int], str]:
    """Search the position after ``actions``: (actions, its ``top`` best moves, best as text)."""
    actions, seconds, top = job
    game = load(BOOK_GAME)
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    agent = AxiomSearchAgent(game, seed=0, time_limit=seconds)
    found = agent.analyse(state, seconds, top)
    return actions, [m.action for m in found], found[0].text


def build(
    seconds: float = BOOK_SECONDS,
    replies: int = 3,
    plies: int = 5,
    jobs: int = 2,
    progress: Callable[[int, int], None] | None = None,
    seats: tuple[int, ...] = BOOK_SEATS,
) -> dict[str, Any]:
    """Search the book's tree (see the module docstring) for the book's ``seats`` up to
    ``plies`` plies from the start; the book as the JSON object
    :func:`~gameshelf.agents.axiom.book.load_book` reads."""
    positions: dict[str, str] = {}
    # a frontier entry: the moves from the start, and the seat the book plays in that half
    frontier: list[tuple[tuple[int, ...], int]] = [((), seat) for seat in seats]
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for ply in range(plies + 1):
            if ply == plies:  # the last ply: only the book's own moves are wanted
                frontier = [(a, seat) for a, seat in frontier if len(a) % 2 == seat]
            wanted = sorted({actions for actions, _ in frontier})
            results = {
                actions: (top, best)
                for actions, top, best in pool.map(
                    _analyse, [(actions, seconds, replies) for actions in wanted]
                )
            }
            done += len(wanted)
            if progress:
                progress(ply, done)
            game = load(BOOK_GAME)
            following: list[tuple[tuple[int, ...], int]] = []
            for actions, seat in frontier:
                top, best = results[actions]
                state = game.new_initial_state()
                for action in actions:
                    state.apply_action(action)
                mine = state.current_player() == seat
                if mine:
                    positions[book_key(state)] = best
                for action in top[:1] if mine else top:
                    child = state.clone()
                    child.apply_action(action)
                    if not child.is_terminal():
                        following.append(((*actions, action), seat))
            frontier = following
    return {
        "format": "gameshelf-axiom-book",
        "game": BOOK_GAME,
        "seconds": seconds,
        "replies": replies,
        "plies": plies,
        "seats": list(seats),
        "positions": dict(sorted(positions.items())),
    }


def main(argv: list[str] | None = None) -> int:
    """Build the book with the command line's settings and write it."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=BOOK_SECONDS)
    parser.add_argument("--replies", type=int, default=3)
    parser.add_argument("--plies", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--seats",
        default=",".join(map(str, BOOK_SEATS)),
        help="seats the book plays, 0 = first player (default: %(default)s)",
    )
    parser.add_argument("--out", default=str(BOOK_PATH))
    args = parser.parse_args(argv)
    start = time.monotonic()

    def progress(ply: int, done: int) -> None:
        print(
            f"ply {ply}: {done} positions searched, {time.monotonic() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    seats = tuple(int(seat) for seat in args.seats.split(",") if seat.isdigit())
    if not seats or len(seats) != len(args.seats.split(",")) or set(seats) - {0, 1}:
        parser.error(f"--seats must name seats 0 and/or 1, got {args.seats!r}")
    book = build(args.seconds, args.replies, args.plies, args.jobs, progress, seats)
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(book, out, indent=1)
        out.write("\n")
    print(f"{len(book['positions'])} book positions written to {args.out}")
    return 0


if __name__ == "__main__":
    # Run as the module tools.axiom_book, not as __main__: the process pool's workers find
    # the search function by its module's name.
    from tools import axiom_book

    raise SystemExit(axiom_book.main())
