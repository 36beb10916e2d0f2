"""Serve the app from a background thread on a free loopback port (tests, notebooks, embedding)."""

from __future__ import annotations

import threading
import time
from typing import Any

import uvicorn

from .guard import uvicorn_config
from .settings import ServerSettings


class ThreadedServer:
    """uvicorn serving ``app`` in a daemon thread; ``url`` is ready when the constructor returns.

    >>> server = ThreadedServer(create_app("sqlite:///demo.sqlite3"))  # doctest: +SKIP
    >>> server.url                                                     # doctest: +SKIP
    'http://127.0.0.1:43117'
    >>> server.stop()                                                  # doctest: +SKIP
    """

    def __init__(self, app: Any, start_timeout: float = 20.0) -> None:
        settings = getattr(app.state, "settings", None) or ServerSettings()
        config = uvicorn_config(
            app, settings, "127.0.0.1", 0, log_level="warning", server_logs=False
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + start_timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        """Ask uvicorn to exit and wait for the thread (at most 20 s)."""
        self.server.should_exit = True
        self.thread.join(timeout=20)
