"""Several server processes on one PostgreSQL database, coordinated by the database itself.

- **The database is the referee of every change.** A move, an undo or a seat taken is a
  compare-and-set on the match's version in one transaction (``Store.append_moves``), so of two
  racing moves sent to two processes exactly one is stored; the loser's process catches up and
  answers ``state/stale-version``. Moves stay durable before they are acknowledged.
- **Broadcasts through ``LISTEN/NOTIFY``.** Each stored change sends ``NOTIFY
  gameshelf_matches, '<id>:<version>'`` at commit; every process listens, and one that holds the
  match in memory reads the new rows and sends its own clients their views. A client may be
  connected to any process.
- **One owner per live match drives its bots and chance**, proven by a session-level
  PostgreSQL advisory lock held on this process's lock connection. A process takes ownership
  when it schedules a match's bots; a steward loop offers every running match without an owner
  to this process each second. When a process dies its connection closes, its locks are freed,
  and the other processes' stewards take its matches over within about a second.

SQLite stays single-process: :class:`SingleProcessGuard` refuses a second server on the same
file.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import random
from collections.abc import Coroutine
from typing import IO, Protocol

import psycopg

from .store import NOTIFY_CHANNEL, SEATS_CHANGED, sqlite_file

log = logging.getLogger("gameshelf.server")

STEWARD_EVERY_SECONDS = 1.0
APPLICATION_NAME = "gameshelf-server"
"""How each process's listener names itself to PostgreSQL (the processes count each other)."""
SHARE_SLACK = 1
"""Matches a process may own past its fair share before it lets idle ones go."""


def fair_share(matches: int, processes: int) -> int:
    """The most running matches one of ``processes`` should own: an even split, rounded up."""
    return -(-matches // max(1, processes))


class Members(Protocol):
    """What the cluster asks of this process's matches (:class:`~gameshelf.server.sync.Sync`)."""

    async def refresh(self, match_id: str, version: int) -> None:
        """Catch ``match_id`` up: another process stored ``version``."""

    async def refresh_seats(self, match_id: str) -> None:
        """Read ``match_id``'s seats again: another process seated a player."""

    async def take_over(self, match_id: str) -> None:
        """Drive ``match_id`` from now on: its owner died."""

    def give_up(self, match_id: str) -> None:
        """Stop driving ``match_id``: another process owns it now."""

    def idle(self, match_id: str) -> bool:
        """Whether nothing is computed for ``match_id`` here now (its bot is not searching)."""

    async def catch_up_all(self) -> None:
        """Catch every match held here up: notifications may have been missed."""

    async def running_ids(self) -> list[str]:
        """Every running match in the database."""


def conninfo(database_url: str) -> str:
    """A psycopg connection string from a SQLAlchemy URL (``postgresql+psycopg://…``)."""
    scheme, sep, rest = database_url.partition("://")
    return f"postgresql://{rest}" if sep and scheme.startswith("postgresql") else database_url


def lock_key(match_id: str) -> int:
    """The advisory-lock key of a match: its 16 hex digits as a signed 64-bit integer."""
    value = int(match_id, 16)
    return value - (1 << 64) if value >= 1 << 63 else value


class Cluster:
    """This process's membership of a group of server processes on one PostgreSQL database."""

    def __init__(self, database_url: str) -> None:
        self.conninfo = conninfo(database_url)
        self.owned: set[str] = set()
        self.elsewhere: set[str] = set()  # owned by another live process at the last look
        self._locks: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._lock_guard = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._members: Members | None = None
        self.reopened = 0
        """How often the lock connection was opened again after it broke."""

    async def start(self, members: Members) -> None:
        """Open the lock connection, start listening and stewarding."""
        self._members = members
        self._locks = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(members)),
            loop.create_task(self._steward(members)),
        ]

    async def stop(self) -> None:
        """Stop listening and give every match up (closing the connection frees the locks)."""
        for task in self._tasks:
            task.cancel()
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
        self.owned.clear()

    async def own(self, match_id: str) -> bool:
        """Whether this process owns ``match_id`` now (taking it if nobody does)."""
        if match_id in self.owned:
            return True
        if match_id in self.elsewhere:  # the steward looks again each second
            return False
        rows = await self._ask("SELECT pg_try_advisory_lock(%s)", (lock_key(match_id),))
        if rows and rows[0][0]:
            self.owned.add(match_id)
            return True
        self.elsewhere.add(match_id)
        return False

    async def _held_keys(self) -> set[int]:
        """Advisory-lock keys held by any process now (one look at ``pg_locks``)."""
        rows = await self._ask(
            "SELECT classid::bigint, objid::bigint FROM pg_locks "
            "WHERE locktype = 'advisory' AND objsubid = 1 AND granted"
        )
        keys = set()
        for high, low in rows:
            value = (int(high) << 32) | int(low)  # type: ignore[call-overload]
            keys.add(value - (1 << 64) if value >= 1 << 63 else value)
        return keys

    async def release(self, match_id: str) -> None:
        """Give up ``match_id`` (its game is over)."""
        if match_id not in self.owned:
            return
        self.owned.discard(match_id)
        await self._ask("SELECT pg_advisory_unlock(%s)", (lock_key(match_id),))

    async def _ask(self, query: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """Run ``query`` on the lock connection. A connection the database dropped (it
        restarted, or ended the session) is opened again, the matches owned are taken again
        (those another process took meanwhile are given up), and the query is run once more."""
        lost: list[str] = []
        async with self._lock_guard:
            if self._locks is None:
                return []
            try:
                rows = await _run(self._locks, query, params)
            except psycopg.OperationalError as error:
                log.warning("cluster: the lock connection broke (%s); opening it again", error)
                lost = await self._reopen_locked()
                rows = await _run(self._locks, query, params)
        for match_id in lost:
            log.info("cluster: match %s is owned by another process now", match_id)
            if self._members is not None:
                self._members.give_up(match_id)
        return rows

    async def _reopen_locked(self) -> list[str]:
        """A new lock connection, holding again every match still free; returns the lost."""
        with contextlib.suppress(Exception):
            await self._locks.close()  # type: ignore[union-attr]
        self._locks = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        self.reopened += 1
        lost = []
        for match_id in sorted(self.owned):
            rows = await _run(self._locks, "SELECT pg_try_advisory_lock(%s)", (lock_key(match_id),))
            if not (rows and rows[0][0]):
                lost.append(match_id)
        for match_id in lost:
            self.owned.discard(match_id)
            self.elsewhere.add(match_id)
        return lost

    async def _listen(self, members: Members) -> None:
        """Apply other processes' changes as their notifications arrive (reconnecting)."""
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, application_name=APPLICATION_NAME
                ) as connection:
                    await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    # what was committed while nobody listened here was never heard
                    asyncio.get_running_loop().create_task(_quietly(members.catch_up_all()))
                    async for notice in connection.notifies():
                        match_id, _, version = notice.payload.partition(":")
                        if version == str(SEATS_CHANGED):
                            work = members.refresh_seats(match_id)
                        elif version.isdigit():
                            work = members.refresh(match_id, int(version))
                        else:
                            continue
                        asyncio.get_running_loop().create_task(_quietly(work))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("cluster: listening failed (%s); reconnecting in 1 s", error)
                await asyncio.sleep(1.0)

    async def _steward(self, members: Members) -> None:
        """Each second, keep ownership fair: take over running matches nobody owns (their
        process died, or a busier one let them go), up to this process's fair share, and let
        go of idle ones past it, so matches spread over the processes however they started."""
        while True:
            await asyncio.sleep(STEWARD_EVERY_SECONDS)
            try:
                await self.balance(members)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("cluster: steward pass failed: %s", error)

    async def balance(self, members: Members) -> None:
        """One pass of the steward (see :meth:`_steward`)."""
        ids = await members.running_ids()
        held = await self._held_keys()
        running = set(ids)
        orphans = [i for i in ids if i not in self.owned and lock_key(i) not in held]
        self.elsewhere = {i for i in ids if i not in self.owned and lock_key(i) in held}
        share = fair_share(len(ids), await self.members())
        random.shuffle(orphans)  # processes taking at once try different matches first
        for match_id in orphans:
            if len(self.owned & running) >= share:
                break
            if await self.own(match_id):
                log.info("cluster: this process now owns match %s", match_id)
                await members.take_over(match_id)
        surplus = len(self.owned & running) - share - SHARE_SLACK
        for match_id in sorted(self.owned & running):
            if surplus <= 0:
                break
            if members.idle(match_id):  # nobody's search is cut short
                members.give_up(match_id)
                await self.release(match_id)
                self.elsewhere.add(match_id)
                log.info("cluster: match %s let go for a less busy process", match_id)
                surplus -= 1

    async def members(self) -> int:
        """How many server processes share the database now (their listeners say so)."""
        rows = await self._ask(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = %s",
            (APPLICATION_NAME,),
        )
        return max(1, int(str(rows[0][0]))) if rows else 1


async def _run(
    connection: psycopg.AsyncConnection[tuple[object, ...]], query: str, params: tuple[object, ...]
) -> list[tuple[object, ...]]:
    cursor = await connection.execute(query, params)
    return await cursor.fetchall() if cursor.description is not None else []


async def _quietly(work: Coroutine[object, object, None]) -> None:
    try:
        await work
    except Exception as error:
        log.warning("cluster: catching up failed: %s", error)


class SingleProcessGuard:
    """An exclusive lock on ``<database file>.lock``: a second server on the same SQLite file
    is refused at start-up instead of silently corrupting its matches' in-memory state."""

    def __init__(self, database_url: str) -> None:
        self.path = sqlite_file(database_url)
        self.handle: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock, or raise ``RuntimeError`` naming the file and what to do."""
        if self.path is None:
            return
        handle = open(self.path.with_name(self.path.name + ".lock"), "w")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise RuntimeError(
                f"another gameshelf server is already using {self.path}; SQLite takes one "
                "server process — use PostgreSQL (--database-url postgresql+psycopg://…) to run "
                "several"
            ) from None
        handle.write(str(os.getpid()))
        handle.flush()
        self.handle = handle

    def check_free(self) -> None:
        """Raise ``RuntimeError`` (as :meth:`acquire`) when another server holds the file now;
        a command line asks this before it prints its URL."""
        self.acquire()
        self.release()

    def release(self) -> None:
        """Let the lock go (at shutdown)."""
        if self.handle is not None:
            fcntl.flock(self.handle, fcntl.LOCK_UN)
            self.handle.close()
            self.handle = None
