"""The server's one source of time: the round's clocks, the steward's deadlines and the idle
eviction all read it, so tests drive them with a :class:`FakeTime` instead of sleeping.

Waiting goes through :meth:`TimeSource.wait_until` (a moment on the wall clock, so a wait
that starts after the moment has passed ends at once): a real source sleeps on the event loop,
a fake one wakes its waiters when a test moves it past their moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import UTC, datetime, timedelta


class TimeSource:
    """The real clocks: UTC wall time for deadlines, a monotonic count for idleness."""

    def now(self) -> datetime:
        """The wall clock, timezone-aware UTC."""
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (for idleness and rates)."""
        return time.monotonic()

    async def wait_until(self, event: asyncio.Event, moment: datetime) -> None:
        """Wait until ``event`` is set or the wall clock reaches ``moment``."""
        seconds = (moment - self.now()).total_seconds()
        if seconds <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), seconds)


class FakeTime(TimeSource):
    """Time that moves only when told (:meth:`advance`); waiters wake when it passes their
    moment. Safe to advance from a test's thread while the server's loop runs elsewhere."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._ticks = 0.0
        self._waiters: list[tuple[datetime, asyncio.Event, asyncio.AbstractEventLoop]] = []

    def now(self) -> datetime:
        """The fake wall clock."""
        return self._now

    def monotonic(self) -> float:
        """The fake monotonic count (seconds advanced so far)."""
        return self._ticks

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every waiter whose moment has come."""
        self._now += timedelta(seconds=seconds)
        self._ticks += seconds
        for moment, timer, loop in list(self._waiters):
            if moment <= self._now:
                loop.call_soon_threadsafe(timer.set)

    async def wait_until(self, event: asyncio.Event, moment: datetime) -> None:
        """Wait until ``event`` is set or fake time has reached ``moment``."""
        timer = asyncio.Event()
        entry = (moment, timer, asyncio.get_running_loop())
        self._waiters.append(entry)  # before the check: an advance in between still wakes it
        try:
            if moment <= self._now:
                return
            waits = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(timer.wait())]
            _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
        finally:
            self._waiters.remove(entry)
