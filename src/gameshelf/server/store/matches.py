"""The match store: matches, seats, moves and their extras through SQLAlchemy (SQLite by
default, PostgreSQL by URL).

Every accepted change is committed before anyone hears of it; a match is rebuilt by replaying
its moves, so a restarted server resumes every match exactly where it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import (
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..clock import Clock
from .clocks import create_clock, write_clock
from .records import (
    NOTIFY_CHANNEL,
    SEATS_CHANGED,
    ClockWrite,
    MatchExtras,
    PendingChange,
    SeatInfo,
    StoredMatch,
    as_utc,
    utcnow,
)
from .schema import sqlite_pragmas, upgrade_schema
from .tables import (
    CardSetRow,
    MatchExtraRow,
    MatchRow,
    MoveRow,
    ResignationRow,
    SeatRow,
)


class Store:
    """Synchronous database access; the server calls it from worker threads."""

    def __init__(self, url: str) -> None:
        self.url = url
        connect_args: dict[str, Any] = {}
        if url.startswith("sqlite"):
            connect_args["check_same_thread"] = False
        self.engine: Engine = create_engine(
            url, connect_args=connect_args, json_serializer=json.dumps, pool_pre_ping=True
        )
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", sqlite_pragmas)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.game_over_hooks: list[Callable[[Session, str, list[float] | None], None]] = []
        upgrade_schema(self.engine)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed on success and rolled back on any error."""
        with self.sessions() as session, session.begin():
            yield session

    def create_match(
        self,
        match_id: str,
        game: str,
        seed: int,
        seats: list[SeatInfo],
        extras: MatchExtras | None = None,
        clock: Clock | None = None,
    ) -> None:
        """Insert a new match with its seats, private extras (pinned data, seed salt) and
        clock (not running yet)."""
        status = "running" if all(s.taken for s in seats) else "open"
        extras = extras or MatchExtras()
        with self.session() as session:
            digest, content = extras.data_digest, extras.data_content
            if digest is not None and content is not None:
                self._store_card_set(session, digest, extras.data_name or "", content)
            session.add(MatchRow(id=match_id, game=game, seed=seed, status=status, version=0))
            session.flush()
            session.add(
                MatchExtraRow(
                    match_id=match_id,
                    data_option=extras.data_option,
                    data_name=extras.data_name,
                    data_digest=extras.data_digest,
                    seed_salt=extras.seed_salt,
                    seed_chosen_by_client=int(extras.seed_chosen_by_client),
                )
            )
            for seat in seats:
                session.add(
                    SeatRow(
                        match_id=match_id,
                        seat=seat.seat,
                        kind=seat.kind,
                        agent=seat.agent,
                        name=seat.name,
                        token_hash=None,
                    )
                )
            if clock is not None:
                create_clock(session, match_id, clock)

    @staticmethod
    def _store_card_set(session: Session, digest: str, name: str, content: str) -> None:
        """Keep a card set once per digest: matches created at the same moment in several
        sessions may all bring the same new set, and the first to commit keeps it (the content
        is the digest's, so whichever is kept is the same)."""
        dialect = session.get_bind().dialect.name
        values = {"digest": digest, "name": name, "content": content}
        if dialect == "postgresql":
            session.execute(pg_insert(CardSetRow).values(values).on_conflict_do_nothing())
        elif dialect == "sqlite":
            session.execute(sqlite_insert(CardSetRow).values(values).on_conflict_do_nothing())
        elif session.get(CardSetRow, digest) is None:
            session.add(CardSetRow(**values))

    def take_seat(
        self,
        match_id: str,
        seat: int,
        name: str | None,
        token_hash: str,
        clock: ClockWrite | None = None,
    ) -> bool:
        """Give a free human seat to a player; False if someone took it first. ``clock``: the
        first turn's clock, started by this join (stored in the same transaction)."""
        with self.session() as session:
            row = session.scalar(
                select(SeatRow)
                .where(SeatRow.match_id == match_id, SeatRow.seat == seat)
                .with_for_update()
            )
            if row is None or row.kind != "human" or row.token_hash is not None:
                return False
            row.token_hash = token_hash
            row.name = name
            match_row = session.get(MatchRow, match_id)
            if match_row is not None:
                match_row.updated = utcnow()
                self._notify(session, [(match_id, SEATS_CHANGED)])
            seats = session.scalars(select(SeatRow).where(SeatRow.match_id == match_id)).all()
            if all(s.kind == "bot" or s.token_hash is not None for s in seats):
                match = session.get(MatchRow, match_id)
                if match is not None and match.status == "open":
                    match.status = "running"
            if clock is not None:
                write_clock(session, match_id, clock)
            return True

    def write_changes(self, changes: list[PendingChange]) -> list[bool]:
        """Store changes of different matches in one transaction; returns, per change, whether
        it was stored.

        Each change is a compare-and-set on its match's version: a change whose match moved on
        in the meantime (another server process stored a change first) is not stored (False),
        and the others are. One commit (one fsync) for a whole batch is what lets many
        concurrent matches share the database without queueing behind each other's commits.
        On PostgreSQL every stored change also notifies the other server processes.
        """
        now = utcnow()
        stored: list[bool] = []
        with self.session() as session:
            for change in changes:
                stored.append(self._write_change(session, change, now))
            self._notify(
                session,
                [(c.match_id, c.version) for c, ok in zip(changes, stored, strict=True) if ok],
            )
        return stored

    def _write_change(self, session: Session, change: PendingChange, now: datetime) -> bool:
        """One change in the batch's transaction (False: its match moved on, nothing written)."""
        changed = session.execute(
            update(MatchRow)
            .where(MatchRow.id == change.match_id, MatchRow.version == change.version - 1)
            .values(
                version=change.version,
                status=change.status,
                result=change.result,
                result_text=change.result_text,
                updated=now,
            )
            .execution_options(synchronize_session=False)
        )
        if _rowcount(changed) != 1:
            return False
        if change.remove_from is not None:
            session.execute(
                delete(MoveRow).where(
                    MoveRow.match_id == change.match_id, MoveRow.ply >= change.remove_from
                )
            )
        if change.move is not None:
            move = change.move
            session.execute(
                insert(MoveRow).values(
                    match_id=change.match_id,
                    ply=move.ply,
                    player=move.player,
                    action=move.action,
                    notation=move.notation,
                    created=now,
                )
            )
        if change.clock is not None:
            write_clock(session, change.match_id, change.clock)
        if change.resigned is not None:
            session.add(ResignationRow(match_id=change.match_id, seat=change.resigned, created=now))
        if change.finishes:
            self.finished(session, change.match_id, change.result)
        return True

    def finished(self, session: Session, match_id: str, result: list[float] | None) -> None:
        """Call in every transaction that ends a match: runs the game-over hooks in it (the
        server's app adds ``ratings.settle``: a rated match is rated with its game-over, once,
        or not at all if the commit fails)."""
        for hook in self.game_over_hooks:
            hook(session, match_id, result)

    def _notify(self, session: Session, changes: list[tuple[str, int]]) -> None:
        """Tell the other server processes (PostgreSQL ``NOTIFY``, sent at commit): payload
        ``<id>:<version>``, or ``<id>:-1`` when a seat was taken."""
        if not self.url.startswith("postgresql"):
            return
        for match_id, version in dict(changes).items():
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": f"{match_id}:{version}"},
            )

    def write_clock(self, match_id: str, written: ClockWrite) -> None:
        """Store a match's clock on its own (a deadline that no longer holds, written again)."""
        with self.session() as session:
            write_clock(session, match_id, written)

    def count_bot_only_running(self) -> int:
        """Running matches without a human seat, across every server process."""
        with self.session() as session:
            humans = select(SeatRow.match_id).where(SeatRow.kind == "human")
            query = (
                select(func.count())
                .select_from(MatchRow)
                .where(MatchRow.status == "running", MatchRow.id.not_in(humans))
            )
            return int(session.scalar(query) or 0)

    def finished_at(self, match_id: str) -> datetime | None:
        """When a finished match ended: its row's last change, the commit of the move, flag or
        resignation that finished it (``None`` for a match that is not finished)."""
        with self.session() as session:
            match = session.get(MatchRow, match_id)
            if match is None or match.status != "finished":
                return None
            return as_utc(match.updated or match.created)

    def load(self, match_id: str, from_ply: int = 0) -> StoredMatch | None:
        """A match with its seats and moves (those from ``from_ply`` on), or None."""
        with self.session() as session:
            match = session.get(MatchRow, match_id)
            if match is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.match_id == match_id).order_by(SeatRow.seat)
            ).all()
            moves = session.scalars(
                select(MoveRow)
                .where(MoveRow.match_id == match_id, MoveRow.ply >= from_ply)
                .order_by(MoveRow.ply)
            ).all()
            extras = self._extras(session, match_id)
            return StoredMatch(
                id=match.id,
                game=match.game,
                seed=match.seed,
                status=match.status,
                version=match.version,
                seats=[SeatInfo(s.seat, s.kind, s.agent, s.name, s.token_hash) for s in seats],
                moves=[(m.player, m.action, m.notation) for m in moves],
                created=as_utc(match.created),
                updated=as_utc(match.updated or match.created),
                extras=extras,
                result=match.result,
                result_text=match.result_text,
            )

    @staticmethod
    def _extras(session: Session, match_id: str) -> MatchExtras:
        row = session.get(MatchExtraRow, match_id)
        if row is None:  # a match stored before extras existed
            return MatchExtras()
        data = None if row.data_digest is None else session.get(CardSetRow, row.data_digest)
        return MatchExtras(
            data_option=row.data_option,
            data_name=row.data_name,
            data_digest=row.data_digest,
            data_content=None if data is None else data.content,
            seed_salt=row.seed_salt,
            seed_chosen_by_client=bool(row.seed_chosen_by_client),
        )

    def mark_unloadable(self, match_id: str) -> None:
        """Set a match that cannot be rebuilt aside (status ``broken``), keeping its rows."""
        with self.session() as session:
            match = session.get(MatchRow, match_id, with_for_update=True)
            if match is not None:
                match.status = "broken"
                match.updated = utcnow()

    def list_matches(
        self, status: str | None, limit: int, idle_before: datetime | None = None
    ) -> list[MatchRow]:
        """Matches, newest first, optionally of one status; ``idle_before`` leaves out open and
        running matches whose last change is older than that moment."""
        with self.session() as session:
            query = select(MatchRow).order_by(MatchRow.created.desc()).limit(limit)
            if status is not None:
                query = query.where(MatchRow.status == status)
            if idle_before is not None:
                query = query.where(
                    (MatchRow.status.not_in(("open", "running")))
                    | (MatchRow.updated >= idle_before)
                )
            return list(session.scalars(query).all())

    def match_ids(self, status: str) -> list[str]:
        """Ids of every match with ``status``."""
        with self.session() as session:
            return list(session.scalars(select(MatchRow.id).where(MatchRow.status == status)))

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()


def _rowcount(result: Any) -> int:
    return int(getattr(result, "rowcount", 0))
