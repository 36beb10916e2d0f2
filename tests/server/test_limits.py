"""Limits: message size, rate per connection, HTTP body size — each with its own code."""

from __future__ import annotations

import httpx

from gameshelf.server.client import Lobby, SeatClient

from .conftest import RunningServer


def test_a_flood_of_messages_is_rate_limited_and_the_connection_survives(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("cage", [{"kind": "human"}, {"kind": "human"}])
    token = lobby.join(match["id"])["token"]
    with SeatClient(server.url, match["id"], [token]) as table:
        for index in range(120):
            table.send({"type": "ping", "id": index})
        replies = [table.receive() for _ in range(120)]
        limited = [r for r in replies if r.get("code") == "request/rate-limited"]
        pongs = [r for r in replies if r.get("type") == "pong"]
        assert limited and pongs and len(limited) + len(pongs) == 120
        assert "per second" in limited[0]["message"]


def test_oversized_http_bodies_are_refused_with_413(server: RunningServer) -> None:
    body = b'{"game": "cage", "padding": "' + b"x" * 70_000 + b'"}'
    response = httpx.post(
        f"{server.url}/api/matches", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request/too-large"
    assert httpx.get(f"{server.url}/api/matches").json() == []


def test_a_rate_limited_request_is_answered_with_its_own_id(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("cage", [{"kind": "human"}, {"kind": "human"}])
    token = lobby.join(match["id"])["token"]
    with SeatClient(server.url, match["id"], [token]) as table:
        for index in range(60):
            table.send({"type": "ping", "id": f"flood-{index}"})
        replies = [table.receive() for _ in range(60)]
        refused = [r for r in replies if r.get("code") == "request/rate-limited"]
        assert refused and all(str(r["id"]).startswith("flood-") for r in refused)
        # The client's own request() waits out the limit and still gets its answer.
        assert table.request({"type": "ping"})["type"] == "pong"
