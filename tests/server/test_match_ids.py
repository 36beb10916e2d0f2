"""A match id that no match can have (a NUL, a path, capitals, the wrong length) is refused at
the boundary by every route that takes one, in the path or in the body, on every database:
PostgreSQL refuses a NUL in text, so such an id must never reach it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from gameshelf.server.client import Lobby, SeatClient, ServerReplyError

from .conftest import RunningServer

ODD_IDS = [
    "\x00",
    "0123456789abcde\x00",
    "0" * 32,
    "ABCDEF0123456789",
    "0123456789abcdef\n",
    "z" * 200,
    "..",
]
"""Ids no match has; in a path each stays one segment (a "/" would make it another route)."""
BODY_ODD_IDS = [*ODD_IDS, "../etc", ""]
UNKNOWN = "0123456789abcdef"  # a well-formed id of no match
HUMAN = {"kind": "human"}


def in_path(match_id: str) -> str:
    """``match_id`` as a URL path segment (every byte escaped)."""
    return "".join(f"%{byte:02X}" for byte in match_id.encode())


def match_routes(server: RunningServer) -> list[tuple[str, str]]:
    """Every HTTP (method, path) of the app with a ``{match_id}`` in it, as its OpenAPI
    document lists them."""
    app: Any = server.server.config.app
    found = [
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        if "{match_id}" in path
        for method in operations
    ]
    assert len(found) >= 10  # the lookup itself must not come back empty
    return found


def error_code(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


def test_every_http_route_refuses_an_odd_id_in_its_path(server: RunningServer) -> None:
    for method, path in match_routes(server):
        for match_id in ODD_IDS:
            url = server.url + path.replace("{match_id}", in_path(match_id))
            response = httpx.request(method, url, json={} if method == "POST" else None)
            assert response.status_code == 404, (method, path, match_id, response.text)
            assert error_code(response) == "match/not-found"
            assert "16 hex digits" in response.json()["error"]["message"]


def test_the_websocket_refuses_an_odd_id_with_an_error_frame(server: RunningServer) -> None:
    for match_id in ODD_IDS:
        with pytest.raises(ServerReplyError) as caught:
            SeatClient(server.url, in_path(match_id), [])
        assert caught.value.code == "match/not-found"


def test_waiting_refuses_odd_ids_in_its_body(server: RunningServer, lobby: Lobby) -> None:
    match = lobby.create("cage", [HUMAN, HUMAN])
    token = lobby.join(match["id"])["token"]
    for match_id in BODY_ODD_IDS:
        seats = [{"match": match["id"], "token": token}, {"match": match_id, "token": "t"}]
        response = httpx.post(f"{server.url}/api/waiting", json={"seats": seats})
        assert response.status_code == 400, (match_id, response.text)
        assert error_code(response) == "request/invalid"
        assert "seats.1.match" in response.json()["error"]["message"]
    well_formed = [{"match": UNKNOWN, "token": "t"}]
    assert httpx.post(f"{server.url}/api/waiting", json={"seats": well_formed}).json() == []


def test_a_claim_refuses_odd_ids_in_its_body(server: RunningServer) -> None:
    with httpx.Client(base_url=server.url, timeout=20.0) as browser:
        made = browser.post(
            "/api/account/register", json={"name": "Ida", "password": "correct horse battery"}
        )
        assert made.status_code == 201, made.text
        for match_id in BODY_ODD_IDS:
            claim = browser.post(
                "/api/account/claim", json={"seats": [{"match": match_id, "token": "t"}]}
            )
            assert claim.status_code == 400 and error_code(claim) == "request/invalid", match_id
        unknown = browser.post(
            "/api/account/claim", json={"seats": [{"match": UNKNOWN, "token": "t"}]}
        )
        assert unknown.status_code == 403 and error_code(unknown) == "auth/bad-token"
