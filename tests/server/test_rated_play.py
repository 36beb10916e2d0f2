"""Rated play that cannot be gamed (docs/server.md, "Rated matches"; docs/decisions/016): no
hints or take-backs while a rated match runs, the abort rule, the first move's grace window,
the rated bank minimum, capped repeated pairings, rematches held to the create limit, and
names that only look like another's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gameshelf.server.accounts import AccountStore
from gameshelf.server.callers import same_origin
from gameshelf.server.client import SeatClient
from gameshelf.server.names import skeleton
from gameshelf.server.ratings import settle
from gameshelf.server.settings import ServerSettings
from gameshelf.server.store import Store

from .conftest import DATABASES, RunningServer, database_url
from .helpers import ROOMY
from .helpers import seated_accounts as _seated

PASSWORD = "correct horse battery"
HUMAN = {"kind": "human"}
FIVE_MINUTES = {"mode": "realtime", "minutes": 5, "increment_seconds": 0}


def _server(tmp_path: Path, kind: str, **changes: Any) -> RunningServer:
    return RunningServer(
        database_url(kind, tmp_path), ServerSettings(**{**ROOMY.__dict__, **changes})
    )


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningServer]:
    running = _server(tmp_path, request.param)
    yield running
    running.stop()


def _register(server: RunningServer, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=20.0)
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def _rated_pair(
    server: RunningServer, names: tuple[str, str]
) -> tuple[str, list[str], httpx.Client]:
    first, second = _register(server, names[0]), _register(server, names[1])
    body = {"game": "axiom", "seats": [HUMAN, HUMAN], "rated": True, "clock": FIVE_MINUTES}
    created = first.post("/api/matches", json=body)
    assert created.status_code == 201, created.text
    match = created.json()["id"]
    tokens = [
        c.post(f"/api/matches/{match}/join", json={}).json()["token"] for c in (first, second)
    ]
    return match, tokens, first


def test_no_hint_and_no_undo_while_a_rated_match_runs(server: RunningServer) -> None:
    ann = _register(server, "Ann")
    match = ann.post("/api/matches", json={"game": "axiom", "rated": True, "clock": FIVE_MINUTES})
    match_id = match.json()["id"]
    token = ann.post(f"/api/matches/{match_id}/join", json={}).json()["token"]
    with SeatClient(server.url, match_id, [token]) as table:
        state = table.wait_for_turn(0)
        assert state["seats"]["0"]["can_undo"] is False
    hint = ann.post(f"/api/matches/{match_id}/hint", json={"token": token})
    assert hint.status_code == 400 and hint.json()["error"]["code"] == "hint/not-allowed"
    assert "rated" in hint.json()["error"]["message"]


def test_a_resignation_before_every_first_move_aborts_and_rates_nothing(
    server: RunningServer,
) -> None:
    match, tokens, ann = _rated_pair(server, ("Ann", "Bea"))
    with SeatClient(server.url, match, tokens) as table:
        table.move(0, table.state["seats"]["0"]["legal_moves"][0])  # only Ann has moved
        reply = table.request({"type": "resign", "seat": 0})
        assert reply["status"] == "finished"
        assert reply["result"] is None and reply["result_text"].startswith("aborted")
    summary = ann.get(f"/api/matches/{match}").json()
    assert summary["result"] is None and "aborted" in summary["result_text"]
    for name in ("Ann", "Bea"):
        assert ann.get(f"/api/players/{name}").json()["ratings"] == []


def test_a_first_move_not_made_in_its_grace_window_aborts(tmp_path: Path) -> None:
    server = _server(tmp_path, "sqlite", first_move_grace_seconds=0.3)
    try:
        match, tokens, ann = _rated_pair(server, ("Ann", "Bea"))
        with SeatClient(server.url, match, tokens) as table:
            running = table.state["clock"]
            assert running["remaining_ms"] == [300_000, 300_000]  # the bank does not run
            end = table.wait_for(lambda s: s["status"] == "finished")
        assert end["result"] is None and "aborted" in end["result_text"]
        assert ann.get("/api/players/Ann").json()["ratings"] == []
    finally:
        server.stop()


def test_a_rated_bank_has_a_minimum(server: RunningServer) -> None:
    ann = _register(server, "Ann")
    second = {"mode": "realtime", "minutes": 1 / 60, "increment_seconds": 0}
    refused = ann.post("/api/matches", json={"game": "axiom", "rated": True, "clock": second})
    assert refused.status_code == 400 and "at least 60 s" in refused.json()["error"]["message"]
    unrated = ann.post("/api/matches", json={"game": "axiom", "clock": second})
    assert unrated.status_code == 201  # a casual blitz costs nobody rating


@pytest.mark.parametrize("kind", DATABASES)
def test_repeated_results_between_one_pair_stop_counting(kind: str, tmp_path: Path) -> None:
    store = Store(database_url(kind, tmp_path))
    try:
        accounts = AccountStore(store)
        counted = []
        for game in ("axiom", "axiom ", "axiom  ", "axiom   "):
            match_id = _seated(store, accounts, game, ["Ann", "Bea"])
            with store.session() as session:
                counted.append(bool(settle(session, match_id, [1.0, -1.0], pair_cap=3)))
        assert counted == [True, True, True, False]
    finally:
        store.close()


def test_a_rematch_chain_is_held_to_the_create_limit(tmp_path: Path) -> None:
    server = _server(tmp_path, "sqlite", creates_per_minute=1.0)  # a burst of 10, then none
    try:
        client = httpx.Client(base_url=server.url, timeout=20.0)
        match = client.post("/api/matches", json={"game": "axiom"}).json()["id"]
        token = client.post(f"/api/matches/{match}/join", json={}).json()["token"]
        codes = []
        for _ in range(12):
            with SeatClient(server.url, match, [token]) as table:
                seat = int(next(iter(table.state["seats"])))  # a rematch swaps the seats
                table.request({"type": "resign", "seat": seat})
                reply = table.request({"type": "rematch", "seat": seat})
            codes.append(reply.get("code"))
            if reply.get("type") != "rematch":
                break
            match = reply["next"]
        assert codes[:9] == [None] * 9  # the first create took one of the burst of 10
        assert codes[-1] == "request/rate-limited"
    finally:
        server.stop()


def test_look_alike_names_are_one_name(server: RunningServer) -> None:
    assert skeleton("раula") == skeleton("Paula") == skeleton("pau1a")
    assert skeleton("Саша") != "cawa"  # "ш" looks like no Latin letter: a name of its own
    _register(server, "paula")
    client = httpx.Client(base_url=server.url, timeout=20.0)
    twin = client.post("/api/account/register", json={"name": "раula", "password": PASSWORD})
    assert twin.status_code == 409 and twin.json()["error"]["code"] == "account/name-taken"
    match = client.post("/api/matches", json={"game": "axiom", "seats": [HUMAN, HUMAN]}).json()
    for name in ("раula", "bоt hard", "grееdy"):  # Cyrillic а, о, е
        guest = client.post(f"/api/matches/{match['id']}/join", json={"name": name})
        assert guest.status_code == 400, name
    long = client.post("/api/account/register", json={"name": "\ucc04" * 11, "password": PASSWORD})
    assert long.status_code == 400 and "folded" in long.json()["error"]["message"]
    assert (
        client.post("/api/account/login", json={"name": "PAULA", "password": PASSWORD}).status_code
        == 200
    )


def test_origin_and_connect_policy_name_only_this_server(server: RunningServer) -> None:
    assert same_origin("http://example.org", "example.org")
    assert same_origin("https://example.org:443", "example.org")
    assert not same_origin("http://example.org:8081", "example.org")
    assert not same_origin("http://example.org:8081", "example.org:8080")
    assert same_origin("http://example.org:8080", "example.org:8080")
    page = httpx.get(server.url + "/")
    policy = page.headers["content-security-policy"]
    connect = policy.split("connect-src ")[1].split(";")[0].split()
    host = server.url.split("://")[1]
    assert connect == ["'self'", f"ws://{host}"]
