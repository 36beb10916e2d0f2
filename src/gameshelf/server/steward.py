"""The clock steward: one background task per server process that waits for the next stored
deadline (or a change of a clocked match) and submits a flag for every match whose running
seat is out of time, whether or not anybody is connected. It only finds what is due: the
flag itself goes through the round like any other change."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime

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
                pause = await self.pass_once()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away: look again shortly
                log.warning("clock steward: %s", error)
                pause = RETRY_SECONDS
            await self.time.wait(self.changed, pause)

    async def pass_once(self) -> float:
        """Flag what is due; returns how long to wait for the next deadline (seconds)."""
        due, upcoming = await asyncio.to_thread(self._due, self.time.now())
        for match_id in due:
            try:
                await self.round.flag_if_due(match_id)
            except ServerError:  # a match that will not load is set aside by the registry
                continue
        if upcoming is None:
            return self.longest_sleep
        wait = (upcoming - self.time.now()).total_seconds() + 0.005
        return min(self.longest_sleep, max(0.005, wait))

    def _due(self, now: datetime) -> tuple[list[str], datetime | None]:
        with self.store.session() as session:
            return due_matches(session, now)
