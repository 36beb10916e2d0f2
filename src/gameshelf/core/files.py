"""Reading the files users hand over (records, card files, positions): one place that turns
every way a file can fail to be read into one coded error naming the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import GameshelfError

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file read as a record, card file or position: far above any real one (a long
four-player AXIA record is under 200 KB), and it stops a stray name such as ``/dev/zero`` or
a huge download from being read into memory."""


def read_text_file(path: str | Path, what: str, error: type[GameshelfError]) -> str:
    """The UTF-8 text of the file at ``path`` (a leading byte order mark, as some Windows
    editors write, is skipped).

    Raises ``error`` naming ``what`` (e.g. ``"record"``) and the file when it cannot be read
    (missing, a folder, no permission, a NUL byte in the name), is larger than
    :data:`MAX_FILE_BYTES` (only that much is ever read) or is not UTF-8 (with the offset of
    the first byte that cannot be decoded).
    """
    name = str(path)
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {name!r}: {exc.strerror}") from None
    except ValueError as exc:  # a name with a NUL byte
        raise error(f"cannot read {what} {name!r}: {exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        limit = MAX_FILE_BYTES // (1024 * 1024)
        raise error(f"{what} {name!r} is larger than {limit} MiB: not read")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(
            f"{what} {name!r} is not UTF-8 text: byte {exc.start} cannot be decoded"
        ) from None


def parse_json_text(text: str, what: str, name: str, error: type[GameshelfError]) -> Any:
    """``text`` (the contents of file ``name``) as JSON; ``error`` naming ``what`` and the
    file when it is not JSON, nests too deeply for Python's parser, or holds an integer of
    more digits than Python converts."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{what} {name!r} is not valid JSON: {exc}") from None
    except RecursionError:
        raise error(f"{what} {name!r} is nested too deeply") from None
    except ValueError:
        raise error(f"{what} {name!r} holds a number with too many digits") from None


__all__ = ["MAX_FILE_BYTES", "parse_json_text", "read_text_file"]
