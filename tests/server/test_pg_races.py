"""Races between database sessions, made deterministic: one session holds its transaction open
while another is seen (in ``pg_locks``) waiting on it, then the first commits. Covers the
schema migration of processes started at once, the first AXIA matches created at once, two
game-overs of one new rated player, and a failing game-over hook inside a batch of moves."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from gameshelf.server import live
from gameshelf.server.accounts import AccountStore
from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.committer import GroupCommitter
from gameshelf.server.ratings import settle
from gameshelf.server.store import (
    CardSetRow,
    MatchExtras,
    MatchRow,
    PendingChange,
    RatingRow,
    SeatInfo,
    Store,
    StoredMove,
    schema_revision,
    upgrade_schema,
)
from gameshelf.server.store.schema import MIGRATION_LOCK

from .conftest import DATABASES, RunningServer, database_url
from .helpers import Process

PASSWORD = "correct horse battery"


@pytest.fixture
def postgres(tmp_path: Path) -> str:
    if not os.environ.get("GAMESHELF_TEST_POSTGRES_URL"):
        pytest.fail("these races are PostgreSQL's: export GAMESHELF_TEST_POSTGRES_URL")
    return database_url("postgresql", tmp_path)


def _waiting(engine: Engine) -> int:
    """Sessions of this database blocked on a lock right now."""
    with engine.connect() as connection:
        query = text(
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE NOT l.granted AND a.datname = current_database()"
        )
        return int(connection.execute(query).scalar_one())


def _until(check: Callable[[], bool], event: threading.Event) -> None:
    """Wait until ``check`` holds (polling the database), failing after 20 s."""
    for _ in range(400):
        if check():
            return
        event.wait(0.05)
    pytest.fail("the other sessions never reached the lock")


class Worker(threading.Thread):
    """Runs ``job`` in a thread and keeps its exception for the test to see."""

    def __init__(self, job: Callable[[], object]) -> None:
        super().__init__(daemon=True)
        self.job = job
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.job()
        except BaseException as error:  # the test reports it
            self.error = error


def test_processes_started_at_once_migrate_an_empty_database_one_by_one(postgres: str) -> None:
    engines = [create_engine(postgres) for _ in range(4)]
    holder, racers = engines[0], engines[1:]
    try:
        with holder.connect() as held:
            held.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            held.commit()
            workers = [Worker(partial(upgrade_schema, engine)) for engine in racers]
            for worker in workers:
                worker.start()
            _until(lambda: _waiting(holder) == len(racers), threading.Event())
            held.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            held.commit()
        for worker in workers:
            worker.join(60)
            assert worker.error is None, worker.error
        revisions = {schema_revision(engine) for engine in racers}
        assert len(revisions) == 1 and None not in revisions
    finally:
        for engine in engines:
            engine.dispose()


def _new_match(store: Store, match_id: str, digest: str) -> None:
    seats = [SeatInfo(0, "human", None, None, None), SeatInfo(1, "bot", "random", None, None)]
    extras = MatchExtras("standard", "standard", digest, "cards", None, False)
    store.create_match(match_id, "axia", 1, seats, extras)


def test_matches_created_at_once_with_one_new_card_set_all_succeed(postgres: str) -> None:
    store = Store(postgres)
    digest = "d" * 64
    try:
        with Session(store.engine) as first, first.begin():
            store._store_card_set(first, digest, "standard", "cards")
            first.flush()
            worker = Worker(lambda: _new_match(store, "00000000000000a1", digest))
            worker.start()
            _until(lambda: _waiting(store.engine) >= 1, threading.Event())
        worker.join(30)
        assert worker.error is None, worker.error
        _new_match(store, "00000000000000a2", digest)
        with store.session() as session:
            assert len(session.scalars(select(CardSetRow)).all()) == 1
            assert len(session.scalars(select(MatchRow)).all()) == 2
    finally:
        store.close()


def _rated_against_bot(store: Store, accounts: AccountStore, match_id: str) -> None:
    seats = [SeatInfo(0, "human", None, "Newt", "0" * 64), SeatInfo(1, "bot", "random", None, None)]
    store.create_match(match_id, "axiom", 1, seats)
    account = accounts.find("Newt") or accounts.register("Newt", PASSWORD)[0]
    accounts.link_seat(match_id, 0, account)
    accounts.mark_rated(match_id)


def _settle_alone(store: Store, match_id: str) -> None:
    with store.session() as session:
        assert settle(session, match_id, [1.0, -1.0])


def test_two_game_overs_of_a_new_player_at_once_both_count(postgres: str) -> None:
    store = Store(postgres)
    try:
        accounts = AccountStore(store)
        first_match, second_match = "00000000000000b1", "00000000000000b2"
        for match_id in (first_match, second_match):
            _rated_against_bot(store, accounts, match_id)
        with store.session() as first:
            assert settle(first, first_match, [1.0, -1.0])  # its rating row, uncommitted
            worker = Worker(lambda: _settle_alone(store, second_match))
            worker.start()
            _until(lambda: _waiting(store.engine) >= 1, threading.Event())
        worker.join(30)
        assert worker.error is None, worker.error
        with store.session() as session:
            rows = session.scalars(select(RatingRow)).all()
        assert [row.games for row in rows] == [2]
    finally:
        store.close()


def _failing_for(match_id: str) -> Callable[[Session, str, list[float] | None], None]:
    def hook(_session: Session, finished: str, _result: list[float] | None) -> None:
        if finished == match_id:
            raise RuntimeError("hook failed")

    return hook


@pytest.fixture(params=DATABASES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = Store(database_url(request.param, tmp_path))
    yield opened
    opened.close()


def test_a_failing_game_over_hook_costs_only_its_own_move(store: Store) -> None:
    seats = [SeatInfo(0, "bot", "random", None, None), SeatInfo(1, "bot", "random", None, None)]
    for match_id in ("00000000000000c1", "00000000000000c2"):
        store.create_match(match_id, "axiom", 1, seats)
    store.game_over_hooks.append(_failing_for("00000000000000c1"))

    def ending(match_id: str) -> PendingChange:
        move = StoredMove(0, 0, 0, "a1")
        return PendingChange(match_id, 1, "finished", [1.0, -1.0], "done", move=move)

    async def both() -> tuple[bool | BaseException, bool | BaseException]:
        writer = GroupCommitter(store)  # both moves queue before its first batch runs
        return await asyncio.gather(
            writer.write(ending("00000000000000c1")),
            writer.write(ending("00000000000000c2")),
            return_exceptions=True,
        )

    failed, stored = asyncio.run(both())
    assert isinstance(failed, RuntimeError) and stored is True
    assert store.load("00000000000000c2").status == "finished"  # type: ignore[union-attr]
    assert store.load("00000000000000c1").status == "running"  # type: ignore[union-attr]


def test_an_unexpected_failure_answers_the_request_id(
    lobby: Lobby, server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = lobby.create("cage", [{"kind": "human"}, {"kind": "human"}])
    token = lobby.join(match["id"])["token"]

    async def broken(*_args: object) -> None:
        raise RuntimeError("a storage failure the handler did not expect")

    with SeatClient(server.url, match["id"], [token]) as table:
        monkeypatch.setattr(live, "_dispatch", broken)
        table.send({"type": "ping", "id": "req-7"})
        reply = table.receive()
        while reply.get("type") != "error":
            reply = table.receive()
    assert reply["code"] == "server/error" and reply["id"] == "req-7"


def test_three_server_processes_started_at_once_on_an_empty_database_all_serve(
    postgres: str, tmp_path: Path
) -> None:
    processes = [Process(postgres, tmp_path / f"p{index}.log") for index in range(3)]
    try:
        for process in processes:
            process.wait_ready()
    finally:
        for process in processes:
            process.stop()
