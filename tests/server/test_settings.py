"""Every server limit has a flag and a line in docs/operations.md."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from gameshelf.cli.main import build_parser
from gameshelf.server.settings import ServerSettings

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
