"""Helpers the server tests share: a server in its own process, and waiting for a condition."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from openskill.models import PlackettLuce

from gameshelf.server.accounts import AccountStore
from gameshelf.server.client import SeatClient
from gameshelf.server.ratings import placements
from gameshelf.server.settings import ServerSettings
from gameshelf.server.store import SeatInfo, Store

if TYPE_CHECKING:
    from .conftest import RunningServer

GENEROUS = ServerSettings(
    creates_per_minute=1e6, joins_per_minute=1e6, replays_per_minute=1e6, sockets_per_address=10_000
)
"""Most tests create many matches from one address; the limits have tests of their own."""


def wait_until(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    """Poll ``check`` until it returns something true (the condition is the event waited on;
    the timeout only ends a test that would otherwise hang)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("the condition did not come true in time")


def wait_serving(base: str, process: subprocess.Popen[bytes]) -> None:
    """Wait until the server at ``base`` answers its health check; fails at once if its
    process has died (the 60 s only end a test whose server never comes up)."""

    def healthy() -> bool:
        assert process.poll() is None, f"the server process for {base} died at start"
        try:
            return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    wait_until(healthy, timeout=60)


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
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
        ],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_serving(f"http://127.0.0.1:{port}", process)
    except AssertionError:
        process.kill()
        raise AssertionError(f"server did not start: {log.read_text()}") from None
    return process


class ServerProcess:
    """`gameshelf serve` in its own process on a fixed port, killed with SIGKILL on demand."""

    def __init__(self, url: str, log: Path) -> None:
        self.url = url
        self.log = log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = _start(url, self.port, log)

    def kill9(self) -> None:
        """``kill -9`` the server: no shutdown code of ours runs."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def restart(self) -> None:
        """Start a new server on the same database and port."""
        self.process = _start(self.url, self.port, self.log)

    def crash_and_restart(self) -> None:
        """``kill -9`` the server, then start a new one on the same database and port."""
        self.kill9()
        self.restart()

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


def my_turn(seats: list[int]) -> Any:
    def ready(state: dict[str, Any]) -> bool:
        if state["status"] == "finished":
            return True
        return state["status"] == "running" and state["to_move"] in seats

    return ready


def play_to_end(table: SeatClient, seed: int) -> dict[str, Any]:
    """Play random legal moves for every seat the client holds until the game ends."""
    rng = random.Random(seed)
    while True:
        state = table.wait_for(my_turn(table.seats))
        if state["status"] == "finished":
            return state
        seat = state["to_move"]
        moves = state["seats"][str(seat)]["legal_moves"]
        assert moves, "the seat to move is offered its legal moves"
        table.move(seat, rng.choice(moves))


PASSWORD = "correct horse battery"
ROOMY = ServerSettings(**{**GENEROUS.__dict__, "logins_per_minute": 1e6})
"""These tests log in many times from one address; the log-in limits have tests of their own."""


def client(server: RunningServer) -> httpx.Client:
    """An HTTP client of ``server``."""
    return httpx.Client(base_url=server.url, timeout=20.0)


def register(server: RunningServer, name: str, password: str = PASSWORD) -> httpx.Client:
    """Register an account; its logged-in HTTP client."""
    http = client(server)
    answer = http.post("/api/account/register", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return http


def expected_ratings(
    before: list[tuple[float, float]], result: list[float], forfeits: list[int] | None = None
) -> list[tuple[float, float]]:
    """What openskill itself says, computed here independently of the server."""
    model = PlackettLuce()
    ranks = placements(result)
    for seat in forfeits or []:
        ranks[seat] = len(result) + 1
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[float(r) for r in ranks])]


def rating_of(client: httpx.Client, name: str, game: str, players: int) -> tuple[float, float]:
    """An account's rating (mu, sigma) for a game and player count, from its page."""
    page = client.get(f"/api/players/{name}").json()
    found = [r for r in page["ratings"] if r["game"] == game and r["players"] == players]
    assert len(found) == 1, page["ratings"]
    return found[0]["mu"], found[0]["sigma"]


def seated_accounts(store: Store, accounts: AccountStore, game: str, names: list[str]) -> str:
    """A rated match of ``game`` whose seats the named accounts hold (made directly)."""
    match_id = f"{len(names):02d}" + hashlib.sha256(game.encode()).hexdigest()[:14]
    seats = [SeatInfo(i, "human", None, n, f"{i:064x}") for i, n in enumerate(names)]
    store.create_match(match_id, game, 1, seats)
    for seat, name in enumerate(names):
        account = accounts.find(name) or accounts.register(name, PASSWORD)[0]
        accounts.link_seat(match_id, seat, account)
    accounts.mark_rated(match_id)
    return match_id


class Process:
    """One ``gameshelf serve`` process on its own port."""

    def __init__(self, url: str, log: Path, extra: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log.open("w")
        self.popen = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gameshelf.cli.main",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                url,
                "--bot-workers",
                "0",
                "--log-level",
                "info",
                "--creates-per-minute",
                "100000",
                "--joins-per-minute",
                "100000",
                *extra,
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self) -> None:
        wait_serving(self.url, self.popen)

    def kill(self) -> None:
        os.kill(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(20)
            except subprocess.TimeoutExpired:
                self.popen.kill()
        self.log.close()
