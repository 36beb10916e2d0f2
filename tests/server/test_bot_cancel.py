"""A bot's search is given up, and its worker freed, as soon as its match ends."""

from __future__ import annotations

import pickle
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import gameshelf
from gameshelf.server import create_app
from gameshelf.server.bots import (
    SearchCancelled,
    StopBoard,
    choose_bot_action,
    make_executor,
    stoppable,
)
from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.threaded import ThreadedServer

from .conftest import GENEROUS, database_url

SEATS = [{"kind": "bot", "agent": "random"}, {"kind": "human"}]


class EndlessBot:
    """A search that never ends by itself (a pure-Python loop, as the bots' searches are)
    until the server stops it; each step is marked with an event."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.cancelled = threading.Event()
        self.release = threading.Event()  # only the test's clean-up sets it

    def __call__(self, _snapshot: bytes, _agent: str, _seed: int, _cap: float) -> int:
        self.started.set()
        try:
            while not self.release.is_set():
                pass
        except SearchCancelled:
            self.cancelled.set()
            raise
        return 0


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ThreadedServer, EndlessBot]]:
    app = create_app(database_url("sqlite", tmp_path), bot_workers=0, settings=GENEROUS)
    server = ThreadedServer(app)
    bot = EndlessBot()
    app.state.hub.driver.choose = bot
    yield server, bot
    bot.release.set()
    server.stop()


def test_resigning_stops_the_bots_search_in_its_worker(
    served: tuple[ThreadedServer, EndlessBot],
) -> None:
    server, bot = served
    lobby = Lobby(server.url)
    match = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": SEATS})["id"]
    token = lobby.join(match, 1)["token"]
    with SeatClient(server.url, match, [token]) as table:
        assert bot.started.wait(timeout=30)
        reply = table.request({"type": "resign", "seat": 1})
        assert reply["type"] == "state" and reply["status"] == "finished"
        assert bot.cancelled.wait(timeout=30)  # stopped in the worker, not left to its cap
        assert lobby.match(match)["status"] == "finished"
        record = lobby.record(match)
        assert record["moves"] == []  # the abandoned search played nothing
    lobby.close()


def test_a_stop_reaches_a_search_in_a_worker_process() -> None:
    """The spawned process pool the server uses by default: the stop crosses processes."""
    state = gameshelf.load("cage").new_initial_state()
    pool = make_executor(1)
    board = StopBoard()
    try:
        slot = board.take()
        long_think = 600.0  # far past the test's wait: only the stop can end it in time
        job = pool.submit(
            stoppable,
            board.path,
            slot,
            choose_bot_action,
            pickle.dumps(state),
            "mcts",
            1,
            long_think,
        )
        board.stop(slot)
        with pytest.raises(SearchCancelled):
            job.result(timeout=60)
        assert pool.submit(abs, -1).result(timeout=60) == 1  # the worker serves the next task
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        board.close()
