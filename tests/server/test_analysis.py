"""The analysis board on the server: finished matches only, AXIA one seat at a time from its own
view, hints only on your turn against bots, the replay rate limit, one computation per match."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

import gameshelf
from gameshelf.server.bots import SearchCancelled, hint_move
from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.routes import analysis as analysis_routes
from gameshelf.server.routes.analysis import hint_refusal
from gameshelf.server.store import SeatInfo
from gameshelf.server.work import scheduler_for

from .conftest import DATABASES, GENEROUS, RunningServer, database_url
from .helpers import play_to_end

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "agent": "random"}
QUICK = replace(GENEROUS, bot_move_seconds=0.05)
"""Analysis and hints think at most the pool's cap per decision: kept short here."""


@pytest.fixture(params=DATABASES)
def quick(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningServer]:
    running = RunningServer(database_url(request.param, tmp_path), QUICK)
    yield running
    running.stop()


@pytest.fixture
def client(quick: RunningServer) -> Iterator[Lobby]:
    lobby = Lobby(quick.url)
    yield lobby
    lobby.close()


def finished(lobby: Lobby, game: str, seed: int) -> dict[str, Any]:
    match = lobby.create(game, [RANDOM] * gameshelf.load(game).spec.num_players, seed=seed)
    deadline = time.monotonic() + 60
    while lobby.match(match["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return match


def kept(running: RunningServer, kind: str) -> list[tuple[Any, ...]]:
    """The keys of the answers of ``kind`` that the server's work scheduler keeps."""
    work = scheduler_for(running.server.config.app.state.hub)
    return [key for key in work.cache if isinstance(key, tuple) and key[0] == kind]


def error(reply: httpx.Response) -> str:
    code: str = reply.json()["error"]["code"]
    return code


def test_a_finished_cage_match_is_analysed_once(client: Lobby, quick: RunningServer) -> None:
    match = finished(client, "cage(players=2,stock=3:3)", seed=4)
    url = f"{quick.url}/api/matches/{match['id']}/analysis"
    first = httpx.get(url, timeout=60)
    assert first.status_code == 200, first.text
    analysis = first.json()
    record = client.record(match["id"])
    assert analysis["seat"] is None and analysis["seconds_per_ply"] == 0.05
    assert [p["ply"] for p in analysis["plies"]] == list(range(len(record["moves"])))
    for ply, move in zip(analysis["plies"], record["moves"], strict=True):
        assert ply["played"] == move["move"] and ply["mover"] == move["player"]
        assert 1 <= len(ply["best"]) <= 3
        assert all(0 <= b["value"] <= 1 and b["pv"][0] == b["move"] for b in ply["best"])
        assert ply["label"] in (None, "inaccuracy", "mistake", "blunder")
    again = httpx.get(url, timeout=60).json()
    assert again == analysis  # from the cache: one computation per match
    assert kept(quick, "analysis") == [("analysis", match["id"], None, 0.05)]
    seat1 = httpx.get(url, params={"seat": 1}, timeout=60).json()
    assert seat1["seat"] == 1
    assert seat1["plies"] == [p for p in analysis["plies"] if p["mover"] == 1]
    assert kept(quick, "analysis") == [("analysis", match["id"], None, 0.05)]  # not recomputed


def test_only_finished_matches_are_analysed(client: Lobby, quick: RunningServer) -> None:
    match = client.create("cage", [HUMAN, RANDOM], seed=1)
    token = client.join(match["id"])["token"]
    url = f"{quick.url}/api/matches/{match['id']}/analysis"
    refused = httpx.get(url)
    assert refused.status_code == 409 and error(refused) == "match/not-finished"
    refused = httpx.post(url, json={"token": token})
    assert refused.status_code == 409 and error(refused) == "match/not-finished"
    missing = httpx.get(f"{quick.url}/api/matches/nosuchmatch/analysis")
    assert missing.status_code == 404


def test_axia_is_analysed_per_seat_from_its_own_view(client: Lobby, quick: RunningServer) -> None:
    match = client.create("axia(players=2)", [HUMAN, RANDOM], seed=3)
    token = client.join(match["id"])["token"]
    with SeatClient(quick.url, match["id"], [token]) as table:
        play_to_end(table, seed=2)
    url = f"{quick.url}/api/matches/{match['id']}/analysis"
    refused = httpx.get(url)
    assert refused.status_code == 400 and "one seat at a time" in refused.json()["error"]["message"]
    mine = httpx.post(url, json={"token": token}, timeout=120)
    assert mine.status_code == 200, mine.text
    body = mine.json()
    assert body["seat"] == 0 and body["plies"]
    assert all(p["mover"] == 0 for p in body["plies"])
    assert all(b["solved"] is None for p in body["plies"] for b in p["best"])
    record = client.record(match["id"])
    own = [i for i, m in enumerate(record["moves"]) if m["player"] == 0]
    assert [p["ply"] for p in body["plies"]] == own
    spectator = httpx.get(url, params={"seat": 0}, timeout=120).json()
    assert spectator == body  # the same analysis (cached by match and seat)
    other = httpx.get(url, params={"seat": 1}, timeout=120).json()
    assert other["seat"] == 1 and all(p["mover"] == 1 for p in other["plies"])
    forged = httpx.post(url, json={"token": "not-a-token"})
    assert forged.status_code == 403 and error(forged) == "auth/bad-token"
    bad_seat = httpx.get(url, params={"seat": 2})
    assert bad_seat.status_code == 400


def test_a_hint_on_your_turn_against_bots(client: Lobby, quick: RunningServer) -> None:
    match = client.create("cage", [HUMAN, RANDOM], seed=5)
    token = client.join(match["id"])["token"]
    url = f"{quick.url}/api/matches/{match['id']}/hint"
    with SeatClient(quick.url, match["id"], [token]) as table:
        state = table.wait_for_turn(0)
        reply = httpx.post(url, json={"token": token}, timeout=30)
        assert reply.status_code == 200, reply.text
        hint = reply.json()
        assert hint["seat"] == 0 and hint["ply"] == state["plies"]
        assert hint["best"]["move"] in state["seats"]["0"]["legal_moves"]
        table.move(0, hint["best"]["move"])  # the hint is a move the server accepts
        play_to_end(table, seed=3)
    over = httpx.post(url, json={"token": token})
    assert over.status_code == 400 and error(over) == "hint/not-allowed"
    assert "running" in over.json()["error"]["message"]
    forged = httpx.post(url, json={"token": "forged"})
    assert forged.status_code == 403


def test_no_hint_with_another_human_at_the_table(client: Lobby, quick: RunningServer) -> None:
    match = client.create("cage", [HUMAN, HUMAN], seed=5)
    first = client.join(match["id"])["token"]
    client.join(match["id"])
    reply = httpx.post(f"{quick.url}/api/matches/{match['id']}/hint", json={"token": first})
    assert reply.status_code == 400 and error(reply) == "hint/not-allowed"
    assert "against bots" in reply.json()["error"]["message"]


def test_hint_rules() -> None:
    """Only on the asking seat's turn, only while running, only when every other seat is a bot."""
    state = gameshelf.load("cage(players=3)").new_initial_state()  # seat 0 to move

    def runtime(kinds: list[str], status: str = "running") -> Any:
        seats = [
            SeatInfo(i, kind, "random" if kind == "bot" else None, None, None)
            for i, kind in enumerate(kinds)
        ]
        return SimpleNamespace(seats=seats, status=status, state=state, rated=False)

    assert hint_refusal(runtime(["human", "bot", "bot"]), 0) is None
    assert hint_refusal(runtime(["bot", "human", "bot"]), 1) == "a hint is given only on your turn"
    assert "against bots" in str(hint_refusal(runtime(["human", "human", "bot"]), 0))
    assert "against bots" in str(hint_refusal(runtime(["human"]), 0))
    assert "running" in str(hint_refusal(runtime(["human", "bot", "bot"], "open"), 0))


def test_analysis_and_hints_are_rate_limited_like_replays(tmp_path: Path) -> None:
    settings = replace(QUICK, replays_per_minute=1.0)  # a burst of 10, then one a minute
    running = RunningServer(database_url("sqlite", tmp_path), settings)
    try:
        lobby = Lobby(running.url)
        match = lobby.create("cage", [HUMAN, RANDOM], seed=1)
        url = f"{running.url}/api/matches/{match['id']}"
        codes = [error(httpx.get(f"{url}/analysis")) for _ in range(10)]
        assert codes == ["match/not-finished"] * 10
        assert error(httpx.get(f"{url}/analysis")) == "request/rate-limited"
        limited = httpx.post(f"{url}/hint", json={"token": "x"})
        assert limited.status_code == 429 and error(limited) == "request/rate-limited"
        assert error(httpx.get(f"{url}/replay")) == "request/rate-limited"  # one budget
        lobby.close()
    finally:
        running.stop()


def test_a_failed_analysis_is_a_clear_error_and_not_kept(
    client: Lobby, quick: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = finished(client, "cage(players=2,stock=3:3)", seed=2)
    url = f"{quick.url}/api/matches/{match['id']}/analysis"

    def broken(*args: object) -> None:
        raise RuntimeError("the worker died")

    monkeypatch.setattr(analysis_routes, "analyse_match", broken)
    failed = httpx.get(url, timeout=60)
    assert failed.status_code == 503 and error(failed) == "server/unavailable"
    assert not kept(quick, "analysis")
    monkeypatch.undo()
    assert httpx.get(url, timeout=60).status_code == 200


def test_the_same_hint_is_computed_once(
    client: Lobby, quick: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[bytes] = []

    def counted(snapshot: bytes, seed: int, seconds: float) -> dict[str, Any]:
        searched.append(snapshot)
        return hint_move(snapshot, seed, seconds)

    monkeypatch.setattr(analysis_routes, "hint_move", counted)
    match = client.create("cage", [HUMAN, RANDOM], seed=5)
    token = client.join(match["id"])["token"]
    url = f"{quick.url}/api/matches/{match['id']}/hint"
    with SeatClient(quick.url, match["id"], [token]) as table:
        table.wait_for_turn(0)
        hints = [httpx.post(url, json={"token": token}, timeout=30) for _ in range(3)]
    assert all(reply.status_code == 200 for reply in hints), hints[0].text
    assert hints[0].json() == hints[1].json() == hints[2].json()
    assert len(searched) == 1 and len(kept(quick, "hint")) == 1


class EndlessAnalysis:
    """An analysis that runs until the server stops it in its worker (or the test ends)."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.stopped = threading.Event()
        self.release = threading.Event()

    def __call__(self, *_args: object) -> list[dict[str, Any]]:
        self.started.set()
        try:
            while not self.release.wait(0.005):  # a search's loop: stoppable between steps
                pass
        except SearchCancelled:
            self.stopped.set()
            raise
        return []


def test_a_client_that_hangs_up_stops_its_analysis_in_the_worker(
    client: Lobby, quick: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = finished(client, "cage(players=2,stock=3:3)", seed=6)
    endless = EndlessAnalysis()
    monkeypatch.setattr(analysis_routes, "analyse_match", endless)
    server = urlsplit(quick.url)
    host, port = server.hostname or "127.0.0.1", server.port or 80
    request = f"GET /api/matches/{match['id']}/analysis HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n"
    try:
        with socket.create_connection((host, port)) as raw:
            raw.sendall(request.encode())
            assert endless.started.wait(timeout=30)
        # the connection is closed: the client has left
        assert endless.stopped.wait(timeout=30), "the analysis ran on after its client left"
        assert not kept(quick, "analysis")
    finally:
        endless.release.set()
    monkeypatch.undo()
    url = f"{quick.url}/api/matches/{match['id']}/analysis"
    assert httpx.get(url, timeout=60).status_code == 200  # asked again: computed afresh


def test_an_address_is_held_to_its_seconds_of_search(tmp_path: Path) -> None:
    settings = replace(QUICK, work_seconds_per_minute=0.001, work_seconds_burst=0.05)
    running = RunningServer(database_url("sqlite", tmp_path), settings)
    lobby = Lobby(running.url)
    try:
        first, second = (finished(lobby, "cage(players=2,stock=3:3)", seed=s) for s in (7, 8))
        url = f"{running.url}/api/matches/{{}}/analysis"
        assert httpx.get(url.format(first["id"]), timeout=60).status_code == 200
        refused = httpx.get(url.format(second["id"]), timeout=60)
        assert refused.status_code == 429 and error(refused) == "request/rate-limited"
        message = refused.json()["error"]["message"]
        assert "address 127.0.0.1 has used its search budget" in message
        assert "0.001 s of search a minute, at most 0.05 s at once" in message
        again = httpx.get(url.format(first["id"]), params={"seat": 1}, timeout=60)
        assert again.status_code == 200  # a kept answer costs no budget
    finally:
        lobby.close()
        running.stop()


def test_an_address_flooding_analyses_does_not_hold_up_another_players_bot(
    client: Lobby, quick: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Analyses that never end fill the background worker and the queue; a bot in another
    player's match still moves while every one of them is held."""
    matches = [finished(client, "cage(players=2,stock=3:3)", seed=s) for s in (11, 12, 13)]
    endless = EndlessAnalysis()
    monkeypatch.setattr(analysis_routes, "analyse_match", endless)
    replies: list[int] = []

    def flood(match_id: str) -> None:
        url = f"{quick.url}/api/matches/{match_id}/analysis"
        replies.append(httpx.get(url, timeout=60).status_code)

    abusers = [threading.Thread(target=flood, args=(m["id"],)) for m in matches]
    try:
        for thread in abusers:
            thread.start()
        assert endless.started.wait(timeout=30)
        match = client.create("cage", [RANDOM, HUMAN], seed=9)  # the bot moves first
        token = client.join(match["id"], 1)["token"]
        with SeatClient(quick.url, match["id"], [token]) as table:
            state = table.wait_for_turn(1)
        assert state["status"] == "running" and state["plies"] >= 1  # the bot has moved
        assert not replies and not endless.release.is_set()  # all abuse still held
    finally:
        endless.release.set()
        for thread in abusers:
            thread.join(timeout=60)
    assert replies == [200, 200, 200]
