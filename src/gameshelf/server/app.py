"""The ASGI app factory: a lobby over HTTP and live play over WebSocket (docs/server.md).

The routes live in :mod:`gameshelf.server.routes` (one module per resource), the wire contract
in :mod:`gameshelf.server.contract`, the limits in :mod:`gameshelf.server.settings`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from gameshelf import __version__
from gameshelf.core.errors import GameshelfError

from .bots import make_executor
from .cluster import SingleProcessGuard
from .contract import ErrorResponse, frame_schemas
from .errors import ServerError, error_body, http_status
from .guard import GuardMiddleware, RateLimiter, SocketCounter
from .hub import Hub
from .ratings import on_game_over
from .routes import analysis as analysis_routes
from .routes import include_routes
from .routes.pages import browser_not_found, static_dir
from .settings import ServerSettings
from .store import Store
from .timing import TimeSource
from .vetting import CardSetCatalog

log = logging.getLogger("gameshelf.server")

DEFAULT_DATABASE_URL = "sqlite:///gameshelf.sqlite3"
EVICT_EVERY_SECONDS = 30.0
HTTP_CODES = {
    400: "request/invalid",
    404: "route/not-found",
    405: "request/method-not-allowed",
    413: "request/too-large",
}


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    bot_workers: int = 2,
    settings: ServerSettings | None = None,
    card_sets: dict[str, Path] | None = None,
    clock: TimeSource | None = None,
) -> FastAPI:
    """Build the app on a database URL; ``bot_workers=0`` runs bots on threads instead.

    ``card_sets`` are the operator's extra AXIA card sets by name (``--card-set NAME=FILE``),
    validated here, at start-up; network clients can choose only these and ``standard``.
    ``clock``: the server's time source (tests pass a :class:`~.timing.FakeTime`).
    """
    limits = settings or ServerSettings()
    catalog = CardSetCatalog(card_sets)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        guard = SingleProcessGuard(database_url)
        guard.acquire()  # SQLite: one server process per file
        store = await asyncio.to_thread(Store, database_url)  # migrates the schema
        # rated matches are settled with their game-over, repeated pairings capped
        store.game_over_hooks.append(
            partial(on_game_over, pair_cap=limits.rated_pair_games_per_day)
        )
        executor = make_executor(bot_workers)
        hub = Hub(store, executor, limits, catalog, clock)
        app.state.hub = hub
        hub.rematches.limiter = app.state.create_limiter  # a rematch is a create too
        if database_url.startswith("postgresql"):
            await hub.join_cluster(database_url)
        resumed = await hub.sync.resume()
        steward = hub.steward
        steward.start()  # flags clocks that ran out, also those that ran out while we were down
        broken = hub.registry.broken
        if broken:
            log.warning("%d matches could not be loaded and were set aside", len(broken))
        log.info("gameshelf server ready on %s; %d running matches resumed", database_url, resumed)
        evictor = asyncio.get_running_loop().create_task(_evict_forever(hub))
        try:
            yield
        finally:
            evictor.cancel()
            await steward.stop()
            for match in hub.registry.matches.values():
                if match.bot_task is not None:
                    match.bot_task.cancel()
            if hub.cluster is not None:
                await hub.cluster.stop()
            executor.shutdown(wait=False, cancel_futures=True)
            hub.stops.close()
            accounts = getattr(app.state, "accounts", None)
            if accounts is not None:
                accounts.close()
            store.close()
            guard.release()

    app = FastAPI(
        title="gameshelf",
        version=__version__,
        lifespan=lifespan,
        description="Lobby and live play for Axiom, Rubik's Cage and AXIA. Live play runs over "
        "WebSocket at /ws/matches/{id}: its frames are the ClientFrame and ServerFrame schemas "
        "below; see docs/server.md. Limits and timeouts: docs/operations.md.",
        responses={"default": {"model": ErrorResponse, "description": "a coded refusal"}},
    )
    app.state.settings = limits
    app.state.create_limiter = RateLimiter(
        limits.creates_per_minute, max(10.0, limits.creates_per_minute / 2)
    )
    app.state.join_limiter = RateLimiter(
        limits.joins_per_minute, max(20.0, limits.joins_per_minute / 2)
    )
    app.state.replay_limiter = RateLimiter(
        limits.replays_per_minute, max(10.0, limits.replays_per_minute / 2)
    )
    app.state.sockets = SocketCounter(limits.sockets_per_address)
    _install_error_handlers(app)
    static = static_dir()
    if static is not None and (static / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=static / "assets"), name="assets")
    include_routes(app)
    app.include_router(analysis_routes.router)  # the analysis board (docs/analysis.md)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    app.add_middleware(GuardMiddleware, settings=limits)
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with the WebSocket frames added to its components."""
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        schema.setdefault("components", {}).setdefault("schemas", {}).update(frame_schemas())
        app.openapi_schema = schema
    return app.openapi_schema


async def _evict_forever(hub: Hub) -> None:
    while True:
        await asyncio.sleep(min(EVICT_EVERY_SECONDS, hub.settings.idle_evict_seconds))
        evicted = hub.evict_idle()
        if evicted:
            log.info("%d idle matches left memory", evicted)


def _install_error_handlers(app: FastAPI) -> None:
    """Every refusal, the framework's included, in the one coded shape ``{"error": …}``."""

    @app.exception_handler(GameshelfError)
    async def _coded(_request: Request, error: GameshelfError) -> JSONResponse:
        return JSONResponse(error_body(error), status_code=http_status(error))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        body = error_body(ServerError("request/invalid", problems[:500] or "invalid request"))
        return JSONResponse(body, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> Response:
        page = browser_not_found(request) if error.status_code == 404 else None
        if page is not None:
            return page
        code = HTTP_CODES.get(error.status_code, "request/invalid")
        message = str(error.detail) if error.status_code != 400 else "the body is not valid JSON"
        headers = getattr(error, "headers", None)
        return JSONResponse(
            error_body(ServerError(code, message)), status_code=error.status_code, headers=headers
        )

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=error)
        body = error_body(ServerError("server/error", "the server could not handle this request"))
        return JSONResponse(body, status_code=500)


__all__ = ["DEFAULT_DATABASE_URL", "create_app", "static_dir"]
