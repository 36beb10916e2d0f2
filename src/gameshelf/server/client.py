"""A small synchronous client of the server, for scripts, bots run elsewhere and tests.

With a server running (so not a doctest)::

    lobby = Lobby("http://localhost:8000")
    match = lobby.create("cage", [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}])
    seat = lobby.join(match["id"])
    with SeatClient("http://localhost:8000", match["id"], [seat["token"]]) as table:
        state = table.wait_for_turn(seat["seat"])
        table.move(seat["seat"], state["seats"][str(seat["seat"])]["legal_moves"][0])
"""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from types import TracebackType
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


class ServerReplyError(RuntimeError):
    """The server answered with an error: its stable ``code`` and its ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Lobby:
    """The HTTP lobby: games, matches, joining, records."""

    def __init__(self, base_url: str, timeout: float = 10.0) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=timeout)

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.http.request(method, path, **kwargs)
        body = response.json()
        if response.is_error:
            error = body.get("error", {})
            raise ServerReplyError(
                error.get("code", str(response.status_code)), error.get("message", "")
            )
        return body

    def games(self) -> list[dict[str, Any]]:
        """Games and their options."""
        return list(self._call("GET", "/api/games"))

    def create(
        self, game: str, seats: list[dict[str, Any]] | None = None, seed: int | None = None
    ) -> dict[str, Any]:
        """Create a match; returns its summary (``id``, ``seats``...)."""
        body: dict[str, Any] = {"game": game}
        if seats is not None:
            body["seats"] = seats
        if seed is not None:
            body["seed"] = seed
        return dict(self._call("POST", "/api/matches", json=body))

    def join(
        self, match_id: str, seat: int | None = None, name: str | None = None
    ) -> dict[str, Any]:
        """Take a seat; returns ``{"seat", "token"}``."""
        return dict(
            self._call("POST", f"/api/matches/{match_id}/join", json={"seat": seat, "name": name})
        )

    def match(self, match_id: str) -> dict[str, Any]:
        """Public summary of a match."""
        return dict(self._call("GET", f"/api/matches/{match_id}"))

    def matches(self, status: str | None = None) -> list[dict[str, Any]]:
        """Matches, newest first."""
        params = {"status": status} if status else {}
        return list(self._call("GET", "/api/matches", params=params))

    def record(self, match_id: str) -> dict[str, Any]:
        """The JSON record of a finished match."""
        return dict(self._call("GET", f"/api/matches/{match_id}/record"))

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self.http.close()


class SeatClient:
    """A live connection to one match, holding zero (spectator) or more seats."""

    def __init__(
        self, base_url: str, match_id: str, tokens: list[str] | None = None, timeout: float = 20.0
    ) -> None:
        url = base_url.replace("http://", "ws://").replace("https://", "wss://")
        self.timeout = timeout
        self._stack = ExitStack()
        self.socket: ClientConnection = self._stack.enter_context(
            connect(f"{url}/ws/matches/{match_id}", open_timeout=timeout)
        )
        self.received: list[dict[str, Any]] = []
        self._next_id = 0
        self.state: dict[str, Any] = {}
        self.send({"type": "hello", "tokens": tokens or []})
        welcome = self.receive()
        if welcome.get("type") != "welcome":
            raise ServerReplyError(welcome.get("code", "?"), welcome.get("message", ""))
        self.seats: list[int] = welcome["seats"]
        self.receive()

    def __enter__(self) -> SeatClient:
        return self

    def __exit__(
        self, *_exc: tuple[type[BaseException] | None, BaseException | None, TracebackType | None]
    ) -> None:
        self.close()

    def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        self.socket.send(json.dumps(message))

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message (kept in ``received``; the latest state in ``state``)."""
        message: dict[str, Any] = json.loads(self.socket.recv(timeout or self.timeout))
        self.received.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    def wait_for(self, predicate: Any) -> dict[str, Any]:
        """Receive until a state satisfies ``predicate`` (the current one may already)."""
        if self.state and predicate(self.state):
            return self.state
        while True:
            message = self.receive()
            if message.get("type") == "state" and predicate(message):
                return message

    def wait_for_turn(self, seat: int) -> dict[str, Any]:
        """Wait until ``seat`` is to move or the game is over."""
        return self.wait_for(
            lambda s: (
                s["status"] == "finished" or (s["status"] == "running" and s["to_move"] == seat)
            )
        )

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message with a fresh request id and return the server's answer to it.

        A ``request/rate-limited`` answer is retried after a growing pause.
        """
        for attempt in range(1, 30):
            self._next_id += 1
            request_id = self._next_id
            self.send({**message, "id": request_id})
            while True:
                reply = self.receive()
                if reply.get("ack") == request_id or reply.get("id") == request_id:
                    break
            if reply.get("code") != "request/rate-limited":
                return reply
            time.sleep(0.05 * attempt)
        return reply

    def move(self, seat: int, move: str) -> dict[str, Any]:
        """Play ``move`` for ``seat`` at the current version; raise on an error reply."""
        reply = self.request(
            {"type": "move", "seat": seat, "move": move, "version": self.state["version"]}
        )
        if reply.get("type") == "error":
            raise ServerReplyError(reply["code"], reply["message"])
        return reply

    def close(self) -> None:
        """Close the connection."""
        self._stack.close()
