"""The README runs as written: its Python example, and every line of its shell blocks, each in
a fresh shell with nothing activated. The two long-running top commands (``scripts/start.sh``
serves until stopped; ``scripts/test.sh`` is this very suite) are checked the cheap way: they
exist and are executable, CI runs nothing but the test command, the test command stops with one
clear line before any test when a browser is missing, and start.sh names a busy port."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
TOP_COMMANDS = ["scripts/start.sh", "scripts/test.sh"]
SHELL_BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.DOTALL)


def fresh_env(home: Path) -> dict[str, str]:
    """A new login's environment: system PATH only, no virtual environment active."""
    return {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
    }


def shell_lines(block: str) -> list[str]:
    """The command lines of a shell block (comments stay: the shell ignores them)."""
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_readme_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.DOTALL)
    assert blocks, "the README has a Python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_starts_with_the_two_commands() -> None:
    assert [block.strip() for block in SHELL_BLOCKS[:2]] == TOP_COMMANDS
    for command in TOP_COMMANDS:
        path = ROOT / command
        assert path.is_file() and os.access(path, os.X_OK), f"{command} is not executable"


def test_ci_runs_only_the_readme_test_command() -> None:
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    lines = [
        line.strip()
        for line in ci.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    setup = {"set -euo pipefail", 'cd "$(dirname "$0")/.."'}
    assert [line for line in lines if line not in setup] == ["exec bash scripts/test.sh"]


@pytest.mark.parametrize(
    "block", range(2, len(SHELL_BLOCKS)), ids=lambda i: f"block{i}-{SHELL_BLOCKS[i].split()[0]}"
)
def test_every_readme_shell_line_runs_as_written(block: int, tmp_path: Path) -> None:
    """Each line in its own fresh ``bash``, in order, in a folder that holds only what a
    checkout does (``.venv``, ``examples``, ``scripts``); interactive play reads ``quit``."""
    for name in (".venv", "examples", "scripts", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    lines = shell_lines(SHELL_BLOCKS[block])
    assert lines
    for line in lines:
        result = subprocess.run(
            ["bash", "-c", line],
            cwd=tmp_path,
            env=fresh_env(tmp_path),
            input="quit\n",
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, f"{line}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
        assert "Traceback" not in result.stderr, f"{line}\n{result.stderr[-2000:]}"


def test_the_shell_lines_cover_every_gameshelf_command_of_the_readme() -> None:
    """No bare ``gameshelf`` line (``command not found`` without the venv) is left anywhere."""
    lines = [line for block in SHELL_BLOCKS for line in shell_lines(block)]
    assert all(not line.startswith("gameshelf ") for line in lines)
    assert sum(line.startswith(".venv/bin/gameshelf ") for line in lines) >= 10


def test_test_sh_stops_before_any_test_when_the_browser_cannot_be_installed(
    tmp_path: Path,
) -> None:
    """No Chromium where the tests look for it, and an apt-get that fails: one clear line,
    exit status 1, and neither ruff nor pytest started."""
    stubs = tmp_path / "bin"
    stubs.mkdir()
    apt = stubs / "apt-get"
    apt.write_text("#!/bin/sh\necho 'E: Could not open lock file' >&2\nexit 100\n")
    apt.chmod(0o755)
    env = {
        **fresh_env(tmp_path),
        "PATH": f"{stubs}:{fresh_env(tmp_path)['PATH']}",
        "GAMESHELF_CHROMIUM": str(tmp_path / "no-chromium"),
        "GAMESHELF_TEST_POSTGRES_URL": "postgresql+psycopg://unused",
    }
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "test.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()  # as root, apt-get's own line comes first
    assert 1 <= len(errors) <= 2, result.stderr
    assert errors[-1].startswith("test: ") and "apt-get install chromium" in errors[-1]
    assert "== ruff" not in result.stdout and "== pytest" not in result.stdout


def test_start_sh_names_a_busy_port_before_building_or_serving(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            ["bash", str(ROOT / "scripts" / "start.sh"), "--port", str(port)],
            env=fresh_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert result.returncode == 2, result.stderr
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr
    assert f"--port {port + 1}" in result.stderr
    assert "gameshelf server:" not in result.stdout and "build-web" not in result.stderr


def test_the_fresh_environment_really_has_no_gameshelf_on_path(tmp_path: Path) -> None:
    """The line tests have teeth: a bare ``gameshelf`` is not found in that shell."""
    result = subprocess.run(
        ["bash", "-c", "gameshelf games"],
        cwd=tmp_path,
        env=fresh_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 127 and "not found" in result.stderr
