"""Live play over WebSocket: one session per connection (protocol: docs/server.md).

A session waits for a ``hello`` (within the hello timeout), then answers frames until the socket
closes. Every frame is parsed defensively (size, nesting, number length, surrogates) and then
validated against the typed contract (:data:`gameshelf.server.contract.ClientFrame`); every
refusal is coded. Outgoing frames go through the client's bounded outbox, written by a task of
their own, so nothing the server does waits on a client's socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from gameshelf.core.errors import GameshelfError

from . import frames, social
from .contract import (
    CLIENT_FRAMES,
    ErrorFrame,
    MoveFrame,
    PingFrame,
    PongFrame,
    ResignFrame,
    SyncFrame,
    UndoFrame,
)
from .errors import ServerError, error_body
from .hub import Hub
from .match import Match
from .outbox import Client
from .settings import ServerSettings

log = logging.getLogger("gameshelf.server")

CLOSE_BAD_HELLO = 4000
CLOSE_TOO_SLOW = 4008
CLOSE_TRY_LATER = 1013


async def serve_socket(
    hub: Hub, websocket: WebSocket, match_id: str, limits: ServerSettings, address: str
) -> None:
    """One live connection: a hello within ``hello_timeout``, then messages until it closes.

    Outgoing messages go through the client's bounded outbox, written by a task of their own;
    a client that lets the outbox fill is closed with 4008, and nothing else waits for it.
    """
    client = Client(queue_size=limits.send_queue, address=address)
    writer = asyncio.get_running_loop().create_task(_write_outbox(websocket, client))
    match: Match | None = None
    try:
        match = await _hello(hub, websocket, match_id, client, limits)
        if match is not None:
            await _read_messages(hub, websocket, match, client, limits)
    finally:
        if match is not None:
            match.clients.discard(client)
            match.touched = hub.time.monotonic()
        await _close(websocket, writer, client)


async def _hello(
    hub: Hub, websocket: WebSocket, match_id: str, client: Client, limits: ServerSettings
) -> Match | None:
    """Wait for the hello, check it and register the client; None if the socket must close."""
    try:
        text = await asyncio.wait_for(_receive_text(websocket), limits.hello_timeout)
        message = parse_message(text, limits.max_message_bytes)
        if message.get("type") != "hello":
            raise ServerError("request/invalid", 'the first message must be {"type": "hello"}')
        hello = validate_frame(message)
        match = await hub.sync.current(match_id)  # caught up: never a version behind
        await connect(hub, match, client, list(hello.tokens))
        await social.on_connect(hub, match, client)
        return match
    except TimeoutError:
        client.send(
            error_frame(
                ServerError("request/timeout", f"no hello within {limits.hello_timeout:g} s")
            )
        )
    except WebSocketDisconnect:
        client.overflowed.set()  # nothing more can be sent
    except GameshelfError as error:
        client.send(error_frame(error))
    return None


async def _read_messages(
    hub: Hub, websocket: WebSocket, match: Match, client: Client, limits: ServerSettings
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
            await _answer(hub, match, client, bucket, text, limits)
    finally:
        too_slow.cancel()


async def _answer(
    hub: Hub,
    match: Match,
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
        await _dispatch(hub, match, client, validate_frame(message), request_id)
    except GameshelfError as error:
        client.send(error_frame(error, request_id))
    except Exception:  # a bug must cost one message, not the connection
        log.exception("unexpected error in match %s", match.id)
        failure = ServerError("server/error", "the server could not handle this message")
        client.send(error_frame(failure, request_id))


def error_frame(error: GameshelfError, request_id: str | int | None = None) -> ErrorFrame:
    """A coded refusal as a frame, naming the request it answers when it had an id."""
    frame = ErrorFrame(type="error", **error_body(error)["error"])
    if request_id is not None:
        frame.id = request_id
    return frame


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


def validate_frame(message: dict[str, Any]) -> Any:
    """The message as a typed client frame (``contract.ClientFrame``), or a coded refusal."""
    try:
        return CLIENT_FRAMES.validate_python(message)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            if item["type"] in ("union_tag_invalid", "union_tag_not_found"):
                return _unknown_type()
            where = ".".join(str(p) for p in item["loc"][1:]) or "message"
            problems.append(f"{where}: {item['msg']}")
        raise ServerError("request/invalid", "; ".join(problems)[:300]) from None


def _unknown_type() -> Any:
    raise ServerError(
        "request/invalid",
        "unknown message type; expected hello, move, undo, resign, sync, ping, chat, mute"
        " or rematch",
    )


async def _dispatch(
    hub: Hub, match: Match, client: Client, frame: Any, request_id: str | int | None
) -> None:
    ack = (client, request_id)
    if isinstance(frame, MoveFrame):
        await hub.round.play(match, client, frame.seat, frame.move, frame.version, ack)
    elif isinstance(frame, UndoFrame):
        await hub.round.undo(match, client, frame.seat, frame.version, ack)
    elif isinstance(frame, ResignFrame):
        await hub.round.resign(match, client, frame.seat, ack)
    elif isinstance(frame, SyncFrame):
        state = frames.state_frame(match, client.seats, None, hub.time.now())
        state.ack = request_id
        client.send(state)
    elif isinstance(frame, PingFrame):
        client.send(PongFrame(type="pong", ack=request_id))
    elif social.handles(frame):
        await social.dispatch(hub, match, client, frame, request_id)
    else:
        raise ServerError("request/invalid", "hello is only the first message of a connection")


async def connect(hub: Hub, match: Match, client: Client, tokens: list[str]) -> None:
    """Register a connection, proving its seats by token, and send it the welcome and the
    state. Spectators and seated connections are counted apart, each up to the cap: a gallery
    of strangers must never keep the players out of their own match."""
    try:
        seats = seats_of_tokens(match, tokens)
    except ServerError:
        if not hub.sync.shared:
            raise
        await hub.sync.refresh_seats(match.id)  # joined through another process just now
        seats = seats_of_tokens(match, tokens)
    cap = hub.settings.sockets_per_match
    alike = sum(1 for other in match.clients if bool(other.seats) == bool(seats))
    if alike >= cap:
        who = "players' connections" if seats else "spectators"
        raise ServerError("server/busy", f"match {match.id} already has {cap} {who}")
    client.seats = seats
    match.clients.add(client)
    match.touched = hub.time.monotonic()
    client.send(frames.welcome(match, client))
    client.send(frames.state_frame(match, client.seats, None, hub.time.now()))


def seats_of_tokens(match: Match, tokens: list[str]) -> set[int]:
    """The seats these tokens prove (a token of no seat is refused)."""
    seats = set()
    for token in tokens:
        seat = match.seat_of_token(token)
        if seat is None:
            raise ServerError("auth/bad-token", "a token does not match any seat of this match")
        seats.add(seat)
    return seats
