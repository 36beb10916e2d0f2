"""Password hashing runs on its own few threads: a flood of log-ins never holds up play."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import httpx

from gameshelf.server.accounts import AccountStore
from gameshelf.server.client import Lobby, SeatClient

from .conftest import GENEROUS, RunningServer, database_url

HUMAN = {"kind": "human"}
FLOOD = 40
"""Wrong log-ins at once: more than any event loop's default pool has threads (at most 32)."""


class StuckHasher:
    """A password hasher whose every check waits for ``release``; ``entered`` counts them."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.entered = threading.Semaphore(0)

    def verify(self, _stored: str, _password: str) -> bool:
        self.entered.release()
        self.release.wait(timeout=60)
        return False

    def hash(self, password: str) -> str:
        """Not reached by wrong log-ins; present so the store's calls type-check."""
        return password

    def check_needs_rehash(self, _stored: str) -> bool:
        return False


def test_a_move_is_stored_while_every_hashing_thread_is_busy(tmp_path: Path) -> None:
    settings = replace(
        GENEROUS, logins_per_minute=1e6, logins_per_name_per_minute=1e6, hashing_threads=2
    )
    server = RunningServer(database_url("sqlite", tmp_path), settings)
    web = httpx.Client(base_url=server.url, timeout=90.0)
    flood = ThreadPoolExecutor(max_workers=FLOOD)
    hasher = StuckHasher()
    try:
        lobby = Lobby(server.url)
        match = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": [HUMAN, HUMAN]})
        tokens = [lobby.join(match["id"], seat)["token"] for seat in range(2)]
        with SeatClient(server.url, match["id"], tokens, timeout=30.0) as table:
            web.get("/api/account")  # makes the account store, which the test then slows
            accounts: AccountStore = server.server.config.app.state.accounts
            accounts.hasher = hasher  # type: ignore[assignment]
            body = {"name": "Someone", "password": "a wrong guess"}
            answers = [
                flood.submit(web.post, "/api/account/login", json=body) for _ in range(FLOOD)
            ]
            for _ in range(settings.hashing_threads):  # every hashing thread is now held
                assert hasher.entered.acquire(timeout=30)
            seat = table.state["to_move"]
            reply = table.move(seat, table.state["seats"][str(seat)]["legal_moves"][0])
            assert reply["type"] == "state" and reply["version"] == 1
            stored = server.server.config.app.state.hub.store.load(match["id"])
            assert stored is not None and len(stored.moves) == 1  # stored, not only acknowledged
            # the flood only queued: no more than the cap were ever hashing at once
            assert not hasher.entered.acquire(timeout=0)
            hasher.release.set()
            assert {answer.result().status_code for answer in answers} == {401}
    finally:
        hasher.release.set()
        flood.shutdown(wait=True)
        web.close()
        server.stop()
