"""Hostile and careless clients: each test names the finding it guards against."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from gameshelf.games.axia.cardsets import standard_card_data
from gameshelf.server import create_app
from gameshelf.server.client import Lobby, SeatClient, ServerReplyError
from gameshelf.server.settings import ServerSettings
from gameshelf.server.threaded import ThreadedServer

from .conftest import GENEROUS, RunningServer, database_url

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "agent": "random"}


@contextmanager
def serving(
    url: str, settings: ServerSettings = GENEROUS, card_sets: dict[str, Path] | None = None
) -> Iterator[ThreadedServer]:
    running = ThreadedServer(create_app(url, bot_workers=0, settings=settings, card_sets=card_sets))
    try:
        yield running
    finally:
        running.stop()


def hub_of(running: ThreadedServer) -> Any:
    return running.server.config.app.state.hub


def ws_url(running: ThreadedServer, match_id: str) -> str:
    return running.url.replace("http://", "ws://") + f"/ws/matches/{match_id}"


def raw_websocket(running: ThreadedServer, path: str) -> socket.socket:
    """A WebSocket opened by hand on a socket with a tiny receive buffer, never read again:
    the client that stops reading (library clients keep reading in a thread of their own)."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.connect(running.server.servers[0].sockets[0].getsockname()[:2])
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET {path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return raw


def send_frame(raw: socket.socket, text: str) -> None:
    """One masked text frame, as a browser sends it."""
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else b""
    assert header, "short frames only"
    raw.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def error_of(response: httpx.Response) -> dict[str, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


# --- 1. files named by game options ------------------------------------------------------------


@pytest.mark.parametrize("path", ["/dev/zero", "/etc/passwd", "/no/such/file.json", "cards.json"])
def test_a_card_path_from_the_network_is_refused_without_touching_the_file(
    server: RunningServer, path: str
) -> None:
    response = httpx.post(f"{server.url}/api/matches", json={"game": f"axia(cards={path})"})
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "game/invalid-option"
    # one answer whatever the path: nothing tells whether it exists or what it holds
    assert error["message"] == (
        "option cards names a card set; this server knows only: standard "
        "(files are never opened for network clients)"
    )


def test_a_fifo_named_as_cards_does_not_freeze_the_server(
    server: RunningServer, tmp_path: Path
) -> None:
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    response = httpx.post(
        f"{server.url}/api/matches", json={"game": f"axia(cards={fifo})"}, timeout=5
    )
    assert response.status_code == 400
    assert httpx.get(f"{server.url}/healthz", timeout=5).json()["status"] == "ok"


def test_operator_card_sets_are_chosen_by_name_and_pinned_to_their_content(
    tmp_path: Path,
) -> None:
    cards = tmp_path / "mine.json"
    cards.write_text(json.dumps(standard_card_data()))
    url = database_url("sqlite", tmp_path)
    with serving(url, card_sets={"mine": cards}) as running:
        assert httpx.get(f"{running.url}/api/card-sets").json() == ["standard", "mine"]
        axia = [g for g in httpx.get(f"{running.url}/api/games").json() if g["name"] == "axia"]
        option = next(o for o in axia[0]["options"] if o["name"] == "cards")
        assert option["allowed"].startswith("a card set of this server: standard, mine ")
        lobby = Lobby(running.url)
        match = lobby.create("axia(cards=mine)", [HUMAN, RANDOM])
        assert match["game"] == "axia(cards=mine)" and match["card_set"] == "mine"
        plain = lobby.create("axia", [HUMAN, RANDOM])
        assert plain["card_set"] == "standard"
        lobby.close()
    cards.write_text("not json at all")  # the operator breaks the file, or removes the flag
    with serving(url) as running:
        lobby = Lobby(running.url)
        again = lobby.match(match["id"])
        assert again["game"] == "axia(cards=mine)" and again["status"] == "open"
        with pytest.raises(ServerReplyError) as refused:
            lobby.create("axia(cards=mine)", [HUMAN, RANDOM])
        assert refused.value.code == "game/invalid-option"
        lobby.close()


def test_a_match_that_no_longer_loads_is_set_aside_and_the_server_starts(tmp_path: Path) -> None:
    url = database_url("sqlite", tmp_path)
    with serving(url) as running:
        lobby = Lobby(running.url)
        good = lobby.create("cage", [HUMAN, HUMAN])
        lobby.join(good["id"])
        lobby.join(good["id"])
        lobby.close()
    database = sqlite3.connect(tmp_path / "gameshelf.sqlite3")
    with database:  # a match stored by an older server, naming a file that is now gone
        database.execute(
            "INSERT INTO matches (id, game, seed, status, version, created, updated) "
            "VALUES ('00000000000000aa', 'axia(cards=/gone/cards.json)', 1, 'running', 0, "
            "'2026-01-01 00:00:00', '2026-01-01 00:00:00')"
        )
    database.close()
    with serving(url) as running:
        assert httpx.get(f"{running.url}/healthz").json()["status"] == "ok"
        broken = httpx.get(f"{running.url}/api/matches/00000000000000aa")
        assert broken.status_code == 409 and error_of(broken)["code"] == "match/unavailable"
        assert "/gone" not in broken.text
        listed = {m["id"]: m["status"] for m in httpx.get(f"{running.url}/api/matches").json()}
        assert listed == {good["id"]: "running", "00000000000000aa": "broken"}


# --- 2. seeds ----------------------------------------------------------------------------------


def test_a_client_cannot_choose_the_seed_of_a_chance_game_with_other_humans(
    server: RunningServer,
) -> None:
    body = {"game": "axia(players=2)", "seats": [HUMAN, HUMAN], "seed": 12}
    response = httpx.post(f"{server.url}/api/matches", json=body)
    assert response.status_code == 400
    assert error_of(response)["code"] == "request/seed-not-allowed"
    for allowed in (
        {"game": "axia(players=1)", "seats": [HUMAN], "seed": 12},
        {"game": "axia(players=2)", "seats": [HUMAN, RANDOM], "seed": 12},
        {"game": "cage", "seats": [HUMAN, HUMAN], "seed": 12},
    ):
        assert httpx.post(f"{server.url}/api/matches", json=allowed).status_code == 201


def test_the_secret_seed_is_committed_at_the_start_and_revealed_at_the_end(
    lobby: Lobby,
) -> None:
    match = lobby.create("axia(players=2)", [RANDOM, RANDOM])
    commitment = match["seed_commitment"]
    assert len(commitment) == 64 and match["seed"] is None and match["seed_salt"] is None
    deadline = time.monotonic() + 60
    while (summary := lobby.match(match["id"]))["status"] != "finished":
        assert time.monotonic() < deadline, "the bot match did not finish"
        assert summary["seed"] is None
        time.sleep(0.2)
    assert summary["seed_commitment"] == commitment
    opened = f"{summary['seed_salt']}:{summary['seed']}".encode()
    assert hashlib.sha256(opened).hexdigest() == commitment
    record = lobby.record(match["id"])
    assert record["seed"] == summary["seed"] and record["seed_commitment"] == commitment


# --- 3. a client that stops reading ------------------------------------------------------------


def test_a_spectator_that_never_reads_cannot_stall_the_players(tmp_path: Path) -> None:
    settings = ServerSettings(
        send_queue=8,
        ws_rate_per_second=5000,
        ws_rate_burst=5000,
        creates_per_minute=1e6,
        joins_per_minute=1e6,
    )
    with serving(database_url("sqlite", tmp_path), settings) as running:
        lobby = Lobby(running.url)
        match = lobby.create("cage(max_plies=2000,repetition_draw=0)", [HUMAN, HUMAN])
        tokens = [lobby.join(match["id"])["token"] for _ in range(2)]
        runtime = hub_of(running).registry.matches[match["id"]]
        spectator = raw_websocket(running, f"/ws/matches/{match['id']}")
        send_frame(spectator, '{"type": "hello"}')
        stop = threading.Event()

        def flood() -> None:  # asks for the whole state again and again and reads nothing
            while not stop.is_set():
                try:
                    send_frame(spectator, '{"type": "sync"}')
                except OSError:
                    return

        flooder = threading.Thread(target=flood, daemon=True)
        flooder.start()
        slowest = 0.0
        deadline = time.monotonic() + 60
        with SeatClient(running.url, match["id"], tokens) as table:
            while len(runtime.clients) > 1:  # a move and its undo, again and again
                assert time.monotonic() < deadline, "the silent spectator was never dropped"
                started = time.monotonic()
                table.move(0, table.state["seats"]["0"]["legal_moves"][0])
                undo = {"type": "undo", "seat": 0, "version": table.state["version"]}
                assert table.request(undo)["type"] == "state"
                slowest = max(slowest, time.monotonic() - started)
            assert len(runtime.clients) == 1  # only the players table is left
            started = time.monotonic()
            table.move(0, table.state["seats"]["0"]["legal_moves"][0])
            slowest = max(slowest, time.monotonic() - started)
        stop.set()
        spectator.close()
        flooder.join(5)
        assert slowest < 3.0, f"a move waited {slowest:.1f} s behind a spectator"
        lobby.close()


# --- 4. the database away for a while ----------------------------------------------------------


def test_a_bot_match_finishes_after_the_database_was_locked_for_seconds(tmp_path: Path) -> None:
    with serving(database_url("sqlite", tmp_path)) as running:
        lobby = Lobby(running.url)
        match = lobby.create("axia(players=4)", [RANDOM] * 4)
        locker = sqlite3.connect(tmp_path / "gameshelf.sqlite3", timeout=30)
        locker.execute("BEGIN EXCLUSIVE")  # every write of the server now fails after 5 s
        time.sleep(7.5)
        locked_at = lobby.match(match["id"])["plies"]
        locker.rollback()
        locker.close()
        deadline = time.monotonic() + 90
        while (summary := lobby.match(match["id"]))["status"] != "finished":
            assert time.monotonic() < deadline, "the match stalled after the database came back"
            time.sleep(0.3)
        assert summary["plies"] > locked_at
        lobby.close()


# --- 5. limits on what an anonymous client can make the server do -----------------------------


def test_creates_from_one_address_are_rate_limited(tmp_path: Path) -> None:
    with serving(database_url("sqlite", tmp_path), ServerSettings()) as running:
        codes = [  # a forged X-Forwarded-For does not make a new address
            httpx.post(
                f"{running.url}/api/matches",
                json={"game": "cage"},
                headers={"x-forwarded-for": f"10.0.0.{index}"},
            ).status_code
            for index in range(12)
        ]
        assert codes[:10] == [201] * 10 and codes[-1] == 429
        refused = httpx.post(f"{running.url}/api/matches", json={"game": "cage"})
        assert error_of(refused)["code"] == "request/rate-limited"


def test_replays_from_one_address_are_rate_limited(tmp_path: Path) -> None:
    with serving(database_url("sqlite", tmp_path), ServerSettings()) as running:
        match = httpx.post(f"{running.url}/api/matches", json={"game": "cage"}).json()
        url = f"{running.url}/api/matches/{match['id']}/replay"
        # The bucket holds 15 and refills at 30 a minute, so on a slow machine a few more
        # may pass while we ask: the refusal must come within what the refill allows.
        start, codes = time.monotonic(), []
        while 429 not in codes and len(codes) < 60:
            codes.append(httpx.get(url).status_code)
        refilled = (time.monotonic() - start) * 30 / 60
        assert codes[:15] == [200] * 15 and codes[-1] == 429
        assert set(codes[:-1]) == {200} and len(codes) - 1 <= 15 + refilled + 1


def test_bot_only_matches_are_capped_and_options_are_bounded(tmp_path: Path) -> None:
    settings = ServerSettings(max_bot_only_matches=1, creates_per_minute=1e6, bot_move_seconds=0.5)
    with serving(database_url("sqlite", tmp_path), settings) as running:
        expert = {"kind": "bot", "agent": "expert"}
        first = httpx.post(
            f"{running.url}/api/matches", json={"game": "axiom", "seats": [expert] * 2}
        )
        assert first.status_code == 201
        second = httpx.post(
            f"{running.url}/api/matches", json={"game": "axiom", "seats": [expert] * 2}
        )
        assert second.status_code == 503 and error_of(second)["code"] == "server/busy"
        huge = httpx.post(f"{running.url}/api/matches", json={"game": "cage(max_plies=100000)"})
        assert (
            error_of(huge)["code"] == "game/invalid-option" and "cap" in error_of(huge)["message"]
        )


def test_bot_moves_start_from_a_snapshot_not_from_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    import pickle
    import random

    import gameshelf
    from gameshelf.server.bots import choose_bot_action

    game = gameshelf.load("cage(max_plies=2000,repetition_draw=0)")
    rng = random.Random(3)
    state = game.new_initial_state(1)
    while len(state.history()) < 120:  # a long game still in progress
        if state.is_terminal():
            state = game.new_initial_state(1)
        state.apply_action(rng.choice(state.legal_actions()))
    snapshot = pickle.dumps(state)
    applied = []
    original = type(state).apply_action
    monkeypatch.setattr(
        type(state), "apply_action", lambda self, a: (applied.append(a), original(self, a))[1]
    )
    action = choose_bot_action(snapshot, "random", 7, 1.0)
    assert action in state.legal_actions() and applied == []


def test_idle_matches_leave_memory_and_come_back_on_demand(tmp_path: Path) -> None:
    settings = ServerSettings(idle_evict_seconds=0.3, creates_per_minute=1e6)
    with serving(database_url("sqlite", tmp_path), settings) as running:
        match = httpx.post(f"{running.url}/api/matches", json={"game": "cage"}).json()
        deadline = time.monotonic() + 10
        while match["id"] in hub_of(running).registry.matches:
            assert time.monotonic() < deadline, "the idle match stayed in memory"
            time.sleep(0.1)
        assert httpx.get(f"{running.url}/api/matches/{match['id']}").json()["id"] == match["id"]


# --- 6. unknown ids ----------------------------------------------------------------------------


def test_unknown_match_ids_cost_no_memory(server: RunningServer) -> None:
    hub = hub_of(server)
    for index in range(300):
        match_id = ("f" * 16) if index % 2 else ("z" * 200 + str(index))
        response = httpx.get(f"{server.url}/api/matches/{match_id}")
        assert response.status_code == 404 and error_of(response)["code"] == "match/not-found"
    assert hub.registry.loading == {} and hub.registry.matches == {}


# --- 7. body limit without Content-Length --------------------------------------------------------


def test_a_chunked_body_cannot_pass_the_body_limit(server: RunningServer) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "cage", "x": "'
        for _ in range(300):
            yield b"y" * 10_000
        yield b'"}'

    response = httpx.post(
        f"{server.url}/api/matches", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413 and error_of(response)["code"] == "request/too-large"
    assert httpx.get(f"{server.url}/api/matches").json() == []


# --- 8. connection caps and timeouts -----------------------------------------------------------


def test_sockets_per_address_are_capped(tmp_path: Path) -> None:
    settings = ServerSettings(sockets_per_address=3, creates_per_minute=1e6)
    with serving(database_url("sqlite", tmp_path), settings) as running:
        match = httpx.post(f"{running.url}/api/matches", json={"game": "cage"}).json()
        held = [SeatClient(running.url, match["id"]) for _ in range(3)]
        with connect(ws_url(running, match["id"]), open_timeout=5) as extra:
            assert json.loads(extra.recv(5))["code"] == "server/busy"
            with pytest.raises(ConnectionClosed):
                extra.recv(5)
        assert extra.close_code == 1013
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:  # the server counts the closed socket out once its session has ended
            try:
                with SeatClient(running.url, match["id"]) as again:
                    assert again.seats == []
                break
            except (ConnectionClosed, ServerReplyError):
                assert time.monotonic() < deadline, "a closed socket was never counted out"
                time.sleep(0.1)
        for client in held:
            client.close()


def test_spectators_cannot_lock_the_players_out_of_their_match(tmp_path: Path) -> None:
    """A match holds at most ``sockets_per_match`` spectators; a full gallery must not keep a
    player from their own seat (nor from a second tab), while a further spectator is refused."""
    settings = ServerSettings(sockets_per_match=2, creates_per_minute=1e6, joins_per_minute=1e6)
    with serving(database_url("sqlite", tmp_path), settings) as running:
        lobby = Lobby(running.url)
        match = lobby.create("cage", [HUMAN, HUMAN])
        tokens = [lobby.join(match["id"])["token"] for _ in range(2)]
        gallery = [SeatClient(running.url, match["id"]) for _ in range(2)]
        with pytest.raises(ServerReplyError) as refused:
            SeatClient(running.url, match["id"])
        assert refused.value.code == "server/busy"
        with (
            SeatClient(running.url, match["id"], [tokens[0]]) as first,
            SeatClient(running.url, match["id"], [tokens[1]]) as second,
        ):
            assert (first.seats, second.seats) == ([0], [1])
            move = first.state["seats"]["0"]["legal_moves"][0]
            assert first.move(0, move)["version"] == 1
            assert second.wait_for(lambda s: s["version"] == 1)["to_move"] == 1
            with pytest.raises(ServerReplyError) as still:
                SeatClient(running.url, match["id"])
            assert still.value.code == "server/busy"
        for client in gallery:
            client.close()
        lobby.close()


def test_a_socket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    settings = ServerSettings(hello_timeout=0.5, creates_per_minute=1e6)
    with serving(database_url("sqlite", tmp_path), settings) as running:
        match = httpx.post(f"{running.url}/api/matches", json={"game": "cage"}).json()
        with connect(ws_url(running, match["id"])) as silent:
            reply = json.loads(silent.recv(5))
            assert reply["code"] == "request/timeout"
            with pytest.raises(ConnectionClosed):
                silent.recv(5)
            assert silent.close_code == 4000


def test_unfinished_request_headers_are_cut_off(tmp_path: Path) -> None:
    settings = ServerSettings(header_timeout=0.5)
    with serving(database_url("sqlite", tmp_path), settings) as running:
        address = running.server.servers[0].sockets[0].getsockname()[:2]
        with socket.create_connection(address, timeout=10) as raw:
            raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            started = time.monotonic()
            assert raw.recv(1024) == b""
            assert time.monotonic() - started < 5


# --- 9. malformed WebSocket messages ----------------------------------------------------------


HOSTILE_TEXTS = [
    '{"type": "ping", "id": ' + "9" * 5000 + "}",
    "[" * 5000 + "]" * 5000,
    '{"type": "ping", "id": "\\ud800"}',
    '{"type": "ping", "x": NaN}',
    '{"type": "' + "q" * 10_000 + '"}',
]


@pytest.mark.parametrize(
    "text", HOSTILE_TEXTS, ids=["huge-int", "deep", "surrogate", "nan", "long"]
)
def test_malformed_messages_get_coded_refusals(server: RunningServer, text: str) -> None:
    match = httpx.post(f"{server.url}/api/matches", json={"game": "cage"}).json()
    with SeatClient(server.url, match["id"]) as table:
        table.socket.send(text)
        reply = table.receive()
        assert reply["type"] == "error" and reply["code"] == "request/invalid"
        assert len(json.dumps(reply)) < 600  # never the whole request echoed back
        assert table.request({"type": "ping"})["type"] == "pong"  # the connection lives on
    with connect(ws_url(server, match["id"])) as first:  # the same as a first message
        first.send(text)
        assert json.loads(first.recv(5))["code"] == "request/invalid"
        with pytest.raises(ConnectionClosed):
            first.recv(5)
        assert first.close_code == 4000


def test_a_move_with_an_unsendable_id_is_refused_and_changes_nothing(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("cage", [HUMAN, HUMAN])
    tokens = [lobby.join(match["id"])["token"] for _ in range(2)]
    with SeatClient(server.url, match["id"], tokens) as table:
        move = table.state["seats"]["0"]["legal_moves"][0]
        text = json.dumps({"type": "move", "seat": 0, "move": move, "version": 0})
        table.socket.send(text[:-1] + ', "id": "\\ud800"}')
        reply = table.receive()
        while reply["type"] == "state":  # a broadcast that was already on its way
            reply = table.receive()
        assert reply["code"] == "request/invalid"
        assert lobby.match(match["id"])["version"] == 0
        assert table.move(0, move)["version"] == 1


def test_a_frame_over_64_kib_gets_a_coded_refusal(server: RunningServer) -> None:
    match = httpx.post(f"{server.url}/api/matches", json={"game": "cage"}).json()
    with SeatClient(server.url, match["id"]) as table:
        table.send({"type": "ping", "pad": "x" * 100_000})
        assert table.receive()["code"] == "request/too-large"
        assert table.request({"type": "ping"})["type"] == "pong"


# --- 10-12. coded HTTP errors, PostgreSQL NULs, timestamps, headers ----------------------------


def test_framework_errors_use_the_coded_shape(server: RunningServer) -> None:
    cases = [
        (httpx.get(f"{server.url}/api/nothing"), 404, "route/not-found"),
        (httpx.delete(f"{server.url}/api/matches"), 405, "request/method-not-allowed"),
        (
            httpx.post(
                f"{server.url}/api/matches",
                content=b'{"game": ' + b"[" * 5000 + b"]" * 5000 + b"}",
                headers={"content-type": "application/json"},
            ),
            400,
            "request/invalid",
        ),
        (
            httpx.post(
                f"{server.url}/api/matches",
                content=b'{"game": "cage", "seed": ' + b"7" * 5000 + b"}",
                headers={"content-type": "application/json"},
            ),
            400,
            "request/invalid",
        ),
    ]
    for response, status, code in cases:
        assert response.status_code == status and error_of(response)["code"] == code


def test_nul_characters_and_odd_ids_are_refused_on_every_database(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("cage", [HUMAN, HUMAN])
    named = httpx.post(f"{server.url}/api/matches/{match['id']}/join", json={"name": "a\x00b"})
    assert named.status_code == 400 and error_of(named)["code"] == "request/invalid"
    odd = httpx.get(f"{server.url}/api/matches/ab%00cd")
    assert odd.status_code == 404 and error_of(odd)["code"] == "match/not-found"
    listed = lobby.matches()[0]
    for stamp in (listed["created"], listed["updated"], match["created"]):
        assert stamp.endswith("+00:00"), stamp


def test_pages_carry_security_headers(server: RunningServer) -> None:
    for path in ("/", "/api/games", "/play/x"):
        headers = httpx.get(f"{server.url}{path}").headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
    assert httpx.get(f"{server.url}/favicon.ico").status_code == 200


# --- 13. strict input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"game": "cage", "seed": "12"},
        {"game": "cage", "seed": True},
        {"game": "cage", "seed": 1.0},
        {"game": "cage", "surprise": 1},
        {"game": "cage", "seats": [{"kind": "human", "agent": 3}, HUMAN]},
    ],
)
def test_create_is_strict(server: RunningServer, body: dict[str, Any]) -> None:
    response = httpx.post(f"{server.url}/api/matches", json=body)
    assert response.status_code == 400 and error_of(response)["code"] == "request/invalid"


@pytest.mark.parametrize(
    ("seat", "code", "words"),
    [
        ({"kind": "human", "agent": "hard"}, "request/invalid", "takes no agent"),
        ({"kind": "human", "think_seconds": -1.0}, "request/invalid", "takes no think_seconds"),
        ({"kind": "bot", "agent": ""}, "agent/unknown", "unknown bot ''"),
    ],
)
def test_seat_fields_that_mean_nothing_are_refused_not_ignored(
    server: RunningServer, seat: dict[str, Any], code: str, words: str
) -> None:
    """A human seat given a bot or a think time, or a bot with an empty name, is a careless
    request: it is refused naming the seat and the field, and nothing is created."""
    response = httpx.post(
        f"{server.url}/api/matches", json={"game": "cage", "seats": [HUMAN, seat]}
    )
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert error["code"] == code and words in error["message"]
    assert error["message"].startswith("seat 1: ")
    assert httpx.get(f"{server.url}/api/matches").json() == []


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("greedy\u3164", "U+1160 is invisible"),  # a Hangul filler (NFKC): shows as "greedy"
        ("random\uffa0", "U+1160 is invisible"),  # the half-width filler, after NFKC
        ("hard\u034f", "U+034F is invisible"),  # the combining grapheme joiner
        ("Ann\u2800", "U+2800 is invisible"),  # the blank Braille pattern
        ("Ann\ufe0f", "U+FE0F is invisible"),
        ("\u3164", "U+1160 is invisible"),
        ("\u0301\u0302", "at least one letter"),  # marks on nothing
    ],
)
def test_a_name_cannot_hide_characters(server: RunningServer, name: str, words: str) -> None:
    """An invisible character would let a guest pass for a bot ("greedy" + a filler shows as
    "greedy") or for someone else, and an all-invisible name shows nothing: refused, naming
    the character, and no seat is taken."""
    match = httpx.post(f"{server.url}/api/matches", json={"game": "cage", "seats": [HUMAN, HUMAN]})
    match_id = match.json()["id"]
    response = httpx.post(f"{server.url}/api/matches/{match_id}/join", json={"name": name})
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert error["code"] == "request/invalid" and words in error["message"]
    seats = httpx.get(f"{server.url}/api/matches/{match_id}").json()["seats"]
    assert not any(seat["taken"] for seat in seats)
    ok = httpx.post(f"{server.url}/api/matches/{match_id}/join", json={"name": "J\u00f6rg \u00e9"})
    assert ok.status_code == 200, ok.text  # letters with their accents are fine


def test_options_take_ascii_digits_only(server: RunningServer) -> None:
    response = httpx.post(f"{server.url}/api/matches", json={"game": "cage(players=２)"})
    assert response.status_code == 400 and error_of(response)["code"] == "game/invalid-option"


def test_join_is_strict_and_names_are_normalised(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage(players=3)", [HUMAN, HUMAN, RANDOM])
    url = f"{server.url}/api/matches/{match['id']}/join"
    assert error_of(httpx.post(url, json={"seat": True}))["code"] == "request/invalid"
    for name in ("bot greedy", "Bot: hard", "greedy", "ann\u202eevil", "bell\x07"):
        response = httpx.post(url, json={"name": name})
        assert response.status_code == 400, name
    assert httpx.post(url, json={"name": "  Ann \u3000 Lee  "}).status_code == 200
    seats = lobby.match(match["id"])["seats"]
    assert seats[0]["name"] == "Ann Lee" and seats[0]["label"] == "Ann Lee"
    assert seats[2]["kind"] == "bot" and seats[2]["label"] == "bot: random"


# --- what the lobby and the table need --------------------------------------------------------


def test_only_bots_fit_for_the_game_are_offered_and_accepted(server: RunningServer) -> None:
    offered = httpx.get(f"{server.url}/api/agents", params={"game": "axia(players=3)"}).json()
    names = [a["name"] for a in offered]
    assert "alphabeta" not in names and names[0] == "random" and names[-1] == "expert"
    assert all(a["summary"] for a in offered)
    assert [a["strength"] for a in offered] == sorted(a["strength"] for a in offered)
    body = {"game": "axia", "seats": [HUMAN, {"kind": "bot", "agent": "alphabeta"}]}
    refused = httpx.post(f"{server.url}/api/matches", json=body)
    assert refused.status_code == 400 and error_of(refused)["code"] == "agent/unfit"


def test_undo_against_a_bot_takes_back_the_reply_too(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage", [HUMAN, {"kind": "bot", "agent": "greedy"}])
    token = lobby.join(match["id"])["token"]
    with SeatClient(server.url, match["id"], [token]) as table:
        assert table.state["seats"]["0"]["can_undo"] is False
        table.move(0, table.state["seats"]["0"]["legal_moves"][0])
        state = table.wait_for(lambda s: s["plies"] == 2)
        assert state["seats"]["0"]["can_undo"] is True
        reply = table.request({"type": "undo", "seat": 0, "version": state["version"]})
        assert reply["type"] == "state" and reply["plies"] == 0 and reply["moves"] == []
    assert lobby.match(match["id"])["plies"] == 0


def test_matches_list_idle_time_and_leaves_out_long_idle_ones(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("cage", [HUMAN, HUMAN])
    listed = httpx.get(f"{server.url}/api/matches").json()[0]
    assert listed["id"] == match["id"] and 0 <= listed["idle_seconds"] < 60
    time.sleep(1.2)
    fresh = httpx.get(f"{server.url}/api/matches", params={"idle_max": 1}).json()
    assert fresh == []
    assert len(httpx.get(f"{server.url}/api/matches", params={"idle_max": 600}).json()) == 1


def test_concurrent_loads_of_one_match_give_one_runtime(tmp_path: Path) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from gameshelf.server.hub import Hub
    from gameshelf.server.store import Store

    async def scenario() -> None:
        store = Store(database_url("sqlite", tmp_path))
        hub = Hub(store, ThreadPoolExecutor(2))
        created = await hub.lobby.create_match("cage", [HUMAN, HUMAN], None)
        hub.registry.matches.clear()  # as after an eviction
        loaded = await asyncio.gather(*(hub.registry.get(created.id) for _ in range(30)))
        assert len({id(runtime) for runtime in loaded}) == 1
        assert hub.registry.matches[created.id] is loaded[0] and hub.registry.loading == {}
        store.close()

    asyncio.run(scenario())
