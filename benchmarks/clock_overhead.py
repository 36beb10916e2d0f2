"""What a clock costs a stored move: the store's batched move writes with and without the clock
row written in the same transaction, in one run, as a ratio.

    .venv/bin/python benchmarks/clock_overhead.py                 # SQLite in a temp folder
    .venv/bin/python benchmarks/clock_overhead.py --postgres URL  # a scratch PostgreSQL database

Each round stores ``--plies`` batches of one move for each of ``--matches`` matches (as the
server's group committer batches concurrent matches), first unclocked, then clocked; the
median of ``--rounds`` rounds is printed per kind, with clocked / plain.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import timedelta

from sqlalchemy import create_engine, text

from gameshelf.server.clock import Clock, TimeControl
from gameshelf.server.store import (
    ClockWrite,
    PendingChange,
    SeatInfo,
    Store,
    StoredMove,
    utcnow,
)

SEATS = [SeatInfo(0, "human", None, None, "a"), SeatInfo(1, "human", None, None, "b")]
CONTROL = TimeControl("realtime", initial_ms=300_000, increment_ms=2_000)


def store_moves(url: str, clocked: bool, matches: int, plies: int) -> float:
    """Seconds to store ``plies`` batches of ``matches`` moves in a fresh database at ``url``."""
    store = Store(url)
    ids = [f"{index:016x}" for index in range(matches)]
    fresh = Clock.new(CONTROL, (True, True))
    for match_id in ids:
        store.create_match(match_id, "cage", 1, SEATS, clock=fresh if clocked else None)
    clock = fresh.start(utcnow(), None)
    written = ClockWrite(clock, utcnow() + timedelta(minutes=5))
    start = time.perf_counter()
    for ply in range(plies):
        batch = [
            PendingChange(
                match_id,
                ply + 1,
                "running",
                move=StoredMove(ply, ply % 2, ply, f"m{ply}"),
                clock=written if clocked else None,
            )
            for match_id in ids
        ]
        store.write_changes(batch)
    took = time.perf_counter() - start
    store.close()
    return took


def scratch_postgres(base: str, index: int) -> str:
    """A new, empty database next to ``base`` (dropped by the operator, or with its server)."""
    name = f"gameshelf_clock_bench_{int(time.time())}_{index}"
    engine = create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    """Parse the arguments, run the rounds, print the medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--postgres", help="a PostgreSQL URL whose server may create databases")
    args = parser.parse_args()
    times: dict[bool, list[float]] = {False: [], True: []}
    made = 0
    for _ in range(args.rounds):
        for clocked in (False, True):
            with tempfile.TemporaryDirectory() as folder:
                if args.postgres:
                    made += 1
                    url = scratch_postgres(args.postgres, made)
                else:
                    url = f"sqlite:///{folder}/bench.sqlite3"
                times[clocked].append(store_moves(url, clocked, args.matches, args.plies))
    plain, timed = statistics.median(times[False]), statistics.median(times[True])
    moves = args.matches * args.plies
    kind = "postgresql" if args.postgres else "sqlite"
    print(
        f"{kind}: {moves} moves in batches of {args.matches}: plain {plain:.3f} s, "
        f"clocked {timed:.3f} s, clocked / plain {timed / plain:.2f}"
    )


if __name__ == "__main__":
    main()
