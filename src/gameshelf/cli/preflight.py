"""Checks ``scripts/start.sh`` runs before its slow build: is the server's port free, and can
its SQLite database be written where it is asked for?

    .venv/bin/python -m gameshelf.cli.preflight [serve options...]

The options are read by ``gameshelf serve``'s own parser, so ``--port 9000``, ``--port=9000``
and ``--host`` mean exactly what they mean to the server. Help and usage errors are left to
``gameshelf serve`` itself (this exits 0 on them, printing nothing).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Sequence

from gameshelf.core.errors import GameshelfError

from .main import build_parser, check_serve_arguments


def main(argv: Sequence[str] | None = None) -> int:
    """Exit status 2 with one line on stderr when ``serve`` could not start, else 0."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            args = build_parser().parse_args(["serve", *words])
    except SystemExit:
        return 0
    try:
        check_serve_arguments(args)
    except GameshelfError as exc:
        print(f"gameshelf: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
