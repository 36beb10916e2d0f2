"""The server's routes, one module per resource; :func:`include_routes` mounts them all."""

from __future__ import annotations

from fastapi import FastAPI

from . import accounts, live, lobby, matches, pages, players, social


def include_routes(app: FastAPI) -> None:
    """Mount every router on ``app`` (pages last: their catch-all path must come after)."""
    app.include_router(lobby.router)
    app.include_router(matches.router)
    app.include_router(live.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(social.router)
    app.include_router(pages.router)
