"""``gameshelf engine``: a gameshelf bot behind the engine protocol on stdin and stdout."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_engine_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``engine [--agent NAME] [--seed N]``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "engine",
        help="serve a bot over the engine protocol on stdin/stdout (for other programs)",
        description=(
            "Answer the gameshelf engine protocol on standard input and output, one command a "
            "line: 'gsp 1', 'game GAME', 'play MOVE', 'go SECONDS', 'quit' (docs/agents.md, "
            "External engines). Cage and Axiom only. Anything the bot prints goes to stderr."
        ),
        epilog="example: printf 'gsp 1\\ngame cage\\ngo 0.5\\nquit\\n' | gameshelf engine",
    )
    parser.add_argument("--agent", default="hard", help="the bot that answers go (default hard)")
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    parser.set_defaults(func=engine_command)
    return parser


def engine_command(args: argparse.Namespace) -> int:
    """Handler of ``gameshelf engine``: serve until ``quit`` or end of input."""
    from gameshelf.agents.engine import serve

    replies = sys.stdout
    sys.stdout = sys.stderr  # nothing but replies may reach the protocol's stream
    try:
        return serve(sys.stdin, replies, args.agent.strip().lower(), args.seed)
    finally:
        sys.stdout = replies
