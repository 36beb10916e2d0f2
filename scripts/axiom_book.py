"""Rebuild the Axiom opening book (src/gameshelf/agents/data/axiom_book.json).

    .venv/bin/python scripts/axiom_book.py [--seconds 12] [--replies 3] [--plies 5] \
        [--jobs 2] [--seats 1]

Each position of the book's tree is searched for --seconds by the Axiom search; see
``gameshelf.agents.axiom_book`` for the tree. About 50 positions at the defaults: 6 minutes on
two cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from gameshelf.agents.axiom_book import BOOK_PATH, BOOK_SEATS, BOOK_SECONDS
from gameshelf.agents.axiom_book_build import build


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    args = parser.parse_args()
    start = time.monotonic()

    def progress(ply: int, done: int) -> None:
        print(
            f"ply {ply}: {done} positions searched, {time.monotonic() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    seats = tuple(int(seat) for seat in args.seats.split(","))
    if not seats or any(seat not in (0, 1) for seat in seats):
        parser.error(f"--seats must name seats 0 and/or 1, got {args.seats!r}")
    book = build(args.seconds, args.replies, args.plies, args.jobs, progress, seats)
    with open(args.out, "w") as out:
        json.dump(book, out, indent=1)
        out.write("\n")
    print(f"{len(book['positions'])} book positions written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
