"""Server fixtures: a real uvicorn server on a free loopback port, on SQLite and PostgreSQL.

PostgreSQL runs when ``GAMESHELF_TEST_POSTGRES_URL`` is set, as ``.ci/run`` does after
starting the server with ``scripts/postgres.sh``; without it the suite covers SQLite only.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from sqlalchemy import create_engine, text

from gameshelf.server import create_app
from gameshelf.server.client import Lobby

DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("GAMESHELF_TEST_POSTGRES_URL") else [])


class RunningServer:
    """uvicorn serving the app in a background thread."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        config = uvicorn.Config(
            create_app(database_url, bot_workers=0),
            host="127.0.0.1",
            port=0,
            log_level="warning",
            ws_max_size=64 * 1024,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


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
