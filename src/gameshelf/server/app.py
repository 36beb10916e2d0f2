"""The ASGI app: a lobby over HTTP and live play over WebSocket (protocol: docs/server.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
import unicodedata
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from gameshelf import __version__
from gameshelf.agents import AGENTS
from gameshelf.agents.catalogue import agent_catalogue
from gameshelf.core.errors import GameshelfError
from gameshelf.core.registry import available_games, game_entry

from .bots import make_executor
from .db import Store, as_utc, utcnow
from .errors import ServerError, error_body, http_status
from .guard import GuardMiddleware, RateLimiter, SocketCounter
from .hub import Client, Hub, Runtime
from .settings import ServerSettings
from .vetting import CardSetCatalog, vet_network_game

log = logging.getLogger("gameshelf.server")

DEFAULT_DATABASE_URL = "sqlite:///gameshelf.sqlite3"
EVICT_EVERY_SECONDS = 30.0
NAME_RE = re.compile(r"bot\b|bot[:_\-]", re.IGNORECASE)


def static_dir() -> Path | None:
    """Where the built browser table lies (``$GAMESHELF_STATIC_DIR`` or ``server/static``)."""
    configured = os.environ.get("GAMESHELF_STATIC_DIR")
    folder = Path(configured) if configured else Path(__file__).parent / "static"
    return folder if (folder / "index.html").is_file() else None


STRICT = ConfigDict(strict=True, extra="forbid")


class SeatRequest(BaseModel):
    """A seat of a new match: a human (joins later) or a bot by name."""

    model_config = STRICT
    kind: Literal["human", "bot"]
    agent: str | None = Field(default=None, max_length=32)


class CreateMatchRequest(BaseModel):
    """A new match: a game string, its seats and an optional seed.

    A seed may be given only where nobody else can be hurt by it (no chance, or one human
    seat); otherwise the server draws a secret one and publishes its commitment.
    """

    model_config = STRICT
    game: str = Field(max_length=512, examples=["cage(players=2)"])
    seats: list[SeatRequest] | None = Field(default=None, max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**63)


class JoinRequest(BaseModel):
    """Join a match: a seat number (the first free one if omitted) and a display name."""

    model_config = STRICT
    seat: int | None = Field(default=None, ge=0, lt=8)
    name: str | None = Field(default=None, max_length=64)


class ReplayRequest(BaseModel):
    """Seat tokens whose views a replay should include, and whether to show every seat."""

    model_config = STRICT
    tokens: list[str] = Field(default_factory=list, max_length=8)
    all_seats: bool = False


def normalise_name(name: str | None) -> str | None:
    """A player's display name, normalised (NFKC, single spaces) and checked.

    Control, format (bidi) and private-use characters are refused, and so are names that would
    pass for a bot ("bot …", or a bot's name): bots are marked by the server, never by a name.
    """
    if name is None:
        return None
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        return None
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"):
            raise ServerError(
                "request/invalid",
                f"name: character U+{ord(char):04X} is not allowed in a player name",
            )
    if len(text) > 32:
        raise ServerError("request/invalid", "name: at most 32 characters")
    if NAME_RE.match(text) or text.lower() in AGENTS:
        raise ServerError(
            "request/invalid", f"name: {text!r} could be mistaken for a bot; choose another"
        )
    return text


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


def _client_address(connection: Request | WebSocket) -> str:
    client = connection.client
    return client.host if client is not None else "unknown"


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    bot_workers: int = 2,
    settings: ServerSettings | None = None,
    card_sets: dict[str, Path] | None = None,
) -> FastAPI:
    """Build the app on a database URL; ``bot_workers=0`` runs bots on threads instead.

    ``card_sets`` are the operator's extra AXIA card sets by name (``--card-set NAME=FILE``),
    validated here, at start-up; network clients can choose only these and ``standard``.
    """
    limits = settings or ServerSettings()
    catalog = CardSetCatalog(card_sets)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        executor = make_executor(bot_workers)
        hub = Hub(store, executor, limits, catalog, bot_workers)
        app.state.hub = hub
        resumed = await hub.resume()
        if hub.broken:
            log.warning("%d matches could not be loaded and were set aside", len(hub.broken))
        log.info("gameshelf server ready on %s; %d running matches resumed", database_url, resumed)
        evictor = asyncio.get_running_loop().create_task(_evict_forever(hub))
        try:
            yield
        finally:
            evictor.cancel()
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
        "Live play runs over WebSocket at /ws/matches/{id}; see docs/server.md. "
        "Limits and timeouts: docs/operations.md.",
    )
    app.state.settings = limits
    app.state.create_limiter = RateLimiter(
        limits.creates_per_minute, max(10.0, limits.creates_per_minute / 2)
    )
    app.state.join_limiter = RateLimiter(
        limits.joins_per_minute, max(20.0, limits.joins_per_minute / 2)
    )
    app.state.sockets = SocketCounter(limits.sockets_per_address)
    _install_error_handlers(app)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    def rate_limit(limiter: RateLimiter, request: Request, what: str) -> None:
        wait = limiter.take(_client_address(request))
        if wait > 0:
            raise ServerError(
                "request/rate-limited", f"too many {what} from your address; retry in {wait:.0f} s"
            )

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

    @app.get("/favicon.ico", include_in_schema=False, response_model=None)
    @app.get("/favicon.svg", include_in_schema=False, response_model=None)
    async def favicon() -> Response:
        for name in ("favicon.ico", "favicon.svg"):
            if static is not None and (static / name).is_file():
                return FileResponse(static / name)
        return Response(FALLBACK_ICON, media_type="image/svg+xml")

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        """Liveness check."""
        return {"status": "ok", "version": __version__}

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """Every game with its options."""
        return [_game_info(name) for name in available_games()]

    @app.get("/api/card-sets")
    async def card_sets_route() -> list[str]:
        """The AXIA card sets this server accepts for ``cards=`` (never a file path)."""
        return catalog.names()

    @app.get("/api/agents")
    async def agents(
        game: str | None = Query(default=None, max_length=512),
    ) -> list[dict[str, Any]]:
        """Bots that can take a seat, weakest first; with ``game``, only those fit for it."""
        loaded = None
        if game is not None:
            loaded = (
                await asyncio.to_thread(vet_network_game, game, catalog, limits.max_plies)
            ).game
        infos = await asyncio.to_thread(agent_catalogue, loaded)
        return [{"name": i.name, "strength": i.strength, "summary": i.summary} for i in infos]

    @app.post("/api/matches", status_code=201)
    async def create_match(body: CreateMatchRequest, request: Request) -> dict[str, Any]:
        """Create a match from a game string and seats (default: you against random bots)."""
        rate_limit(app.state.create_limiter, request, "new matches")
        hub = hub_of(request)
        seats = None if body.seats is None else [s.model_dump() for s in body.seats]
        runtime = await hub.create_match(body.game, seats, body.seed)
        return hub.summary(runtime)

    @app.get("/api/matches")
    async def list_matches(
        request: Request,
        status: Literal["open", "running", "finished", "broken"] | None = None,
        limit: int = Query(default=50, ge=1, le=500),
        idle_max: float | None = Query(default=None, gt=0, le=10**9),
    ) -> list[dict[str, Any]]:
        """Matches, newest first: open (seats free), running, finished (or set-aside ``broken``).

        ``idle_max`` (seconds) leaves out open and running matches idle longer than that.
        """
        idle_before = None if idle_max is None else utcnow() - timedelta(seconds=idle_max)
        rows = await asyncio.to_thread(
            hub_of(request).store.list_matches, status, limit, idle_before
        )
        now = utcnow()
        return [
            {
                "id": r.id,
                "game": r.game,
                "status": r.status,
                "version": r.version,
                "created": as_utc(r.created).isoformat(),
                "updated": as_utc(r.updated or r.created).isoformat(),
                "idle_seconds": round((now - as_utc(r.updated or r.created)).total_seconds(), 1),
                "result": r.result,
                "result_text": _result_text(hub_of(request), r.id),
            }
            for r in rows
        ]

    @app.get("/api/matches/{match_id}")
    async def get_match(match_id: str, request: Request) -> dict[str, Any]:
        """Public facts of one match (seats, status, result; the seed's commitment, and the
        seed itself once the game is over)."""
        hub = hub_of(request)
        return hub.summary(await hub.runtime(match_id))

    @app.post("/api/matches/{match_id}/join")
    async def join(match_id: str, body: JoinRequest, request: Request) -> dict[str, Any]:
        """Take a free seat; the answer holds the seat's secret token (keep it private)."""
        rate_limit(app.state.join_limiter, request, "joins")
        name = normalise_name(body.name)
        seat, token = await hub_of(request).join(match_id, body.seat, name)
        return {"match": match_id, "seat": seat, "token": token}

    @app.get("/api/matches/{match_id}/record")
    async def record(match_id: str, request: Request) -> dict[str, Any]:
        """The game record of a finished match (JSON, replayable with `gameshelf replay`)."""
        hub = hub_of(request)
        runtime = await hub.runtime(match_id)
        body = hub.record(runtime).to_json()
        body["seed_commitment"] = runtime.commitment
        body["seed_salt"] = runtime.extras.seed_salt
        return body

    async def replay(request: Request, match_id: str, tokens: list[str], all_seats: bool) -> Any:
        hub = hub_of(request)
        runtime = await hub.runtime(match_id)
        seats = hub.seats_of_tokens(runtime, tokens)
        hub.check_replay(runtime, all_seats)
        frames = await asyncio.to_thread(hub.replay_frames, runtime, seats, all_seats)
        return {
            "match": runtime.id,
            "game": runtime.display,
            "status": runtime.status,
            "frames": frames,
        }

    @app.get("/api/matches/{match_id}/replay")
    async def public_replay(
        match_id: str, request: Request, all_seats: bool = False
    ) -> dict[str, Any]:
        """Every ply's public view (and, once the game is over, with ``all_seats=true``, every
        seat's view), computed by the engine: what a replay draws."""
        result: dict[str, Any] = await replay(request, match_id, [], all_seats)
        return result

    @app.post("/api/matches/{match_id}/replay")
    async def seat_replay(match_id: str, body: ReplayRequest, request: Request) -> dict[str, Any]:
        """Like the GET, plus the views of the seats whose tokens are given (a player's own
        hidden cards in their own replay)."""
        result: dict[str, Any] = await replay(request, match_id, body.tokens, body.all_seats)
        return result

    @app.get("/api/matches/{match_id}/data")
    async def match_data(match_id: str, request: Request) -> dict[str, Any]:
        """Game data the match's views refer to (AXIA: the card set it was created with)."""
        hub = hub_of(request)
        return hub.match_data(await hub.runtime(match_id))

    @app.get("/play/{path:path}", include_in_schema=False, response_model=None)
    async def single_page(path: str) -> FileResponse | HTMLResponse:
        """Client-side routes of the browser table all load its index page."""
        return await index()

    @app.websocket("/ws/matches/{match_id}")
    async def live(websocket: WebSocket, match_id: str) -> None:
        address = _client_address(websocket)
        sockets: SocketCounter = websocket.app.state.sockets
        if not sockets.acquire(address):
            await websocket.accept()  # so the client reads a reason, not a bare 403
            busy = ServerError(
                "server/busy", f"at most {limits.sockets_per_address} connections per address"
            )
            await websocket.send_json(_error(busy))
            await websocket.close(code=CLOSE_TRY_LATER)
            return
        try:
            await websocket.accept()
            await _serve_socket(hub_of(websocket), websocket, match_id, limits, address)
        finally:
            sockets.release(address)

    app.add_middleware(GuardMiddleware, settings=limits)
    return app


FALLBACK_ICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    b'<rect x="2" y="2" width="12" height="12" rx="2" fill="#2a6"/></svg>'
)
CLOSE_BAD_HELLO = 4000
CLOSE_TOO_SLOW = 4008
CLOSE_TRY_LATER = 1013


def _result_text(hub: Hub, match_id: str) -> str | None:
    runtime = hub.runtimes.get(match_id)
    if runtime is None or not runtime.state.is_terminal():
        return None
    return runtime.state.result_text()


async def _evict_forever(hub: Hub) -> None:
    while True:
        await asyncio.sleep(min(EVICT_EVERY_SECONDS, hub.settings.idle_evict_seconds))
        evicted = await hub.evict_idle()
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
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
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


HTTP_CODES = {
    400: "request/invalid",
    404: "route/not-found",
    405: "request/method-not-allowed",
    413: "request/too-large",
}


async def _serve_socket(
    hub: Hub, websocket: WebSocket, match_id: str, limits: ServerSettings, address: str
) -> None:
    """One live connection: a hello within ``hello_timeout``, then messages until it closes.

    Outgoing messages go through the client's bounded outbox, written by a task of their own;
    a client that lets the outbox fill is closed with 4008, and nothing else waits for it.
    """
    client = Client(queue_size=limits.send_queue, address=address)
    writer = asyncio.get_running_loop().create_task(_write_outbox(websocket, client))
    runtime: Runtime | None = None
    try:
        runtime = await _hello(hub, websocket, match_id, client, limits)
        if runtime is not None:
            await _read_messages(hub, websocket, runtime, client, limits)
    finally:
        hub.disconnect(runtime, client)
        await _close(websocket, writer, client)


async def _hello(
    hub: Hub, websocket: WebSocket, match_id: str, client: Client, limits: ServerSettings
) -> Runtime | None:
    """Wait for the hello, check it and register the client; None if the socket must close."""
    try:
        text = await asyncio.wait_for(_receive_text(websocket), limits.hello_timeout)
        hello = parse_message(text, limits.max_message_bytes)
        if hello.get("type") != "hello":
            raise ServerError("request/invalid", 'the first message must be {"type": "hello"}')
        tokens = hello.get("tokens", [])
        if (
            not isinstance(tokens, list)
            or len(tokens) > 8
            or not all(isinstance(t, str) and len(t) <= 64 for t in tokens)
        ):
            raise ServerError("request/invalid", "'tokens' must be a list of seat tokens")
        runtime = await hub.runtime(match_id)
        await hub.connect(runtime, client, tokens)
        return runtime
    except TimeoutError:
        client.offer(
            _error(ServerError("request/timeout", f"no hello within {limits.hello_timeout:g} s"))
        )
    except WebSocketDisconnect:
        client.overflowed.set()  # nothing more can be sent
    except GameshelfError as error:
        client.offer(_error(error))
    return None


async def _read_messages(
    hub: Hub, websocket: WebSocket, runtime: Runtime, client: Client, limits: ServerSettings
) -> None:
    bucket = TokenBucket(limits.ws_rate_burst, limits.ws_rate_per_second)
    too_slow = asyncio.get_running_loop().create_task(client.overflowed.wait())
    try:
        while True:
            receiving = asyncio.ensure_future(_receive_text(websocket))
            done, _ = await asyncio.wait({receiving, too_slow}, return_when=asyncio.FIRST_COMPLETED)
            if receiving not in done:
                receiving.cancel()
                return
            try:
                text = receiving.result()
            except WebSocketDisconnect:
                return
            await _answer(hub, runtime, client, bucket, text, limits)
    finally:
        too_slow.cancel()


async def _answer(
    hub: Hub,
    runtime: Runtime,
    client: Client,
    bucket: TokenBucket,
    text: str | None,
    limits: ServerSettings,
) -> None:
    """Handle one message; every refusal is coded and names the request id when it has one."""
    request_id = None
    try:
        message = parse_message(text, limits.max_message_bytes)
        request_id = _request_id(message)  # so that even a refusal names its request
        if not bucket.take():
            raise ServerError(
                "request/rate-limited",
                f"too many messages: at most {limits.ws_rate_per_second:g} per second "
                f"(bursts of {limits.ws_rate_burst:g}); this one was dropped",
            )
        await _dispatch(hub, runtime, client, message, request_id)
    except GameshelfError as error:
        reply = _error(error)
        if request_id is not None:
            reply["id"] = request_id
        client.offer(reply)
    except Exception:  # a bug must cost one message, not the connection
        log.exception("unexpected error in match %s", runtime.id)
        client.offer(
            {
                "type": "error",
                "code": "server/error",
                "message": "the server could not handle this message",
            }
        )


def _error(error: GameshelfError) -> dict[str, Any]:
    return {"type": "error", **error_body(error)["error"]}


async def _write_outbox(websocket: WebSocket, client: Client) -> None:
    """Send the client's queued messages in order, until cancelled or the socket fails."""
    try:
        while True:
            message = await client.outbox.get()
            await websocket.send_text(json.dumps(message, ensure_ascii=True))
    except (WebSocketDisconnect, RuntimeError, OSError):
        client.overflowed.set()


async def _close(websocket: WebSocket, writer: asyncio.Task[None], client: Client) -> None:
    """Flush what is queued (briefly) and close; a client that stopped reading gets 4008."""
    slow = client.overflowed.is_set() and not client.outbox.empty()
    if not slow:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_drained(client), 2.0)
    writer.cancel()
    code = CLOSE_TOO_SLOW if client.outbox.full() else CLOSE_BAD_HELLO
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code=code), 2.0)


async def _drained(client: Client) -> None:
    while not client.outbox.empty():
        await asyncio.sleep(0.01)


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


async def _receive_text(websocket: WebSocket) -> str | None:
    """The next frame's text (``None`` for a binary frame); raises on disconnect."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    text: str | None = frame.get("text")
    return text


MAX_DEPTH = 16
MAX_INT_DIGITS = 20


def parse_message(text: str | None, max_bytes: int) -> dict[str, Any]:
    """A client's JSON message, checked before and after parsing; every problem is coded.

    Refused: binary frames, oversized text, nesting deeper than 16, integers of more than 20
    digits, non-finite numbers, lone surrogates (they cannot be sent back as UTF-8), non-objects.
    """
    if text is None:
        raise ServerError("request/invalid", "binary frames are not accepted: send JSON text")
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ServerError("request/too-large", f"messages are limited to {max_bytes} bytes")
    if _nesting(text) > MAX_DEPTH:
        raise ServerError("request/invalid", f"message nests deeper than {MAX_DEPTH} levels")
    try:
        message = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ServerError("request/invalid", f"message is not JSON: {exc.msg}") from None
    except (ValueError, RecursionError):
        raise ServerError("request/invalid", "message is not acceptable JSON") from None
    if not isinstance(message, dict):
        raise ServerError("request/invalid", "a message must be a JSON object")
    if _has_surrogate(message):
        raise ServerError("request/invalid", "message text holds a lone surrogate (not UTF-8)")
    return message


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ServerError("request/invalid", f"integers are limited to {MAX_INT_DIGITS} digits")
    return int(text)


def _no_constant(text: str) -> Any:
    raise ServerError("request/invalid", f"{text} is not a JSON number")


def _nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


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
        client.offer(hub.state_message(runtime, client, None) | {"ack": request_id})
    elif kind == "ping":
        client.offer({"type": "pong", "ack": request_id})
    else:
        shown = repr(kind)[:40] if isinstance(kind, str) else type(kind).__name__
        raise ServerError(
            "request/invalid", f"unknown message type {shown}; expected move, undo, sync or ping"
        )
