"""docs/learning.md: its Python example runs, and its command lines name real options."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from gameshelf.cli.main import build_parser

PAGE = Path(__file__).resolve().parents[2] / "docs" / "learning.md"


def test_the_master_example_runs() -> None:
    (code,) = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), re.DOTALL)
    namespace: dict[str, typing.Any] = {}
    exec(compile(code, str(PAGE), "exec"), namespace)
    assert namespace["bot"].name == "master"


def test_the_shown_commands_parse() -> None:
    text = PAGE.read_text("utf-8")
    commands = re.findall(r"^gameshelf (learn .*?)(?:\s+#.*)?$", text, re.MULTILINE)
    assert len(commands) >= 3
    parser = build_parser()
    for command in commands:
        args = parser.parse_args(command.split())
        assert args.func.__name__ == "learn_command"
