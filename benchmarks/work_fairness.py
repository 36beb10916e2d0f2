"""Does one abusive address delay another player's bot? Live bot answer latency, quiet and with
an address saturating hints and analyses.

Starts the server in this process (a spawned pool of ``--workers`` bot workers, SQLite, the
default per-address limits except creates and joins, which only the set-up needs). A *victim*
plays random moves against a bot thinking ``--think`` seconds a move and times each bot answer
(its move sent → its turn again). First alone, then while an *abuser* on another loopback
address (127.0.0.2) keeps ``--abusers`` hint and analysis requests in flight, retrying whatever
is refused, on finished bots-only matches and on its own matches against bots.

    .venv/bin/python benchmarks/work_fairness.py [--answers 30] [--json out.json]

Reports p50/p99/max of the bot answers in each phase, their ratio, and how the abuser's
requests fared. The figures and their conditions: docs/decisions (the scheduler's record).
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import tempfile
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

import gameshelf
from gameshelf.server import create_app
from gameshelf.server.bots import choose_bot_action
from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.settings import ServerSettings
from gameshelf.server.threaded import ThreadedServer

GAME = "cage"
ABUSER_ADDRESS = "127.0.0.2"  # Linux answers all of 127/8 on loopback: a second client address


def warm_pool(app: Any, workers: int) -> None:
    """Start every worker process and load the bots in each (a spawned worker starts on first
    need and imports the engines on its first task: seconds that would land on one answer)."""
    snapshot = pickle.dumps(gameshelf.load(GAME).new_initial_state())
    executor = app.state.hub.executor
    jobs = [
        executor.submit(choose_bot_action, snapshot, "hard", seed, 0.5) for seed in range(workers)
    ]
    for job in jobs:
        job.result()


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def finished_matches(lobby: Lobby, count: int) -> list[str]:
    """``count`` finished bots-only matches (random bots) for the abuser to ask analyses of."""
    ids = [
        lobby.create(GAME, [{"kind": "bot", "agent": "random"}] * 2, seed=s)["id"]
        for s in range(count)
    ]
    for match in ids:
        while lobby.match(match)["status"] != "finished":
            time.sleep(0.05)
    return ids


def hint_matches(lobby: Lobby, count: int) -> list[tuple[str, str]]:
    """``count`` matches where the abuser's seat (1) is to move after a random bot's opening:
    each a different position, so no two hints are the same question."""
    seats = [{"kind": "bot", "agent": "random"}, {"kind": "human"}]
    found = []
    for seed in range(count):
        match = lobby.create(GAME, seats, seed=100 + seed)["id"]
        found.append((match, lobby.join(match, 1)["token"]))
    return found


def abuse(
    url: str,
    finished: list[str],
    hints: list[tuple[str, str]],
    stop: threading.Event,
    outcomes: Counter[str],
    seed: int,
) -> None:
    """One of the abuser's request loops: hints and analyses, one after the other, refusals
    retried at once (a hostile client does not back off)."""
    rng = random.Random(seed)
    transport = httpx.HTTPTransport(local_address=ABUSER_ADDRESS)
    with httpx.Client(base_url=url, transport=transport, timeout=120) as http:
        while not stop.is_set():
            if rng.random() < 0.5:
                match, token = rng.choice(hints)
                reply = http.post(f"/api/matches/{match}/hint", json={"token": token})
                kind = "hint"
            else:
                reply = http.get(f"/api/matches/{rng.choice(finished)}/analysis")
                kind = "analysis"
            code = "ok" if reply.is_success else reply.json()["error"]["code"]
            outcomes[f"{kind} {code}"] += 1
            if not reply.is_success:
                stop.wait(0.05)  # a refusal is instant: do not spin the event loop flat out


def bot_answers(url: str, lobby: Lobby, agent: str, count: int, seed: int) -> list[float]:
    """Seconds from each of the victim's moves to its turn again, over ``count`` bot answers
    (a new match whenever one ends)."""
    rng = random.Random(seed)
    answers: list[float] = []
    while len(answers) < count:
        match = lobby.create(GAME, [{"kind": "human"}, {"kind": "bot", "agent": agent}])["id"]
        token = lobby.join(match, 0)["token"]
        with SeatClient(url, match, [token], timeout=120) as table:
            state = table.wait_for_turn(0)
            while state["status"] != "finished" and len(answers) < count:
                moves = state["seats"]["0"]["legal_moves"]
                sent = time.perf_counter()
                table.move(0, rng.choice(moves))
                state = table.wait_for_turn(0)
                if state["status"] != "finished":
                    answers.append(time.perf_counter() - sent)
    return answers


def summary(answers: list[float]) -> dict[str, float]:
    """p50, p90, p99 and max in milliseconds."""
    return {
        "p50_ms": round(statistics.median(answers) * 1000, 1),
        "p90_ms": round(percentile(answers, 0.90) * 1000, 1),
        "p99_ms": round(percentile(answers, 0.99) * 1000, 1),
        "max_ms": round(max(answers) * 1000, 1),
    }


def main() -> None:
    """Run both phases and print (and optionally save) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--answers", type=int, default=30, help="bot answers timed per phase")
    parser.add_argument("--think", type=float, default=0.3, help="the victim's bot, s a move")
    parser.add_argument("--workers", type=int, default=2, help="bot worker processes")
    parser.add_argument("--abusers", type=int, default=16, help="abuser requests in flight")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    settings = replace(ServerSettings(), creates_per_minute=1e6, joins_per_minute=1e6)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/bench.sqlite3", args.workers, settings)
        server = ThreadedServer(app)
        warm_pool(app, args.workers)
        lobby = Lobby(server.url, timeout=120)
        try:
            finished = finished_matches(lobby, 8)
            hints = hint_matches(lobby, 8)
            agent = f"hard@{args.think:g}"
            quiet = bot_answers(server.url, lobby, agent, args.answers, seed=1)
            stop = threading.Event()
            outcomes: Counter[str] = Counter()
            threads = [
                threading.Thread(
                    target=abuse, args=(server.url, finished, hints, stop, outcomes, i)
                )
                for i in range(args.abusers)
            ]
            for thread in threads:
                thread.start()
            abused = bot_answers(server.url, lobby, agent, args.answers, seed=2)
            stop.set()
            for thread in threads:
                thread.join()
        finally:
            lobby.close()
            server.stop()
    quiet_s, abused_s = summary(quiet), summary(abused)
    figures = {
        "think_s": args.think,
        "workers": args.workers,
        "abusers": args.abusers,
        "quiet": quiet_s,
        "abused": abused_s,
        "p99_ratio": round(abused_s["p99_ms"] / quiet_s["p99_ms"], 2),
        "abuser_outcomes": dict(sorted(outcomes.items())),
    }
    print(json.dumps(figures, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
