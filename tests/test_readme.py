"""The README's Python example runs as written, and its two commands exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README, re.DOTALL)
    assert blocks, "the README has a Python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_one() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.DOTALL)
    assert commands[:2] == ["scripts/start.sh", "scripts/test.sh"]
    for command in commands[:2]:
        assert (ROOT / command).is_file()
    assert "scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
