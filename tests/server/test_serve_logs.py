"""``gameshelf serve`` prints the server's own INFO lines, as ``key=value`` pairs, once each."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

from gameshelf.server.client import Lobby
from gameshelf.server.logs import KeyValueFormatter

from .helpers import free_port as _free_port

HUMAN = {"kind": "human"}
OPTIONS = ["--log-level", "info", "--bot-workers", "0", "--database-url"]


def _serve(url: str, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gameshelf.cli.main", "serve", "--port", str(port), *OPTIONS, url],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _lines_until(process: subprocess.Popen[str], marker: str) -> list[str]:
    """Read the server's output up to the line holding ``marker`` (all of it if it never comes)."""
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if marker in line:
            break
    return lines


def _stop(process: subprocess.Popen[str]) -> list[str]:
    process.terminate()
    rest, _ = process.communicate(timeout=30)
    return rest.splitlines()


def test_serve_prints_the_resumed_matches_line_once_beside_uvicorns(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'gameshelf.sqlite3'}"
    port = _free_port()
    first = _serve(url, port)
    try:
        _lines_until(first, "Application startup complete")
        lobby = Lobby(f"http://127.0.0.1:{port}")
        match = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": [HUMAN] * 2})
        for seat in range(2):
            lobby.join(match["id"], seat)
        lobby.close()
    finally:
        _stop(first)
    second = _serve(url, port)
    try:
        lines = _lines_until(second, "Application startup complete")
    finally:
        lines += _stop(second)
    ours = [line for line in lines if "logger=gameshelf.server" in line]
    resumed = [line for line in ours if "1 running matches resumed" in line]
    assert len(resumed) == 1, lines
    assert resumed[0].startswith("time=") and " level=INFO " in resumed[0]
    assert sum("Application startup complete" in line for line in lines) == 1, lines


def test_a_message_with_spaces_and_a_traceback_stays_on_one_line() -> None:
    try:
        raise ValueError("broken\nbadly")
    except ValueError:
        record = logging.LogRecord(
            "gameshelf.server",
            logging.INFO,
            __file__,
            1,
            "match %s flagged",
            ("ab=c",),
            sys.exc_info(),
        )
    line = KeyValueFormatter().format(record)
    assert "\n" not in line
    assert ' level=INFO logger=gameshelf.server msg="match ab=c flagged" exc="Traceback' in line
