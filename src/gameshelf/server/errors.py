"""Stable error codes of the server, with the HTTP status each maps to."""

from __future__ import annotations

from gameshelf.core.errors import GameshelfError

HTTP_STATUS = {
    "request/invalid": 400,
    "request/too-large": 413,
    "request/rate-limited": 429,
    "auth/bad-token": 403,
    "match/not-found": 404,
    "match/full": 409,
    "match/seat-taken": 409,
    "match/not-started": 409,
    "match/not-finished": 409,
    "state/stale-version": 409,
    "undo/not-allowed": 409,
    "move/not-your-turn": 409,
    "move/game-over": 409,
    "request/timeout": 408,
    "request/seed-not-allowed": 400,
    "request/method-not-allowed": 405,
    "route/not-found": 404,
    "match/unavailable": 409,
    "agent/unknown": 400,
    "agent/unfit": 400,
    "agent/bad-think-time": 400,
    "hint/not-allowed": 400,
    "server/busy": 503,
    "server/unavailable": 503,
    "server/error": 500,
    "auth/bad-login": 401,
    "auth/login-required": 401,
    "auth/bad-origin": 403,
    "account/name-taken": 409,
    "player/not-found": 404,
    "clock/flagged": 409,
    "chat/invalid": 400,
    "chat/not-allowed": 403,
    "resign/not-allowed": 403,
}


class ServerError(GameshelfError):
    """An error with a stable ``code`` chosen where it is raised."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def http_status(error: GameshelfError) -> int:
    """The HTTP status for an error code (400 for bad game strings, moves and options)."""
    return HTTP_STATUS.get(error.code, 400)


def error_body(error: GameshelfError) -> dict[str, dict[str, str]]:
    """The JSON body of an error: ``{"error": {"code": ..., "message": ...}}``."""
    return {"error": {"code": error.code, "message": str(error)}}
