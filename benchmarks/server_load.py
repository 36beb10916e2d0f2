"""Load benchmark of the game server: N concurrent matches played over WebSockets on loopback.

Starts `gameshelf serve` in its own process on a fresh SQLite (or --database-url) database,
creates N two-seat matches, and drives each with one client holding both seats that plays
random legal moves as fast as the server acknowledges them. Reports matches held, moves/s,
move round-trip latency percentiles (send → acknowledged state, measured at the client, so an
upper bound of the server-side time) and errors.

    .venv/bin/python benchmarks/server_load.py --matches 200 --seconds 20 [--json out.json]

With ``--processes N`` (N > 1, PostgreSQL only) it starts N server processes on the database
and Debian's nginx in front of them with the shipped site file
(``src/gameshelf/server/nginx-gameshelf.conf``), and the clients go through the proxy:

    .venv/bin/python benchmarks/server_load.py --processes 3 --matches 1000 \
        --database-url postgresql+psycopg://postgres:gameshelf@127.0.0.1:5432/gameshelf_load
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


@dataclass
class Tally:
    """What the clients saw."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    held: int = 0
    finished: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(url: str, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gameshelf.cli.main",
            "serve",
            "--port",
            str(port),
            "--database-url",
            url,
            "--log-level",
            "warning",
            "--bot-workers",
            "0",
            # every client of the load test comes from one address: lift the per-address limits
            "--creates-per-minute",
            "1000000",
            "--joins-per-minute",
            "1000000",
            "--sockets-per-address",
            "100000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def start_proxy(folder: Path, ports: list[int]) -> tuple[subprocess.Popen[bytes], int]:
    """Debian's nginx with the shipped site file in front of ``ports``; (process, its port)."""
    from gameshelf.server.proxy import nginx_conf

    listen = free_port()
    conf = nginx_conf(folder, listen, ports)
    process = subprocess.Popen(["nginx", "-c", str(conf)], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{listen}/healthz", timeout=1).status_code == 200:
                return process, listen
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("nginx did not start (apt-get install nginx)")


async def create_matches(
    base: str, count: int, game: str, first_seed: int = 0
) -> list[tuple[str, list[str]]]:
    """Create ``count`` two-seat matches and take both seats of each."""
    matches = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for index in range(count):
            created = await http.post(
                "/api/matches",
                json={"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "seed": index},
            )
            match_id = created.json()["id"]
            tokens = [
                (await http.post(f"/api/matches/{match_id}/join", json={})).json()["token"]
                for _ in range(2)
            ]
            matches.append((match_id, tokens))
    return matches


async def drive(
    base: str,
    match: tuple[str, list[str]],
    game: str,
    deadline: list[float],
    tally: Tally,
    start: asyncio.Event,
    seed: int,
    think: float = 0.0,
) -> None:
    """One client holding both seats: random moves, one at a time; a new match when one ends."""
    rng = random.Random(seed)
    first = True
    while time.monotonic() < deadline[0]:
        if not first:
            match = (await create_matches(base, 1, game, seed))[0]
        await play_match(base, match, deadline, tally, start, rng, first, think)
        first = False


async def play_match(
    base: str,
    match: tuple[str, list[str]],
    deadline: list[float],
    tally: Tally,
    start: asyncio.Event,
    rng: random.Random,
    count_held: bool,
    think: float = 0.0,
) -> None:
    """Play one match over its own connection until it ends or time is up."""
    match_id, tokens = match
    url = base.replace("http://", "ws://") + f"/ws/matches/{match_id}"
    async with connect(url, max_size=2**20) as socket_:
        await socket_.send(json.dumps({"type": "hello", "tokens": tokens}))
        state: dict[str, Any] = {}
        while state.get("type") != "state":
            state = json.loads(await socket_.recv())
        if count_held:
            tally.held += 1
        await start.wait()
        request = 0
        while time.monotonic() < deadline[0] and state["status"] == "running":
            seat = state["to_move"]
            move = rng.choice(state["seats"][str(seat)]["legal_moves"])
            if think > 0:  # a player's thinking time, jittered so clients do not move in step
                await asyncio.sleep(think * (0.5 + rng.random()))
            request += 1
            sent = time.perf_counter()
            await socket_.send(
                json.dumps(
                    {
                        "type": "move",
                        "seat": seat,
                        "move": move,
                        "version": state["version"],
                        "id": request,
                    }
                )
            )
            while True:
                reply = json.loads(await socket_.recv())
                if reply.get("ack") == request or reply.get("id") == request:
                    break
            if reply["type"] == "error":
                tally.error(reply["code"])
                await socket_.send(json.dumps({"type": "sync", "id": -request}))
                while reply.get("ack") != -request:
                    reply = json.loads(await socket_.recv())
            else:
                tally.latencies.append(time.perf_counter() - sent)
            state = reply
        if state["status"] == "finished":
            tally.finished += 1


async def run(
    base: str, matches: int, seconds: float, game: str, think: float = 0.0
) -> dict[str, Any]:
    """Hold ``matches`` matches at once for ``seconds`` and tally what the clients saw."""
    created = await create_matches(base, matches, game)
    tally = Tally()
    start = asyncio.Event()
    deadline = [float("inf")]
    tasks = [
        asyncio.create_task(drive(base, match, game, deadline, tally, start, index, think))
        for index, match in enumerate(created)
    ]
    while tally.held < matches:
        await asyncio.sleep(0.05)
        if any(task.done() and task.exception() for task in tasks):
            break
    began = time.monotonic()
    deadline[0] = began + seconds  # every client starts and stops at the same moment
    start.set()
    await asyncio.sleep(seconds)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - began
    crashed = sum(1 for r in results if isinstance(r, Exception))
    kinds = sorted({f"{type(r).__name__}: {r}"[:120] for r in results if isinstance(r, Exception)})
    lat = sorted(tally.latencies)

    def pick(quantile: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(quantile * len(lat)))] if lat else float("nan")

    return {
        "game": game,
        "matches": matches,
        "think_s": think,
        "matches_held": tally.held,
        "seconds": round(elapsed, 1),
        "moves": len(lat),
        "moves_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(pick(0.50), 2),
        "p99_ms": round(pick(0.99), 2),
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "errors": tally.errors,
        "client_crashes": crashed,
        "crash_kinds": kinds[:5],
        "games_finished": tally.finished,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--game", default="cage(max_plies=2000,repetition_draw=0,continue_after_last_drop=true)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a client waits before each move (0 = flat out, saturating)",
    )
    parser.add_argument("--database-url")
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes behind nginx (PostgreSQL)"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.processes > 1 and not (args.database_url or "").startswith("postgresql"):
        raise SystemExit("--processes needs --database-url postgresql+psycopg://…")
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{os.path.join(folder, 'load.sqlite3')}"
        ports = [free_port() for _ in range(args.processes)]
        servers = [start_server(url, ports[0])]  # the first one migrates the database
        servers += [start_server(url, port) for port in ports[1:]]
        proxy = start_proxy(Path(folder), ports) if args.processes > 1 else None
        base = f"http://127.0.0.1:{proxy[1] if proxy else ports[0]}"
        try:
            figures = asyncio.run(run(base, args.matches, args.seconds, args.game, args.think))
        finally:
            if proxy is not None:
                proxy[0].kill()
            for server in servers:
                server.kill()
                server.wait()
    figures["database"] = "sqlite" if url.startswith("sqlite") else url.split(":", 1)[0]
    figures["processes"] = args.processes
    print(json.dumps(figures, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)


if __name__ == "__main__":
    main()
