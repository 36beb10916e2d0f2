"""Dependencies shared by the routes: the hub, the settings, the caller's address, rate limits,
the match id of a path."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, WebSocket

from .contract import is_match_id
from .errors import ServerError
from .guard import RateLimiter
from .hub import Hub
from .settings import ServerSettings


def get_hub(request: Request) -> Hub:
    """The match master of this app."""
    hub: Hub = request.app.state.hub
    return hub


def get_settings(request: Request) -> ServerSettings:
    """The limits this app runs with."""
    settings: ServerSettings = request.app.state.settings
    return settings


def match_id_path(match_id: str) -> str:
    """The match id of a route's path: one that no match can have is not found, before any
    lock or database sees it."""
    if not is_match_id(match_id):
        raise ServerError("match/not-found", "no such match (a match id is 16 hex digits 0-f)")
    return match_id


MatchIdPath = Annotated[str, Depends(match_id_path)]
"""A path's ``{match_id}``, checked by :func:`match_id_path`."""


def client_address(connection: Request | WebSocket) -> str:
    """The caller's address (``X-Forwarded-For`` counts only from ``--trusted-proxies``)."""
    client = connection.client
    return client.host if client is not None else "unknown"


def _limited(limiter: RateLimiter, request: Request, what: str) -> None:
    wait = limiter.take(client_address(request))
    if wait > 0:
        raise ServerError(
            "request/rate-limited", f"too many {what} from your address; retry in {wait:.0f} s"
        )


def limit_creates(request: Request) -> None:
    """Refuse a create past the per-address rate."""
    _limited(request.app.state.create_limiter, request, "new matches")


def limit_replays(request: Request) -> None:
    """Refuse a replay past the per-address rate (each one replays a whole game's views)."""
    _limited(request.app.state.replay_limiter, request, "replays")


def limit_joins(request: Request) -> None:
    """Refuse a join past the per-address rate."""
    _limited(request.app.state.join_limiter, request, "joins")
