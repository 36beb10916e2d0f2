"""The clock steward: one background task per server process that waits for the next stored
deadline (or a change of a clocked match) and submits a flag for every match whose running
seat is out of time, whether or not anybody is connected. It only finds what is due: the
flag itself goes through the round like any other change."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from .errors import ServerError
from .match import Match
from .round import Round
from .store import Store, due_matches
from .timing import TimeSource

log = logging.getLogger("gameshelf.server")

MAX_STEWARD_SLEEP = 30.0
"""The steward looks at the database at least this often (seconds), whatever it expects."""
RETRY_SECONDS = 1.0
"""How soon the steward looks again after the database failed it."""


class ClockSteward:
    """Flags clocks that ran out; see the module's docstring."""

    def __init__(self, store: Store, round_: Round, clock: TimeSource) -> None:
        self.store = store
        self.round = round_
        self.time = clock
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.longest_sleep = MAX_STEWARD_SLEEP
        round_.listeners.append(self.on_change)

    def on_change(self, match: Match) -> None:
        """A clocked match changed: its deadline may have moved, so look again."""
        if match.clock is not None:
            self.wake()

    def wake(self) -> None:
        """Look at the deadlines again now."""
        self.changed.set()

    def start(self) -> None:
        """Start watching."""
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop watching."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def _run(self) -> None:
        while True:
            self.changed.clear()
            try:
                moment = await self.pass_once()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away: look again shortly
                log.warning("clock steward: %s", error)
                moment = self.time.now() + timedelta(seconds=RETRY_SECONDS)
            await self.time.wait_until(self.changed, moment)

    async def pass_once(self) -> datetime:
        """Flag what is due; returns when to look again (just after the next deadline, or
        after the longest nap)."""
        now = self.time.now()
        due, upcoming = await asyncio.to_thread(self._due, now)
        for match_id in due:
            try:
                await self.round.flag_if_due(match_id)
            except ServerError:  # a match that will not load is set aside by the registry
                continue
        latest = now + timedelta(seconds=self.longest_sleep)
        if upcoming is None:
            return latest
        return min(latest, upcoming + timedelta(milliseconds=5))

    def _due(self, now: datetime) -> tuple[list[str], datetime | None]:
        with self.store.session() as session:
            return due_matches(session, now)
