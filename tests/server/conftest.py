"""Server fixtures: a real uvicorn server on a free loopback port, on SQLite and PostgreSQL.

PostgreSQL runs when ``GAMESHELF_TEST_POSTGRES_URL`` is set, as ``.ci/run`` does after
starting the server with ``scripts/postgres.sh``; without it the suite covers SQLite only.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import create_engine, text

from gameshelf.server import create_app
from gameshelf.server.client import Lobby
from gameshelf.server.hub import Hub
from gameshelf.server.settings import ServerSettings
from gameshelf.server.threaded import ThreadedServer
from gameshelf.server.timing import TimeSource

from .helpers import GENEROUS, Process

T = TypeVar("T")

DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("GAMESHELF_TEST_POSTGRES_URL") else [])


class RunningServer(ThreadedServer):
    """uvicorn serving the app in a background thread."""

    def __init__(
        self,
        database_url: str,
        settings: ServerSettings | None = None,
        clock: TimeSource | None = None,
    ) -> None:
        self.database_url = database_url
        app = create_app(database_url, bot_workers=0, settings=settings or GENEROUS, clock=clock)
        super().__init__(app)

    def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the server's event loop and wait for its answer."""
        loop = self.server.servers[0].get_loop()
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=60)

    @property
    def hub(self) -> Hub:
        """The running app's hub (its parts: the steward, the registry…)."""
        hub: Hub = self.server.config.app.state.hub
        return hub


def database_url(kind: str, tmp_path: Path) -> str:
    """A fresh, empty database of ``kind`` for one test."""
    if kind == "postgresql":
        return _fresh_postgres_database(os.environ["GAMESHELF_TEST_POSTGRES_URL"])
    return f"sqlite:///{tmp_path / 'gameshelf.sqlite3'}"


def _fresh_postgres_database(base_url: str) -> str:
    name = f"gameshelf_t_{secrets.token_hex(6)}"
    engine = create_engine(base_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return base_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningServer]:
    running = RunningServer(database_url(request.param, tmp_path))
    yield running
    running.stop()


@pytest.fixture
def lobby(server: RunningServer) -> Iterator[Lobby]:
    client = Lobby(server.url)
    yield client
    client.close()


@pytest.fixture
def three(tmp_path: Path) -> Iterator[list[Process]]:
    if not os.environ.get("GAMESHELF_TEST_POSTGRES_URL"):
        pytest.fail("the cluster tests need PostgreSQL: export GAMESHELF_TEST_POSTGRES_URL")
    url = database_url("postgresql", tmp_path)
    first = Process(url, tmp_path / "p0.log")
    first.wait_ready()  # migrates the fresh database once
    rest = [Process(url, tmp_path / f"p{i}.log") for i in (1, 2)]
    for process in rest:
        process.wait_ready()
    processes = [first, *rest]
    yield processes
    for process in processes:
        process.stop()
