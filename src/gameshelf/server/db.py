"""Persistence of matches, seats and moves through SQLAlchemy (SQLite default, PostgreSQL by URL).

Every accepted move is one row, committed before anyone hears of it; a match is rebuilt by
replaying its rows, so a restarted server resumes every match exactly where it was.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from gameshelf.core.errors import GameshelfError


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class MatchRow(Base):
    """A match: its game string, seed, status and version counter."""

    __tablename__ = "matches"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[Any] = mapped_column(JSON, nullable=True)
    result_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    """One seat of a match: a human (with a hashed secret token once joined) or a bot."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    agent: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MoveRow(Base):
    """One accepted move (or chance outcome) of a match, in order."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("match_id", "ply"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    ply: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CardSetRow(Base):
    """Game data a match was created with (an AXIA card set), stored once per content digest.

    A match keeps playing with the data it started with, whatever the operator later changes.
    """

    __tablename__ = "card_sets"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    content: Mapped[str] = mapped_column(Text)


class MatchExtraRow(Base):
    """What a match needs beyond its public game string: pinned data and the seed's salt.

    ``data_digest`` names the :class:`CardSetRow` the match plays with; ``seed_salt`` is the
    secret half of the seed commitment published at the start (revealed with the seed at the end).
    """

    __tablename__ = "match_extras"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    data_option: Mapped[str | None] = mapped_column(String(32), nullable=True)
    data_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    data_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seed_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seed_chosen_by_client: Mapped[int] = mapped_column(Integer, default=0)


class ClockRow(Base):
    """A match's clock: its time control, each seat's bank, the turn's start and the flag."""

    __tablename__ = "match_clocks"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))
    initial_ms: Mapped[int] = mapped_column(BigInteger)
    increment_ms: Mapped[int] = mapped_column(BigInteger)
    per_move_ms: Mapped[int] = mapped_column(BigInteger)
    remaining_ms: Mapped[Any] = mapped_column(JSON)
    turn_started: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    flagged: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ResignationRow(Base):
    """The seat that resigned a match (clocked or not): a voluntary flag (docs/server.md)."""

    __tablename__ = "match_resignations"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def as_utc(moment: datetime) -> datetime:
    """``moment`` with its timezone: SQLite gives back naive datetimes, stored as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def hash_token(token: str) -> str:
    """The stored form of a seat token (only the hash is kept)."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored`` (constant time)."""
    return stored is not None and hmac.compare_digest(hash_token(token), stored)


@dataclass(frozen=True)
class SeatInfo:
    """A seat as the server keeps it in memory."""

    seat: int
    kind: str
    agent: str | None
    name: str | None
    token_hash: str | None

    @property
    def taken(self) -> bool:
        """Whether the seat is occupied (bots always are)."""
        return self.kind == "bot" or self.token_hash is not None


@dataclass(frozen=True)
class PendingMove:
    """A move waiting to be written, with the match state it leads to."""

    match_id: str
    ply: int
    player: int
    action: int
    notation: str
    version: int
    status: str
    result: list[float] | None
    result_text: str | None = None
    on_store: Callable[[Session], None] | None = None
    """More to write in the move's own transaction once it is stored (its clock)."""


@dataclass(frozen=True)
class MatchExtras:
    """The private extras of a match (see :class:`MatchExtraRow`)."""

    data_option: str | None = None
    data_name: str | None = None
    data_digest: str | None = None
    data_content: str | None = None
    seed_salt: str | None = None
    seed_chosen_by_client: bool = False


@dataclass(frozen=True)
class StoredMatch:
    """Everything needed to rebuild a match in memory."""

    id: str
    game: str
    seed: int
    status: str
    version: int
    seats: list[SeatInfo]
    moves: list[tuple[int, int, str]]
    created: datetime
    updated: datetime
    extras: MatchExtras


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
            event.listen(self.engine, "connect", _sqlite_pragmas)
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
    ) -> None:
        """Insert a new match with its seats and private extras (pinned data, seed salt)."""
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

    def take_seat(self, match_id: str, seat: int, name: str | None, token_hash: str) -> bool:
        """Give a free human seat to a player; False if someone took it first."""
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
            return True

    def append_moves(self, moves: list[PendingMove]) -> list[bool]:
        """Store moves of different matches and their matches' new state in one transaction;
        returns, per move, whether it was stored.

        Each move is a compare-and-set on its match's version: a move whose match moved on in
        the meantime (another server process stored a move first) is not stored (False), and
        the others are. One commit (one fsync) for a whole batch is what lets many concurrent
        matches share the database without queueing behind each other's commits. On
        PostgreSQL every stored move also notifies the other server processes.
        """
        now = utcnow()
        stored: list[bool] = []
        with self.session() as session:
            for move in moves:
                changed = session.execute(
                    update(MatchRow)
                    .where(MatchRow.id == move.match_id, MatchRow.version == move.version - 1)
                    .values(
                        version=move.version,
                        status=move.status,
                        result=move.result,
                        result_text=move.result_text,
                        updated=now,
                    )
                    .execution_options(synchronize_session=False)
                )
                if _rowcount(changed) != 1:
                    stored.append(False)
                    continue
                session.execute(
                    insert(MoveRow).values(
                        match_id=move.match_id,
                        ply=move.ply,
                        player=move.player,
                        action=move.action,
                        notation=move.notation,
                        created=now,
                    )
                )
                if move.on_store is not None:
                    move.on_store(session)
                if move.status == "finished":
                    self.finished(session, move.match_id, move.result)
                stored.append(True)
            self._notify(
                session,
                [(m.match_id, m.version) for m, ok in zip(moves, stored, strict=True) if ok],
            )
        return stored

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

    def remove_moves_from(self, match_id: str, ply: int, version: int, status: str) -> bool:
        """Delete every move from ``ply`` on (an undo) and store the new version, atomically,
        if the match is still at ``version - 1`` (False: it moved on, nothing changed)."""
        with self.session() as session:
            changed = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.version == version - 1)
                .values(version=version, status=status, result=None, updated=utcnow())
                .execution_options(synchronize_session=False)
            )
            if _rowcount(changed) != 1:
                return False
            session.execute(delete(MoveRow).where(MoveRow.match_id == match_id, MoveRow.ply >= ply))
            self._notify(session, [(match_id, version)])
            return True

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

    @staticmethod
    def _update(
        session: Session, match_id: str, version: int, status: str, result: list[float] | None
    ) -> None:
        match = session.get(MatchRow, match_id, with_for_update=True)
        if match is None:
            raise LookupError(match_id)
        match.version = version
        match.status = status
        match.result = result
        match.updated = utcnow()

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


MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = -0x6761_6D65_7368_656C  # "gameshelf"-ish; negative, unlike any match's key
"""The PostgreSQL advisory-lock key held while the schema is migrated."""
FIRST_REVISION = "0001"


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names, made absolute; None for other databases, in-memory ones
    and text that is no database URL (the engine names that problem itself)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    if parsed.query.get("mode") == "memory":
        return None
    return Path(name).resolve()


def check_database_folder(url: str) -> None:
    """Refuse, in one line naming the folder, a SQLite database the server could not create
    or write: SQLite and the server's lock need to write files beside it, and finding out at
    start-up would come after the server announced itself."""
    path = sqlite_file(url)
    if path is None:
        return
    folder = path.parent
    if not folder.exists():
        raise GameshelfError(
            f"the database's folder {str(folder)!r} does not exist: create it "
            f"(mkdir -p {folder}) or give another --database-url"
        )
    if not folder.is_dir():
        raise GameshelfError(f"the database's folder {str(folder)!r} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameshelfError(
            f"the database's folder {str(folder)!r} is not writable here: SQLite keeps its "
            "journal and the server its lock beside the database; give another --database-url"
        )
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise GameshelfError(f"the database {str(path)!r} cannot be read and written here")


def _alembic_config(connection: Connection) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade_schema(engine: Engine) -> str:
    """Bring the database to the newest schema with Alembic; returns the revision it is at.

    A database made before migrations existed (the tables of ``create_all``, no version table)
    is first stamped with the first revision, which describes exactly those tables.
    """
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes started at once on an empty database would each create the
            # version table; the lock (freed at commit) makes them migrate one after another.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config = _alembic_config(connection)
        inspector = inspect(connection)
        if inspector.has_table("matches") and not inspector.has_table("alembic_version"):
            command.stamp(config, FIRST_REVISION)
        command.upgrade(config, "head")
    return schema_revision(engine) or ""


def schema_revision(engine: Engine) -> str | None:
    """The Alembic revision the database is at (``None`` before any migration)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


NOTIFY_CHANNEL = "gameshelf_matches"
SEATS_CHANGED = -1
"""The version sent in a notification that says a seat was taken (the version is unchanged)."""


def _rowcount(result: Any) -> int:
    return int(getattr(result, "rowcount", 0))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
