"""The bot pool's worker processes end with the server process, even one killed with kill -9
(which runs no shutdown code): a crashed server leaves no idle workers behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from gameshelf.server.bots import PARENT_POLL

SERVER_STAND_IN = """
import os, sys
from gameshelf.server.bots import make_executor
pool = make_executor(2)
pids = {pool.submit(os.getpid).result() for _ in range(8)}
print(" ".join(map(str, sorted(pids))), flush=True)
sys.stdin.readline()  # wait to be killed
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (Linux ``/proc``; a zombie, dead but not yet reaped, counts as
    gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_workers_exit_when_the_server_is_killed_with_sigkill() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER_STAND_IN], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert server.stdout is not None
    workers = [int(pid) for pid in server.stdout.readline().split()]
    try:
        assert workers and server.pid not in workers
        assert all(_alive(pid) for pid in workers)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + 10 * PARENT_POLL + 5
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived their server"
    finally:
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
