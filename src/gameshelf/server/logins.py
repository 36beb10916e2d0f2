"""Guessing a name's password, limited in the database so that every server process shares one
count, without locking the name's owner out.

Each account name has a token bucket (``login_throttles``): a wrong password spends a token,
and a try with the bucket empty is refused with the seconds to wait, so a stranger guessing is
slowed to the configured rate however many server processes share the database. The token is
taken before the password is checked (two processes cannot both spend the last one) and given
back when the password was right. The owner is never slowed by strangers' guesses: a browser
that has logged in to the account before (a *known device*: it holds the ``gameshelf_device``
cookie, stored only as its SHA-256 in ``login_devices``) or that holds a live session of the
account does not draw on the bucket at all.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from .store import Base, KnownDeviceRow, LoginThrottleRow, as_utc, hash_token, utcnow

if TYPE_CHECKING:
    from .store import Store

DEVICE_COOKIE = "gameshelf_device"
DEVICE_LIFE = timedelta(days=365)
"""How long a browser stays a known device of an account after its last log-in there."""


class LoginThrottle:
    """Per-name buckets in the database: ``per_minute`` tries refilled, ``burst`` at most."""

    def __init__(self, store: Store, per_minute: float, burst: float) -> None:
        self.store = store
        self.rate = per_minute / 60.0
        self.burst = burst

    def reserve(self, key: str, now: datetime | None = None) -> float:
        """Take one try for the name ``key``: 0 if taken, else the seconds until the next
        one. The name's row is locked while it is read and written, so processes sharing the
        database count together."""
        now = now or utcnow()
        with self.store.session() as session:
            row = self._locked(session, key, now)
            tokens = self._refilled(row, now)
            if tokens >= 1:
                row.tokens, row.stamp = tokens - 1, now
                return 0.0
            row.tokens, row.stamp = tokens, now
            return (1 - tokens) / self.rate if self.rate > 0 else 60.0

    def refund(self, key: str, now: datetime | None = None) -> None:
        """Give back the try taken for ``key``: its password was right."""
        now = now or utcnow()
        with self.store.session() as session:
            row = self._locked(session, key, now)
            row.tokens, row.stamp = min(self.burst, self._refilled(row, now) + 1), now

    def _refilled(self, row: LoginThrottleRow, now: datetime) -> float:
        elapsed = max(0.0, (now - as_utc(row.stamp)).total_seconds())
        return min(self.burst, row.tokens + elapsed * self.rate)

    def _locked(self, session: Session, key: str, now: datetime) -> LoginThrottleRow:
        values = {"name_key": key, "tokens": self.burst, "stamp": now}
        session.execute(_insert_missing(session, LoginThrottleRow, values))
        row = session.scalar(
            select(LoginThrottleRow)
            .where(LoginThrottleRow.name_key == key)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        assert row is not None  # inserted just above if it was missing
        return row


def _insert_missing(session: Session, table: type[Base], values: dict[str, Any]) -> Any:
    """An insert that leaves a row with the same key alone (PostgreSQL and SQLite)."""
    if session.get_bind().dialect.name == "postgresql":
        return pg_insert(table).values(values).on_conflict_do_nothing()
    return sqlite_insert(table).values(values).on_conflict_do_nothing()


class KnownDevices:
    """Browsers that logged in to an account before (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def account_of(self, token: str | None, now: datetime | None = None) -> int | None:
        """The account a device cookie's token was given for (None: absent, unknown, old)."""
        if not token or len(token) > 128:
            return None
        with self.store.session() as session:
            row = session.get(KnownDeviceRow, hash_token(token))
            if row is None or as_utc(row.expires) <= (now or utcnow()):
                return None
            return row.account_id

    def remember(self, account_id: int, token: str | None) -> str:
        """Record this browser as a known device of ``account_id``; returns the cookie's token
        (the browser's own one kept when it already names this account)."""
        now = utcnow()
        with self.store.session() as session:
            session.execute(delete(KnownDeviceRow).where(KnownDeviceRow.expires <= now))
            row = None if not token else session.get(KnownDeviceRow, hash_token(token))
            if token and row is not None and row.account_id == account_id:
                row.expires = now + DEVICE_LIFE
                return token
            fresh = secrets.token_urlsafe(32)
            session.add(
                KnownDeviceRow(
                    token_hash=hash_token(fresh), account_id=account_id, expires=now + DEVICE_LIFE
                )
            )
            return fresh
