"""The ASGI app: a lobby over HTTP and live play over WebSocket (protocol: docs/server.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from gameshelf import __version__
from gameshelf.agents import AGENTS
from gameshelf.core.errors import GameshelfError
from gameshelf.core.registry import available_games, game_entry

from .bots import make_executor
from .db import Store
from .errors import ServerError, error_body, http_status
from .hub import Client, Hub, Runtime

log = logging.getLogger("gameshelf.server")

MAX_MESSAGE_BYTES = 16 * 1024
MAX_BODY_BYTES = 64 * 1024
RATE_BURST = 40.0
RATE_PER_SECOND = 20.0
DEFAULT_DATABASE_URL = "sqlite:///gameshelf.sqlite3"


def static_dir() -> Path | None:
    """Where the built browser table lies (``$GAMESHELF_STATIC_DIR`` or ``server/static``)."""
    configured = os.environ.get("GAMESHELF_STATIC_DIR")
    folder = Path(configured) if configured else Path(__file__).parent / "static"
    return folder if (folder / "index.html").is_file() else None


class SeatRequest(BaseModel):
    """A seat of a new match: a human (joins later) or a bot by name."""

    kind: Literal["human", "bot"]
    agent: str | None = Field(default=None, max_length=32)


class CreateMatchRequest(BaseModel):
    """A new match: a game string, its seats and an optional seed."""

    game: str = Field(max_length=512, examples=["cage(players=2)"])
    seats: list[SeatRequest] | None = Field(default=None, max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**63)


class JoinRequest(BaseModel):
    """Join a match: a seat number (the first free one if omitted) and a display name."""

    seat: int | None = Field(default=None, ge=0, lt=8)
    name: str | None = Field(default=None, max_length=64)


def _game_info(name: str) -> dict[str, Any]:
    entry = game_entry(name)
    return {
        "name": entry.name,
        "title": entry.title,
        "summary": entry.summary,
        "options": [
            {
                "name": o.name,
                "default": o.format(o.default),
                "allowed": o.describe_allowed(),
                "doc": o.doc,
                "choices": list(o.choices) or None,
            }
            for o in entry.options
        ],
    }


def create_app(database_url: str = DEFAULT_DATABASE_URL, bot_workers: int = 2) -> FastAPI:
    """Build the app on a database URL; ``bot_workers=0`` runs bots on threads instead."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        executor = make_executor(bot_workers)
        hub = Hub(store, executor)
        app.state.hub = hub
        resumed = await hub.resume()
        log.info("gameshelf server ready on %s; %d running matches resumed", database_url, resumed)
        try:
            yield
        finally:
            for runtime in hub.runtimes.values():
                if runtime.bot_task is not None:
                    runtime.bot_task.cancel()
            executor.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(
        title="gameshelf",
        version=__version__,
        lifespan=lifespan,
        description="Lobby and live play for Axiom, Rubik's Cage and AXIA. "
        "Live play runs over WebSocket at /ws/matches/{id}; see docs/server.md.",
    )

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Any:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            error = ServerError(
                "request/too-large", f"request bodies are limited to {MAX_BODY_BYTES} bytes"
            )
            return JSONResponse(error_body(error), status_code=413)
        return await call_next(request)

    @app.exception_handler(GameshelfError)
    async def _coded(_request: Request, error: GameshelfError) -> JSONResponse:
        return JSONResponse(error_body(error), status_code=http_status(error))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        body = error_body(ServerError("request/invalid", problems or "invalid request"))
        return JSONResponse(body, status_code=400)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    static = static_dir()
    if static is not None and (static / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=static / "assets"), name="assets")

    @app.get("/", include_in_schema=False, response_model=None)
    async def index() -> FileResponse | HTMLResponse:
        if static is not None:
            return FileResponse(static / "index.html")
        return HTMLResponse(
            "<!doctype html><title>gameshelf</title><h1>gameshelf server</h1>"
            "<p>API documentation: <a href='/docs'>/docs</a>. The browser table is not built: "
            "run <code>scripts/start.sh</code> (it builds <code>web/</code>).</p>"
        )

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        """Liveness check."""
        return {"status": "ok", "version": __version__}

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """Every game with its options."""
        return [_game_info(name) for name in available_games()]

    @app.get("/api/agents")
    async def agents() -> list[str]:
        """Bot names that can take a seat."""
        return sorted(AGENTS)

    @app.post("/api/matches", status_code=201)
    async def create_match(body: CreateMatchRequest, request: Request) -> dict[str, Any]:
        """Create a match from a game string and seats (default: you against random bots)."""
        hub = hub_of(request)
        seats = None if body.seats is None else [s.model_dump() for s in body.seats]
        runtime = await hub.create_match(body.game, seats, body.seed)
        return hub.summary(runtime)

    @app.get("/api/matches")
    async def list_matches(
        request: Request,
        status: Literal["open", "running", "finished"] | None = None,
        limit: int = Query(default=50, ge=1, le=500),
    ) -> list[dict[str, Any]]:
        """Matches, newest first: open (seats free), running or finished."""
        rows = await asyncio.to_thread(hub_of(request).store.list_matches, status, limit)
        return [
            {
                "id": r.id,
                "game": r.game,
                "status": r.status,
                "version": r.version,
                "created": r.created.isoformat(),
                "result": r.result,
            }
            for r in rows
        ]

    @app.get("/api/matches/{match_id}")
    async def get_match(match_id: str, request: Request) -> dict[str, Any]:
        """Public facts of one match (seats, status, result)."""
        hub = hub_of(request)
        return hub.summary(await hub.runtime(match_id))

    @app.post("/api/matches/{match_id}/join")
    async def join(match_id: str, body: JoinRequest, request: Request) -> dict[str, Any]:
        """Take a free seat; the answer holds the seat's secret token (keep it private)."""
        seat, token = await hub_of(request).join(match_id, body.seat, body.name)
        return {"match": match_id, "seat": seat, "token": token}

    @app.get("/api/matches/{match_id}/record")
    async def record(match_id: str, request: Request) -> dict[str, Any]:
        """The game record of a finished match (JSON, replayable with `gameshelf replay`)."""
        hub = hub_of(request)
        return hub.record(await hub.runtime(match_id)).to_json()

    @app.get("/play/{path:path}", include_in_schema=False, response_model=None)
    async def single_page(path: str) -> FileResponse | HTMLResponse:
        """Client-side routes of the browser table all load its index page."""
        return await index()

    @app.websocket("/ws/matches/{match_id}")
    async def live(websocket: WebSocket, match_id: str) -> None:
        await websocket.accept()
        await _serve_socket(hub_of(websocket), websocket, match_id)

    return app


async def _serve_socket(hub: Hub, websocket: WebSocket, match_id: str) -> None:
    send_lock = asyncio.Lock()

    async def send(message: dict[str, Any]) -> None:
        async with send_lock:
            await websocket.send_json(message)

    client = Client(send=send)
    runtime: Runtime | None = None
    try:
        hello = await _receive(websocket)
        runtime = await hub.runtime(match_id)
        if hello.get("type") != "hello":
            raise ServerError("request/invalid", 'the first message must be {"type": "hello"}')
        tokens = hello.get("tokens", [])
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise ServerError("request/invalid", "'tokens' must be a list of seat tokens")
        await hub.connect(runtime, client, tokens)
    except WebSocketDisconnect:
        return
    except GameshelfError as error:
        await send({"type": "error", **error_body(error)["error"]})
        await websocket.close(code=4000)
        return
    bucket = TokenBucket(RATE_BURST, RATE_PER_SECOND)
    try:
        while True:
            request_id = None
            try:
                message = await _receive(websocket)
                request_id = _request_id(message)  # so that even a refusal names its request
                if not bucket.take():
                    raise ServerError(
                        "request/rate-limited",
                        f"too many messages: at most {RATE_PER_SECOND:g} per second "
                        f"(bursts of {RATE_BURST:g}); this one was dropped",
                    )
                await _dispatch(hub, runtime, client, message, request_id)
            except GameshelfError as error:
                reply: dict[str, Any] = {"type": "error", **error_body(error)["error"]}
                if request_id is not None:
                    reply["id"] = request_id
                await send(reply)
            except WebSocketDisconnect:
                raise
            except Exception:  # a bug must cost one message, not the connection
                log.exception("unexpected error in match %s", match_id)
                await send(
                    {
                        "type": "error",
                        "code": "server/error",
                        "message": "the server could not handle this message",
                    }
                )
    except WebSocketDisconnect:
        pass
    finally:
        hub.disconnect(runtime, client)


class TokenBucket:
    """Per-connection rate limit: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, burst: float, rate: float) -> None:
        self.capacity = burst
        self.tokens = burst
        self.rate = rate
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _receive(websocket: WebSocket) -> dict[str, Any]:
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    text = frame.get("text")
    if text is None:
        raise ServerError("request/invalid", "binary frames are not accepted: send JSON text")
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ServerError("request/too-large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        message = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ServerError("request/invalid", f"message is not JSON: {exc.msg}") from None
    if not isinstance(message, dict):
        raise ServerError("request/invalid", "a message must be a JSON object")
    return message


def _request_id(message: dict[str, Any]) -> str | int | None:
    """The client's optional request id, echoed in the answer (``ack`` or the error's ``id``)."""
    value = message.get("id")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)) or len(str(value)) > 64:
        raise ServerError("request/invalid", "'id' must be a short string or integer")
    return value


def _int_field(message: dict[str, Any], name: str) -> int:
    value = message.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ServerError("request/invalid", f"'{name}' must be an integer")
    return value


async def _dispatch(
    hub: Hub,
    runtime: Runtime,
    client: Client,
    message: dict[str, Any],
    request_id: str | int | None,
) -> None:
    kind = message.get("type")
    ack = (client, request_id)
    if kind == "move":
        move = message.get("move")
        if not isinstance(move, str) or len(move) > 256:
            raise ServerError("request/invalid", "'move' must be notation text")
        await hub.play(
            runtime, client, _int_field(message, "seat"), move, _int_field(message, "version"), ack
        )
    elif kind == "undo":
        await hub.undo(
            runtime, client, _int_field(message, "seat"), _int_field(message, "version"), ack
        )
    elif kind == "sync":
        await client.send(hub.state_message(runtime, client, None) | {"ack": request_id})
    elif kind == "ping":
        await client.send({"type": "pong", "ack": request_id})
    else:
        raise ServerError(
            "request/invalid", f"unknown message type {kind!r}; expected move, undo, sync or ping"
        )
