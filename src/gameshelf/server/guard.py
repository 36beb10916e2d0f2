"""The server's outer defences: bounded request bodies, header and keep-alive timeouts, security
headers, per-address rate limits and socket counts, and the uvicorn configuration that uses them.

These sit below the routes, so no route can forget them: a body is counted as it is read (a
chunked body cannot slip past a ``Content-Length`` check), and a connection that never finishes
its headers is closed after ``header_timeout`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import OrderedDict
from typing import Any

import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.h11_impl import H11Protocol

from .logs import log_config
from .settings import ServerSettings

Scope = dict[str, Any]
Message = dict[str, Any]

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src {connect}; font-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)
"""The pages' policy; ``{connect}`` is this server only (:func:`connect_sources`)."""
HOST_HEADER = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
DOCS_POLICY = (  # FastAPI's /docs and /redoc load their script and styles from a CDN
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
    "https://fastapi.tiangolo.com; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def connect_sources(scope: Scope) -> str:
    """Where a page may connect: this server, over HTTP and its WebSocket, and nowhere else
    (``'self'`` alone does not cover ``ws:`` in every browser, so the socket's origin is
    named from the request's ``Host``; a malformed one gets ``'self'`` only)."""
    host = ""
    for name, value in scope.get("headers", []):
        if name == b"host":
            host = value.decode("latin-1")
    if not HOST_HEADER.fullmatch(host):
        return "'self'"
    socket = "wss" if scope.get("scheme") == "https" else "ws"
    return f"'self' {socket}://{host}"


def error_bytes(code: str, message: str) -> bytes:
    """A coded error body, the same shape every refusal has."""
    return json.dumps({"error": {"code": code, "message": message}}).encode()


class GuardMiddleware:
    """ASGI middleware: HTTP bodies read with a byte limit and a deadline; security headers."""

    def __init__(self, app: Any, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] in ("/docs", "/redoc"):
            policy = DOCS_POLICY
        else:
            policy = PAGE_POLICY.format(connect=connect_sources(scope))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.extend(SECURITY_HEADERS)
                headers.append((b"content-security-policy", policy.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            body = await asyncio.wait_for(self._read_body(receive), self.settings.body_timeout)
        except _TooLarge:
            await _reply(
                send_with_headers,
                413,
                "request/too-large",
                f"request bodies are limited to {self.settings.max_body_bytes} bytes",
            )
            return
        except TimeoutError:
            await _reply(
                send_with_headers,
                408,
                "request/timeout",
                f"the request body did not arrive within {self.settings.body_timeout:g} s",
            )
            return
        except _Disconnected:
            return
        await self.app(scope, _replay(body, receive), send_with_headers)

    async def _read_body(self, receive: Any) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.settings.max_body_bytes:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class _TooLarge(Exception):
    pass


class _Disconnected(Exception):
    pass


def _replay(body: bytes, receive: Any) -> Any:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        later: Message = await receive()  # later: the disconnect, when it comes
        return later

    return replayed


async def _reply(send: Any, status: int, code: str, message: str) -> None:
    body = error_bytes(code, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class RateLimiter:
    """Token buckets per client address (``rate`` per minute, ``burst`` at once), bounded in
    memory: the least recently seen addresses are forgotten past ``max_addresses``."""

    def __init__(self, per_minute: float, burst: float, max_addresses: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.max_addresses = max_addresses
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, address: str) -> float:
        """Spend one token for ``address``: 0 if allowed, else seconds until the next token."""
        now = time.monotonic()
        tokens, stamp = self.buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if tokens >= 1:
            self.buckets[address] = (tokens - 1, now)
            wait = 0.0
        else:
            self.buckets[address] = (tokens, now)
            wait = (1 - tokens) / self.rate if self.rate > 0 else 60.0
        while len(self.buckets) > self.max_addresses:
            self.buckets.popitem(last=False)
        return wait


class SocketCounter:
    """Open WebSockets per address."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def acquire(self, address: str) -> bool:
        """Count one more socket for ``address``; False (nothing counted) at the limit."""
        count = self.open.get(address, 0)
        if count >= self.limit:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        """Count one socket of ``address`` closed."""
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on request headers.

    uvicorn times out idle keep-alive connections but not a client that sends half a request
    line and waits: here every request's headers must be complete within ``header_timeout``.
    """

    header_timeout = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            self._disarm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        self._disarm_header_timer()
        loop = asyncio.get_running_loop()
        self._header_timer: asyncio.TimerHandle | None = loop.call_later(
            self.header_timeout, self._headers_too_slow
        )

    def _disarm_header_timer(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        transport = self.transport
        # After a WebSocket upgrade the transport belongs to the WebSocket protocol: leave it.
        if transport.get_protocol() is self and not transport.is_closing():
            cycle = self.cycle
            if cycle is None or cycle.response_complete:
                transport.close()


def uvicorn_config(
    app: Any,
    settings: ServerSettings,
    host: str,
    port: int,
    log_level: str = "info",
    trusted_proxies: str | None = None,
    server_logs: bool = True,
) -> uvicorn.Config:
    """The one uvicorn configuration of the server (the CLI and the test server share it).

    ``server_logs`` also prints the ``gameshelf`` loggers' lines (see :mod:`.logs`); a server
    embedded in another program (the tests') leaves that program's logging alone.

    ``X-Forwarded-For`` is believed only from ``trusted_proxies`` (comma-separated addresses):
    otherwise any client could name itself another address and dodge the per-address limits.
    """
    protocol = type(
        "GuardedH11", (GuardedH11Protocol,), {"header_timeout": settings.header_timeout}
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(log_level) if server_logs else LOGGING_CONFIG,
        http=protocol,
        ws_max_size=settings.max_frame_bytes,
        timeout_keep_alive=max(1, int(settings.keep_alive_timeout)),
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=trusted_proxies or "127.0.0.1",
    )
