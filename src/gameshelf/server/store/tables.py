"""Every table of the server, in one place: matches, seats, moves and their extras; clocks and
resignations; accounts, sessions, ratings and log-in throttles; chat and rematches. The schema
itself is made by the migrations (``server/migrations``); these classes map it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .records import utcnow

NAME_KEY_LENGTH = 64
"""Characters of ``accounts.name_key``: a name whose key is longer is refused, not stored."""


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


class AccountRow(Base):
    """A registered player: display name, normalised key, Argon2 password hash."""

    __tablename__ = "accounts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_LENGTH), unique=True, index=True)
    password_hash: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A log-in session: only the SHA-256 of its cookie token is kept."""

    __tablename__ = "account_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeatAccountRow(Base):
    """A seat held by an account (a seat without a row is a guest's)."""

    __tablename__ = "seat_accounts"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)


class RatedMatchRow(Base):
    """A match chosen as rated at creation; ``settled`` once its ratings were applied."""

    __tablename__ = "rated_matches"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    settled: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RatingRow(Base):
    """An account's current rating for one game and player count."""

    __tablename__ = "ratings"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(16), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingChangeRow(Base):
    """What one rated match did to one seat's account rating (the audit trail)."""

    __tablename__ = "rating_changes"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatRow(Base):
    """One chat message of a match."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RematchRow(Base):
    """The rematch that followed a match."""

    __tablename__ = "match_rematches"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    next_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LoginThrottleRow(Base):
    """One account name's bucket of password tries: ``tokens`` left at ``stamp``."""

    __tablename__ = "login_throttles"
    name_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    stamp: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class KnownDeviceRow(Base):
    """A browser that logged in to an account: only the SHA-256 of its cookie is kept."""

    __tablename__ = "login_devices"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
