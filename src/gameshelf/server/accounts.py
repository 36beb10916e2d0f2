"""Optional player accounts: registration, log-in sessions, seats held by accounts.

Guests keep playing exactly as before (a seat token is all a guest has). An account is a name
(unique after the player-name normalisation, compared case-insensitively) and an Argon2 hash of
its password. Logging in makes a session: a random token sent once as an HTTP-only cookie and
stored only as its SHA-256, with an expiry. A seat is an account's when a logged-in player joins
it, or when a guest's browser later proves the seat's token (a *claim*).

The tables (migration ``0004``) are declared with every other table in :mod:`.store`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .contract import is_match_id
from .errors import ServerError
from .names import normalise_name, skeleton
from .store import (
    NAME_KEY_LENGTH,
    AccountRow,
    MatchRow,
    RatedMatchRow,
    SeatAccountRow,
    SeatRow,
    SessionRow,
    as_utc,
    hash_token,
    token_matches,
    utcnow,
)

if TYPE_CHECKING:
    from .store import Store

MIN_PASSWORD = 8
MAX_PASSWORD = 256  # bounds the hashing work one request can ask for
SESSION_COOKIE = "gameshelf_session"


@dataclass(frozen=True)
class Account:
    """An account as the routes see it (never its hash)."""

    id: int
    name: str


def account_name(name: str) -> tuple[str, str]:
    """The display name and the uniqueness key of a new account's ``name``.

    The display name is normalised exactly like a guest's player name (NFKC, single spaces, no
    control or bidi characters, nothing a bot could be taken for); the key is the name's
    look-alike skeleton (:func:`~gameshelf.server.names.skeleton`), so "Ada", "ADA" and a
    Cyrillic "Аda" cannot all exist. Folding case can lengthen a name ("ß" is "ss"): a key
    longer than its column is refused by name.
    """
    text = normalise_name(name)
    if text is None:
        raise ServerError("request/invalid", "name: required")
    key = skeleton(text)
    if len(key) > NAME_KEY_LENGTH:
        raise ServerError(
            "request/invalid",
            f"name: too long once its case is folded ({len(key)} characters, at most "
            f"{NAME_KEY_LENGTH}); choose a shorter one",
        )
    return text, key


def _lookup(session: Session, name: str) -> AccountRow | None:
    """The account called ``name``: by its look-alike key, or, for an account registered
    before keys were skeletons whose skeleton another account already had, by its old
    case-folded key (the migration left that one as it was)."""
    try:
        text, key = account_name(name)
    except ServerError:
        return None
    old = text.casefold()
    rows = session.scalars(select(AccountRow).where(AccountRow.name_key.in_({key, old}))).all()
    exact = [row for row in rows if row.name_key == old]
    found = exact or list(rows)
    return found[0] if found else None


P = ParamSpec("P")
T = TypeVar("T")


class AccountStore:
    """Accounts and sessions on the server's database (blocking: call from worker threads).

    :meth:`register` and :meth:`log_in` hash on purpose-slow Argon2: call them through
    :meth:`hashing`, whose few threads are apart from the event loop's default pool, so a
    flood of log-ins queues for those threads and never holds the ones that store moves.
    """

    def __init__(self, store: Store, session_days: float = 30.0, hashing_threads: int = 2) -> None:
        if hashing_threads < 1:
            raise ValueError(f"hashing_threads must be at least 1, not {hashing_threads}")
        self.store = store
        self.session_life = timedelta(days=session_days)
        self.hashing_pool = ThreadPoolExecutor(
            max_workers=hashing_threads, thread_name_prefix="gameshelf-hash"
        )
        # argon2-cffi's defaults are RFC 9106's low-memory profile (Argon2id, t=3, 64 MiB)
        self.hasher = PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    # --- registration and log-in ------------------------------------------------------------
    async def hashing(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``call`` (one that hashes a password) on the hashing threads, off the loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.hashing_pool, partial(call, *args, **kwargs))

    def close(self) -> None:
        """Let the hashing threads go (hashes already queued are dropped)."""
        self.hashing_pool.shutdown(wait=False, cancel_futures=True)

    def register(self, name: str, password: str) -> tuple[Account, str]:
        """Create an account and log it in; returns it and the new session's token."""
        display, key = account_name(name)
        check_password(password)
        digest = self.hasher.hash(password)  # slow on purpose: outside the transaction
        try:
            with self.store.session() as session:
                if session.scalar(select(AccountRow.id).where(AccountRow.name_key == key)):
                    raise _name_taken(display)
                row = AccountRow(name=display, name_key=key, password_hash=digest)
                session.add(row)
                session.flush()
                account = Account(row.id, row.name)
                token = self._new_session(session, row.id)
        except IntegrityError:  # registered by someone else at the same moment
            raise _name_taken(display) from None
        return account, token

    def log_in(self, name: str, password: str) -> tuple[Account, str]:
        """Check a name and password; returns the account and a new session's token."""
        with self.store.session() as session:
            row = _lookup(session, name)
            stored = row.password_hash if row is not None else self._dummy
        if len(password) > MAX_PASSWORD or not self._verify(stored, password) or row is None:
            raise ServerError("auth/bad-login", "unknown name or wrong password")
        with self.store.session() as session:
            if self.hasher.check_needs_rehash(stored):  # parameters raised since it was made
                fresh = session.get(AccountRow, row.id)
                if fresh is not None:
                    fresh.password_hash = self.hasher.hash(password)
            token = self._new_session(session, row.id)
        return Account(row.id, row.name), token

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def _new_session(self, session: object, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = utcnow()
        session.add(  # type: ignore[attr-defined]
            SessionRow(
                token_hash=hash_token(token),
                account_id=account_id,
                created=now,
                expires=now + self.session_life,
            )
        )
        return token

    def session_account(self, token: str | None) -> Account | None:
        """The account a session cookie's token belongs to (None: absent, unknown, expired)."""
        if not token or len(token) > 128:
            return None
        with self.store.session() as session:
            row = session.get(SessionRow, hash_token(token))
            if row is None:
                return None
            if as_utc(row.expires) <= utcnow():
                session.delete(row)
                return None
            account = session.get(AccountRow, row.account_id)
            return None if account is None else Account(account.id, account.name)

    def log_out(self, token: str | None) -> None:
        """End a session (and sweep expired ones while at it)."""
        with self.store.session() as session:
            if token:
                session.execute(
                    delete(SessionRow).where(SessionRow.token_hash == hash_token(token))
                )
            session.execute(delete(SessionRow).where(SessionRow.expires <= utcnow()))

    def find(self, name: str) -> Account | None:
        """The account called ``name`` (after normalisation), or None."""
        with self.store.session() as session:
            row = _lookup(session, name)
            return None if row is None else Account(row.id, row.name)

    # --- seats ------------------------------------------------------------------------------
    def link_seat(self, match_id: str, seat: int, account: Account) -> None:
        """Record that ``account`` holds ``seat`` of ``match_id`` (it just joined it)."""
        with self.store.session() as session:
            if session.get(SeatAccountRow, (match_id, seat)) is None:
                session.add(SeatAccountRow(match_id=match_id, seat=seat, account_id=account.id))

    def claim(self, account: Account, seats: list[tuple[str, str]]) -> list[tuple[str, int]]:
        """Attach guest seats to ``account``: each (match id, seat token) pair must prove a
        seat; a seat already held by an account is refused. All or nothing.

        Returns the (match id, seat) pairs now held by the account.
        """
        claimed: list[tuple[str, int]] = []
        try:
            self._claim_in(account, seats, claimed)
        except IntegrityError:  # another claim of the same seat committed first
            raise ServerError(
                "match/seat-taken", "a seat was claimed by another request at the same moment"
            ) from None
        return claimed

    def _claim_in(
        self, account: Account, seats: list[tuple[str, str]], claimed: list[tuple[str, int]]
    ) -> None:
        with self.store.session() as session:
            for match_id, token in seats:
                if not is_match_id(match_id):  # never reaches the database
                    raise ServerError("auth/bad-token", "a match id is not one of this server's")
                rows = session.scalars(
                    select(SeatRow).where(SeatRow.match_id == match_id, SeatRow.kind == "human")
                ).all()
                seat = next((r.seat for r in rows if token_matches(token, r.token_hash)), None)
                if seat is None:
                    raise ServerError(
                        "auth/bad-token", f"match {match_id[:32]}: the token proves no seat"
                    )
                held = session.get(SeatAccountRow, (match_id, seat))
                if held is not None and held.account_id != account.id:
                    raise ServerError(
                        "match/seat-taken",
                        f"seat {seat} of match {match_id} already belongs to another account",
                    )
                if held is None:
                    session.add(SeatAccountRow(match_id=match_id, seat=seat, account_id=account.id))
                    session.flush()
                claimed.append((match_id, seat))

    def seat_holders(self, match_id: str) -> dict[int, Account]:
        """The seats of ``match_id`` held by accounts."""
        with self.store.session() as session:
            rows = session.execute(
                select(SeatAccountRow.seat, AccountRow.id, AccountRow.name)
                .join(AccountRow, AccountRow.id == SeatAccountRow.account_id)
                .where(SeatAccountRow.match_id == match_id)
            ).all()
            return {seat: Account(ident, name) for seat, ident, name in rows}

    # --- rated matches ----------------------------------------------------------------------
    def mark_rated(self, match_id: str) -> None:
        """Record that ``match_id`` was created as a rated match."""
        with self.store.session() as session:
            if session.get(MatchRow, match_id) is not None:
                session.add(RatedMatchRow(match_id=match_id, settled=None))

    def is_rated(self, match_id: str) -> bool:
        """Whether ``match_id`` was created as a rated match."""
        with self.store.session() as session:
            return session.get(RatedMatchRow, match_id) is not None


def check_password(password: str) -> None:
    """Refuse a password too short or too long to be hashed."""
    if len(password) < MIN_PASSWORD:
        raise ServerError("request/invalid", f"password: at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise ServerError("request/invalid", f"password: at most {MAX_PASSWORD} characters")


def _name_taken(name: str) -> ServerError:
    return ServerError("account/name-taken", f"the name {name!r} is taken; choose another")
