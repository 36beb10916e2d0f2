"""Server processes sharing a PostgreSQL database whose connections break (a restart ends every
session): the lock connection is opened again and ownership taken again, changes committed
while the listener was away are caught up, and a clock is flagged on time by whichever process
looks, also when the one that saw the match's moves is gone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.timing import FakeTime

from .conftest import DATABASES, RunningServer, database_url
from .helpers import wait_until

HUMAN = {"kind": "human"}
BOT_FIRST = [{"kind": "bot", "agent": "random"}, HUMAN]


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    if "postgresql" not in DATABASES:
        pytest.fail("several processes need PostgreSQL: export GAMESHELF_TEST_POSTGRES_URL")
    yield database_url("postgresql", tmp_path)


def terminate(url: str, where: str) -> int:
    """End the database sessions that ``where`` picks (in ``pg_stat_activity``), as a
    database restart would; returns how many."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        ended = connection.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = current_database() AND pid <> pg_backend_pid() AND {where}"
            )
        ).all()
    engine.dispose()
    return len(ended)


LOCK_SESSIONS = "pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)"
LISTENERS = "query LIKE 'LISTEN%'"


def test_a_broken_lock_connection_is_opened_again_and_bots_still_move(url: str) -> None:
    server = RunningServer(url)
    try:
        lobby = Lobby(server.url)
        first = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": BOT_FIRST})
        lobby.join(first["id"], 1)
        wait_until(lambda: lobby.match(first["id"])["plies"] >= 1)  # owned: a lock is held
        assert terminate(url, LOCK_SESSIONS) == 1
        cluster = server.hub.cluster
        assert cluster is not None and cluster.reopened == 0
        later = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": BOT_FIRST})
        lobby.join(later["id"], 1)
        # the new match's bot moves: its owner took the lock on a connection opened again
        wait_until(lambda: lobby.match(later["id"])["plies"] >= 1)
        assert cluster.reopened == 1 and {first["id"], later["id"]} <= cluster.owned
        lobby.close()
    finally:
        server.stop()


def test_changes_made_while_the_listener_was_away_are_caught_up(url: str) -> None:
    owner, other = RunningServer(url), RunningServer(url)
    try:
        lobby = Lobby(owner.url)
        seats = [HUMAN, {"kind": "bot", "agent": "random"}]
        match = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": seats})["id"]
        token = lobby.join(match, 0)["token"]
        cluster = owner.hub.cluster
        assert cluster is not None
        wait_until(lambda: match in cluster.owned)
        with SeatClient(other.url, match, [token]) as table:
            # the owner's listener goes; the move lands on the other process meanwhile
            assert terminate(url, LISTENERS) == 2
            table.move(0, table.state["seats"]["0"]["legal_moves"][0])
            # the owner hears nothing of it, catches up when it listens again, and its bot
            # answers (the other process only relays the owner's move)
            replied = table.wait_for(lambda s: s["plies"] >= 2)
        assert replied["to_move"] in (0, -4)
        lobby.close()
    finally:
        owner.stop()
        other.stop()


def test_a_clock_is_flagged_on_time_after_the_process_that_saw_its_moves_is_gone(
    url: str,
) -> None:
    fake = FakeTime()
    seen, bystander = RunningServer(url, clock=fake), RunningServer(url, clock=fake)
    try:
        lobby = Lobby(seen.url)
        clock = {"mode": "realtime", "minutes": 0.2}  # 12 s: due long before a 30 s nap ends
        body = {"game": "cage", "seats": [HUMAN, HUMAN], "clock": clock}
        match = lobby._call("POST", "/api/matches", json=body)["id"]
        tokens = [lobby.join(match, seat)["token"] for seat in range(2)]
        with SeatClient(seen.url, match, tokens) as table:
            table.move(0, table.state["seats"]["0"]["legal_moves"][0])
        lobby.close()
        seen.stop()  # the only process that held the match
        fake.advance(13)  # a second past seat 1's deadline
        watcher = Lobby(bystander.url)
        finished = wait_until(lambda: (s := watcher.match(match))["status"] == "finished" and s)
        assert finished["clock"]["flagged"] == 1
        watcher.close()
    finally:
        bystander.stop()


def test_a_hello_on_a_process_that_missed_a_move_gets_the_current_state(url: str) -> None:
    mover, late = RunningServer(url), RunningServer(url)
    try:
        lobby = Lobby(mover.url)
        match = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": [HUMAN, HUMAN]})
        tokens = [lobby.join(match["id"], seat)["token"] for seat in range(2)]
        assert Lobby(late.url).match(match["id"])["version"] == 0  # held in the late process
        with SeatClient(mover.url, match["id"], tokens) as table:
            assert terminate(url, LISTENERS) == 2  # nobody hears the move that follows
            table.move(0, table.state["seats"]["0"]["legal_moves"][0])
            version = table.state["version"]
        with SeatClient(late.url, match["id"], [tokens[1]]) as elsewhere:
            assert elsewhere.state["version"] == version and elsewhere.state["plies"] == 1
        lobby.close()
    finally:
        mover.stop()
        late.stop()


def test_ownership_spreads_over_processes_started_one_after_another(url: str) -> None:
    first = RunningServer(url)
    servers = [first]
    try:
        lobby = Lobby(first.url)
        seats = [HUMAN, {"kind": "bot", "agent": "random"}]
        for _ in range(6):  # a human to move in each: owned, idle
            match = lobby._call("POST", "/api/matches", json={"game": "cage", "seats": seats})
            lobby.join(match["id"], 0)
        clusters = [first.hub.cluster]
        assert clusters[0] is not None
        wait_until(lambda: len(clusters[0].owned) == 6)  # the first process took them all
        servers += [RunningServer(url), RunningServer(url)]
        clusters = [server.hub.cluster for server in servers]

        def spread() -> bool:
            owned = [len(c.owned) for c in clusters if c is not None]
            return sum(owned) == 6 and max(owned) <= 3 and min(owned) >= 1

        wait_until(spread, timeout=30)
        everyone = [c.owned for c in clusters if c is not None]
        assert not set.intersection(*everyone)  # never two owners of one match
        lobby.close()
    finally:
        for server in servers:
            server.stop()
