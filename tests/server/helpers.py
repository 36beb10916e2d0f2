"""Helpers the server tests share: a server in its own process, and waiting for a condition."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx


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
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"server did not start: {log.read_text()}")


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
