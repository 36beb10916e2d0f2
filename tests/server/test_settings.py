"""Every server limit has a flag and a line in docs/operations.md."""

from __future__ import annotations

import argparse
from dataclasses import fields
from pathlib import Path

from gameshelf.cli.main import build_parser
from gameshelf.server.settings import ServerSettings
from gameshelf.server.settings import shown as shown_default

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def test_every_limit_is_documented_with_its_flag() -> None:
    text = OPERATIONS.read_text(encoding="utf-8")
    for item in fields(ServerSettings):
        flag = "--" + item.name.replace("_", "-")
        assert f"| `{item.name}` | `{flag}` |" in text, item.name


def test_serve_flags_reach_the_settings() -> None:
    args = build_parser().parse_args(
        ["serve", "--send-queue", "5", "--hello-timeout", "1.5", "--card-set", "mine=x.json"]
    )
    settings = ServerSettings.from_arguments(args)
    assert settings.send_queue == 5 and settings.hello_timeout == 1.5
    assert settings.max_body_bytes == ServerSettings().max_body_bytes
    assert args.card_set == ["mine=x.json"] and args.trusted_proxies is None


def test_help_shows_each_default_as_the_number_it_is() -> None:
    """``:g`` showed 1048576 as 1.04858e+06: a default an operator could not copy back."""
    parser = argparse.ArgumentParser()
    ServerSettings.add_arguments(parser)
    helps = {action.dest: action.help or "" for action in parser._actions}
    assert helps["max_frame_bytes"].endswith("(default: 1048576)")
    assert helps["max_body_bytes"].endswith("(default: 65536)")
    assert helps["idle_evict_seconds"].endswith("(default: 600)")
    for item in fields(ServerSettings):
        shown = helps[item.name].rsplit("(default: ", 1)[1].rstrip(")")
        assert "e" not in shown, (item.name, shown)
        assert type(item.default)(shown) == item.default, (item.name, shown)  # exact round trip
    assert shown_default(0.25) == "0.25" and shown_default(12345678.0) == "12345678"


def test_the_per_match_socket_cap_is_described_as_the_hub_counts() -> None:
    """Spectators and players' connections are counted apart (Hub.connect; tested in
    test_hostile.py): the table and --help must not say it caps all sockets together."""
    row = next(
        line
        for line in OPERATIONS.read_text(encoding="utf-8").splitlines()
        if line.startswith("| `sockets_per_match` |")
    )
    assert "spectators and players' connections" in row and "counted apart" in row, row
    assert "up to this many of each" in row, row
    parser = argparse.ArgumentParser()
    ServerSettings.add_arguments(parser)
    helps = {action.dest: action.help or "" for action in parser._actions}
    assert (
        "spectators, and players' connections, each up to this many" in helps["sockets_per_match"]
    )
