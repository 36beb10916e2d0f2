"""deploy/nginx/gameshelf.conf in front of three server processes on PostgreSQL: a game played
through the proxy survives ``kill -9`` of a process, the client reconnecting through the proxy."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gameshelf.server.client import Lobby, SeatClient

from .test_cluster import Process, _free_port, three  # noqa: F401 - the fixture

SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "gameshelf.conf"


def _nginx_conf(folder: Path, listen: int, upstreams: list[int]) -> Path:
    """A whole nginx.conf running the shipped site file, with this test's ports."""
    site = SITE.read_text()
    ports = iter(upstreams)
    site = re.sub(r"127\.0\.0\.1:800[123]", lambda _m: f"127.0.0.1:{next(ports)}", site)
    site = site.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{listen};")
    (folder / "gameshelf.conf").write_text(site)
    temp = folder / "temp"
    temp.mkdir()
    conf = folder / "nginx.conf"
    conf.write_text(
        f"""
{"user root;" if os.geteuid() == 0 else ""}
daemon off;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {folder / "gameshelf.conf"};
}}
"""
    )
    return conf


@pytest.fixture
def proxy(three: list[Process], tmp_path: Path) -> Iterator[str]:  # noqa: F811
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "the proxy test needs Debian's nginx: apt-get install nginx"
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = _free_port()
    conf = _nginx_conf(folder, port, [p.port for p in three])
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
    three: list[Process],  # noqa: F811
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
