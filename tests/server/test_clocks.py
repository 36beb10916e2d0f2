"""Clocks kept by the server, on a fake clock the tests move: a flag by the server's own
steward with nobody connected, the increment, a move after the flag refused, a restart
recomputing from the stored times (real time: a process restarts), a correspondence deadline
days away, and another process seeing the clock start and the flag."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from gameshelf.core.record import parse_record, replay
from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.steward import ClockSteward
from gameshelf.server.store import ClockRow, as_utc
from gameshelf.server.timing import FakeTime

from .conftest import DATABASES, RunningServer, database_url
from .helpers import ServerProcess, wait_until

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


def create(lobby: Lobby, game: str, seats: list[dict[str, Any]], clock: dict[str, Any]) -> str:
    """A clocked match; returns its id."""
    body = {"game": game, "seats": seats, "clock": clock}
    return str(lobby._call("POST", "/api/matches", json=body)["id"])


def seated(lobby: Lobby, match_id: str, count: int) -> list[str]:
    """Take ``count`` seats in order; returns their tokens."""
    return [lobby.join(match_id, seat)["token"] for seat in range(count)]


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def timed(
    request: pytest.FixtureRequest, tmp_path: Path, fake: FakeTime
) -> Iterator[RunningServer]:
    """A server whose every clock reading is ``fake``'s (parametrised by database)."""
    running = RunningServer(database_url(request.param, tmp_path), clock=fake)
    yield running
    running.stop()


@pytest.fixture
def lobby_at(timed: RunningServer) -> Iterator[Lobby]:
    client = Lobby(timed.url)
    yield client
    client.close()


@pytest.mark.parametrize("timed", DATABASES, indirect=True)
def test_the_server_flags_a_seat_with_nobody_connected(
    timed: RunningServer, lobby_at: Lobby, fake: FakeTime
) -> None:
    match_id = create(lobby_at, "cage", TWO_HUMANS, {"mode": "realtime", "minutes": 0.02})
    seated(lobby_at, match_id, 2)
    summary = lobby_at.match(match_id)
    assert summary["clock"]["running"] == 0 and summary["status"] == "running"
    fake.advance(1.1)  # before the deadline: the steward sleeps on until it comes
    early = lobby_at.match(match_id)
    assert early["status"] == "running" and early["clock"]["remaining_ms"][0] == 100
    fake.advance(0.2)
    finished = wait_until(lambda: (s := lobby_at.match(match_id))["status"] == "finished" and s)
    assert finished["clock"]["flagged"] == 0
    assert finished["to_move"] == -4  # over: nobody is to move, though the board goes on
    replayed = lobby_at._call("GET", f"/api/matches/{match_id}/replay")["frames"]
    assert [frame["to_move"] for frame in replayed] == [-4]
    assert finished["clock"]["remaining_ms"][0] == 0
    assert finished["result"] == [-1.0, 1.0]
    assert finished["result_text"] == "player 1 ran out of time; player 2 wins"
    listed = [m for m in lobby_at.matches("finished") if m["id"] == match_id]
    assert listed[0]["result"] == [-1.0, 1.0]
    record = parse_record(lobby_at.record(match_id))
    assert record.result is None and len(replay(record)) == 1  # the board never ended


@pytest.mark.parametrize("timed", DATABASES, indirect=True)
def test_the_increment_is_added_after_each_move(
    timed: RunningServer, lobby_at: Lobby, fake: FakeTime
) -> None:
    clock = {"mode": "realtime", "minutes": 1, "increment_seconds": 5}
    match_id = create(lobby_at, "cage", TWO_HUMANS, clock)
    tokens = seated(lobby_at, match_id, 2)
    with SeatClient(timed.url, match_id, tokens) as table:
        assert table.state["clock"]["remaining_ms"][0] == 60_000
        fake.advance(0.3)
        table.move(0, table.state["seats"]["0"]["legal_moves"][0])
        after = table.state["clock"]
        assert after["running"] == 1 and after["deadline"] is not None
        assert after["remaining_ms"] == [60_000 - 300 + 5_000, 60_000]  # the move took 0.3 s
        fake.advance(0.7)
        table.move(1, table.state["seats"]["1"]["legal_moves"][0])
        assert table.state["clock"]["remaining_ms"] == [64_700, 60_000 - 700 + 5_000]


@pytest.mark.parametrize("timed", ["sqlite"], indirect=True)
def test_a_move_after_the_flag_is_refused(
    timed: RunningServer, lobby_at: Lobby, fake: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = create(lobby_at, "cage", TWO_HUMANS, {"mode": "realtime", "minutes": 1})
    tokens = seated(lobby_at, match_id, 2)
    with SeatClient(timed.url, match_id, tokens) as table:
        version = table.state["version"]
        move = table.state["seats"]["0"]["legal_moves"][0]

        async def asleep(steward: ClockSteward) -> datetime:
            return steward.time.now() + timedelta(days=1)

        monkeypatch.setattr(ClockSteward, "pass_once", asleep)
        fake.advance(120)
        # The move arrives after its seat's deadline, the steward asleep: the move flags.
        reply = table.request({"type": "move", "seat": 0, "move": move, "version": version})
        assert reply["type"] == "error" and reply["code"] == "clock/flagged"
        table.wait_for(lambda s: s["status"] == "finished")
        assert table.state["clock"]["flagged"] == 0 and table.state["plies"] == 0
        # the flag bumped the version: the old one is stale, and any move is after the end
        assert table.state["version"] == version + 1
        stale = table.request({"type": "move", "seat": 0, "move": move, "version": version})
        assert stale["code"] == "move/game-over"
        fresh = table.request(
            {"type": "move", "seat": 1, "move": move, "version": table.state["version"]}
        )
        assert fresh["code"] == "move/game-over"
        assert table.request({"type": "sync"})["plies"] == 0
        undo = table.request({"type": "undo", "seat": 0, "version": table.state["version"]})
        assert undo["code"] == "undo/not-allowed"
    assert lobby_at.match(match_id)["result"] == [-1.0, 1.0]


@pytest.mark.parametrize("timed", ["sqlite"], indirect=True)
def test_a_clocked_match_has_no_take_backs(timed: RunningServer, lobby_at: Lobby) -> None:
    match_id = create(lobby_at, "cage", TWO_HUMANS, {"mode": "realtime", "minutes": 5})
    tokens = seated(lobby_at, match_id, 2)
    with SeatClient(timed.url, match_id, tokens) as table:
        table.move(0, table.state["seats"]["0"]["legal_moves"][0])
        assert table.state["seats"]["0"]["can_undo"] is False
        reply = table.request({"type": "undo", "seat": 0, "version": table.state["version"]})
        assert reply["code"] == "undo/not-allowed" and "clocked" in reply["message"]


@pytest.mark.parametrize("timed", DATABASES, indirect=True)
def test_bots_turns_cost_no_time_and_three_players_place_the_flagged_one_last(
    timed: RunningServer, lobby_at: Lobby, fake: FakeTime
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}, {"kind": "human"}]
    match_id = create(lobby_at, "cage(players=3)", seats, {"mode": "realtime", "minutes": 0.03})
    tokens = [lobby_at.join(match_id, 0)["token"], lobby_at.join(match_id, 2)["token"]]
    with SeatClient(timed.url, match_id, tokens) as table:
        assert table.state["clock"]["remaining_ms"][1] is None  # the bot has no clock
        table.move(0, table.state["seats"]["0"]["legal_moves"][0])
        table.wait_for(lambda s: s["to_move"] == 2)  # the bot moved: no time passed
        assert table.state["clock"]["remaining_ms"] == [1_800, None, 1_800]
        fake.advance(1.9)
        flagged = table.wait_for(lambda s: s["status"] == "finished")
        assert flagged["to_move"] == -4 and flagged["seats"]["2"]["legal_moves"] == []
    finished = lobby_at.match(match_id)
    assert finished["clock"]["flagged"] == 2
    assert finished["result"] == [1.0, 1.0, -1.0]
    assert "player 3 ran out of time and is placed last" in finished["result_text"]


DOWN_SECONDS = 60.0


def _move_stored_turns_back(url: str, seconds: float) -> None:
    """As if ``seconds`` had passed: every stored turn started, and ends, that much earlier."""
    engine = create_engine(url)
    with Session(engine) as session, session.begin():
        for row in session.scalars(select(ClockRow)):
            if row.turn_started is not None:
                row.turn_started = as_utc(row.turn_started) - timedelta(seconds=seconds)
            if row.deadline is not None:
                row.deadline = as_utc(row.deadline) - timedelta(seconds=seconds)
    engine.dispose()


@pytest.mark.parametrize("database", DATABASES)
def test_a_restart_recomputes_the_clocks_from_the_stored_times(
    database: str, tmp_path: Path
) -> None:
    with ServerProcess(database_url(database, tmp_path), tmp_path / "server.log") as server:
        lobby = Lobby(server.base)
        short = create(lobby, "cage", TWO_HUMANS, {"mode": "realtime", "minutes": 0.05})
        long = create(lobby, "cage", TWO_HUMANS, {"mode": "realtime", "minutes": 2})
        stored = {}
        for match_id in (short, long):
            tokens = seated(lobby, match_id, 2)
            with SeatClient(server.base, match_id, tokens) as table:
                table.move(0, table.state["seats"]["0"]["legal_moves"][0])
                stored[match_id] = table.state["clock"]["remaining_ms"]
        down = time.monotonic()
        server.kill9()
        # A minute passes while no server is up: the stored turns started that much earlier.
        # The short clock runs out meanwhile; the long one's seat to move loses that minute.
        _move_stored_turns_back(server.url, DOWN_SECONDS)
        server.restart()
        lobby = Lobby(server.base)
        clock = lobby.match(long)["clock"]
        elapsed_ms = (DOWN_SECONDS + time.monotonic() - down) * 1000
        assert clock["running"] == 1 and clock["flagged"] is None
        # the time while the server was down counted against the seat to move, and only it
        assert clock["remaining_ms"][1] <= stored[long][1] - elapsed_ms + 500
        assert clock["remaining_ms"][1] > stored[long][1] - elapsed_ms - 5_000
        assert clock["remaining_ms"][0] == stored[long][0]
        finished = wait_until(lambda: (s := lobby.match(short))["status"] == "finished" and s)
        assert finished["clock"]["flagged"] == 1 and finished["result"] == [1.0, -1.0]


def test_a_correspondence_deadline_days_away(tmp_path: Path, fake: FakeTime) -> None:
    server = RunningServer(database_url("sqlite", tmp_path), clock=fake)
    try:
        lobby = Lobby(server.url)
        match_id = create(lobby, "cage", TWO_HUMANS, {"mode": "correspondence", "days": 2})
        tokens = seated(lobby, match_id, 2)
        with SeatClient(server.url, match_id, tokens) as table:
            table.move(0, table.state["seats"]["0"]["legal_moves"][0])
            clock = table.state["clock"]
            assert clock["mode"] == "correspondence" and clock["running"] == 1
            assert clock["remaining_ms"][1] == 2 * 86_400_000
            waiting = lobby._call(
                "POST", "/api/waiting", json={"seats": [{"match": match_id, "token": tokens[1]}]}
            )
            assert [(w["match"], w["seat"], w["clock"]) for w in waiting] == [
                (match_id, 1, "correspondence")
            ]
            fake.advance(86_400)
            assert lobby.match(match_id)["status"] == "running"
            assert lobby.match(match_id)["clock"]["remaining_ms"][1] == 86_400_000
            fake.advance(2 * 86_400)
            table.wait_for(lambda s: s["status"] == "finished")
        finished = lobby.match(match_id)
        assert finished["clock"]["flagged"] == 1
        assert finished["result_text"] == "player 2 ran out of time; player 1 wins"
        lobby.close()
    finally:
        server.stop()


def test_another_process_sees_the_clock_start_and_flags_the_same(
    tmp_path: Path, fake: FakeTime
) -> None:
    if "postgresql" not in DATABASES:
        pytest.fail("several processes need PostgreSQL: export GAMESHELF_TEST_POSTGRES_URL")
    url = database_url("postgresql", tmp_path)
    first, second = RunningServer(url, clock=fake), RunningServer(url, clock=fake)
    try:
        lobby = Lobby(first.url)
        match_id = create(lobby, "cage", TWO_HUMANS, {"mode": "realtime", "minutes": 0.03})
        ann = lobby.join(match_id, 0)["token"]
        with SeatClient(second.url, match_id, [ann]) as elsewhere:
            assert elsewhere.state["clock"]["running"] is None  # not started: a seat is free
            lobby.join(match_id, 1)  # through the first process
            started = elsewhere.wait_for(lambda s: s["clock"]["running"] == 0)
            assert started["clock"]["remaining_ms"][0] == 1_800
            fake.advance(2)
            finished = elsewhere.wait_for(lambda s: s["status"] == "finished")
        assert finished["clock"]["flagged"] == 0
        assert Lobby(second.url).match(match_id)["version"] == lobby.match(match_id)["version"]
        lobby.close()
    finally:
        first.stop()
        second.stop()


@pytest.mark.parametrize(
    ("clock", "field", "bound"),
    [
        ({"mode": "realtime", "minutes": 1e-7}, "clock.minutes", "at least 1/60 (one second)"),
        ({"mode": "realtime", "minutes": 0.0166}, "clock.minutes", "at least 1/60 (one second)"),
        ({"mode": "realtime", "minutes": 0}, "clock.minutes", "at least 1/60 (one second)"),
        ({"mode": "correspondence", "days": 1e-12}, "clock.days", "at least 1/24 (one hour"),
        ({"mode": "correspondence", "days": 0.04}, "clock.days", "at least 1/24 (one hour"),
        (
            {"mode": "realtime", "minutes": 1, "increment_seconds": 1e-9},
            "clock.increment_seconds",
            "0 (no increment) or at least 0.1",
        ),
    ],
)
@pytest.mark.parametrize("timed", ["sqlite"], indirect=True)
def test_a_clock_too_short_to_play_is_refused_and_creates_nothing(
    lobby_at: Lobby, clock: dict[str, Any], field: str, bound: str
) -> None:
    """A bank that rounds to 0 ms would flag the first mover the moment the game starts."""
    before = lobby_at.matches()
    body = {"game": "cage", "seats": TWO_HUMANS, "clock": clock}
    answer = lobby_at.http.post("/api/matches", json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "request/invalid"
    assert f"body.{field}: " in error["message"] and bound in error["message"], error
    assert lobby_at.matches() == before


@pytest.mark.parametrize("timed", ["sqlite"], indirect=True)
def test_the_shortest_clocks_allowed_are_what_they_say(lobby_at: Lobby) -> None:
    for clock, shown in [
        (
            {"mode": "realtime", "minutes": 1 / 60, "increment_seconds": 0.1},
            {"initial_ms": 1000, "increment_ms": 100},
        ),
        ({"mode": "realtime", "minutes": 0.02, "increment_seconds": 0}, {"increment_ms": 0}),
        ({"mode": "correspondence", "days": 1 / 24}, {"per_move_ms": 3_600_000}),
    ]:
        match_id = create(lobby_at, "cage", TWO_HUMANS, clock)
        summary = lobby_at.match(match_id)["clock"]
        assert {key: summary[key] for key in shown} == shown, (clock, summary)
