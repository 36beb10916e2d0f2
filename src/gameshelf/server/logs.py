"""The server's own log lines, as ``key=value`` pairs beside uvicorn's.

``gameshelf serve`` hands uvicorn a logging configuration (:func:`log_config`) that keeps
uvicorn's own loggers as they are and gives the ``gameshelf`` loggers one handler of their own
on standard error, formatted by :class:`KeyValueFormatter`::

    time=2026-12-05T22:17:13.123Z level=INFO logger=gameshelf.server msg="match 3f… flagged"

Values with spaces, quotes or ``=`` are written as JSON strings, so a line splits on spaces
outside quotes. The ``gameshelf`` loggers still propagate to the root logger, which serve
leaves without handlers: nothing is printed twice.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from uvicorn.config import LOGGING_CONFIG

SERVER_LOGGER = "gameshelf"
"""The parent of every logger of ours (``gameshelf.server`` and the rest)."""


def quoted(value: object) -> str:
    """``value`` as it stands in a line: bare when it is one plain word, else a JSON string."""
    text = str(value)
    if text and not any(c.isspace() or c in '"=\\' for c in text):
        return text
    return json.dumps(text, ensure_ascii=False)


class KeyValueFormatter(logging.Formatter):
    """One line per record: ``time``, ``level``, ``logger``, ``msg`` and, with a traceback,
    ``exc`` (the traceback is one JSON string, so a record never spans lines)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as ``key=value`` pairs."""
        moment = datetime.fromtimestamp(record.created, UTC)
        pairs = {
            "time": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if record.exc_info:
            pairs["exc"] = self.formatException(record.exc_info)
        return " ".join(f"{key}={quoted(value)}" for key, value in pairs.items())


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration plus the ``gameshelf`` loggers at ``level``."""
    config: dict[str, Any] = json.loads(json.dumps(LOGGING_CONFIG))  # a deep copy to extend
    config["formatters"]["gameshelf"] = {"()": f"{__name__}.KeyValueFormatter"}
    config["handlers"]["gameshelf"] = {
        "formatter": "gameshelf",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
    }
    config["loggers"][SERVER_LOGGER] = {"handlers": ["gameshelf"], "level": level.upper()}
    return config
