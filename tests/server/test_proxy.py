"""The shipped nginx site (``server/nginx-gameshelf.conf``) in front of three server processes
on PostgreSQL: a game played through the proxy survives ``kill -9`` of a process, the client
reconnecting through the proxy."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.proxy import nginx_conf

from .helpers import Process
from .helpers import free_port as _free_port


@pytest.fixture
def proxy(three: list[Process], tmp_path: Path) -> Iterator[str]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "the proxy test needs Debian's nginx: apt-get install nginx"
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = _free_port()
    conf = nginx_conf(folder, port, [p.port for p in three])
    checked = subprocess.run([nginx, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    running = subprocess.Popen([nginx, "-c", str(conf)], stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "nginx did not start"
        time.sleep(0.1)
    yield url
    running.send_signal(signal.SIGQUIT)
    try:
        running.wait(10)
    except subprocess.TimeoutExpired:
        running.kill()


def _owner(processes: list[Process]) -> Process:
    for process in processes:
        if httpx.get(f"{process.url}/healthz").json()["matches_owned"]:
            return process
    raise AssertionError("no process owns the match")


def test_a_game_through_the_proxy_survives_a_dead_process(
    proxy: str,
    three: list[Process],
) -> None:
    lobby = Lobby(proxy)
    match = lobby.create("cage", [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}])
    token = lobby.join(match["id"])["token"]
    acknowledged: list[str] = []
    killed = False
    while True:
        try:
            with SeatClient(proxy, match["id"], [token]) as table:
                while True:
                    state = table.wait_for_turn(0)
                    if state["status"] == "finished":
                        break
                    reply = table.move(0, state["seats"]["0"]["legal_moves"][0])
                    acknowledged.append(str(reply["moves"][-1]))
                    if len(acknowledged) == 2 and not killed:
                        _owner(three).kill()  # the process driving the bot dies…
                        killed = True
                break
        except Exception:
            assert killed, "the connection failed before any process was killed"
            time.sleep(0.5)  # the client comes back through the proxy with its token
    record = lobby.record(match["id"])
    assert [m["move"] for m in record["moves"] if m["player"] == 0] == acknowledged
    assert killed
    lobby.close()


def test_a_matchs_requests_go_to_one_process(
    proxy: str,
    three: list[Process],
) -> None:
    lobby = Lobby(proxy)
    match = lobby.create("cage", [{"kind": "human"}, {"kind": "human"}])["id"]
    for _ in range(12):  # round robin would load it into every process
        assert lobby.match(match)["id"] == match
    holding = [httpx.get(f"{p.url}/healthz").json()["matches_in_memory"] for p in three]
    assert sum(holding) <= 2, holding  # the process that created it, and the one it hashes to
    lobby.close()
