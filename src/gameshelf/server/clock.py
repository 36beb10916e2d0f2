"""A match's clock as a value: real-time (a bank plus an increment) or correspondence (a time
for each move), kept by the server (docs/server.md, "Clocks").

A :class:`Clock` never changes: each event gives a new one (:meth:`Clock.after_move`,
:meth:`Clock.flagged_seat`, :meth:`Clock.stopped`), and every reading takes the moment it is
read at (``now``), so a clock is tested with plain datetimes and a restarted server recomputes
exactly what it had from the stored banks and the turn's start. Whose time runs is the match's
decision (a human to move in a running match); the clock is told with each turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

Mode = Literal["realtime", "correspondence"]


@dataclass(frozen=True)
class TimeControl:
    """What the lobby chose: real-time bank and increment, or days per move."""

    mode: Mode
    initial_ms: int = 0
    increment_ms: int = 0
    per_move_ms: int = 0

    @staticmethod
    def of_request(request: Any) -> TimeControl:
        """The time control of a create request's ``clock`` (``contract.TimeControlRequest``)."""
        if request.mode == "realtime":
            return TimeControl(
                "realtime",
                initial_ms=round(request.minutes * 60_000),
                increment_ms=round(request.increment_seconds * 1000),
            )
        return TimeControl("correspondence", per_move_ms=round(request.days * 86_400_000))

    def banks(self, humans: tuple[bool, ...]) -> tuple[int | None, ...]:
        """Each seat's stored bank at the start: real-time humans get the bank; bots, and
        every seat under correspondence (whose turns each get the same time), none."""
        if self.mode == "correspondence":
            return tuple(None for _ in humans)
        return tuple(self.initial_ms if human else None for human in humans)


@dataclass(frozen=True)
class Turn:
    """The seat whose time runs and its first-move grace window (a rated match's first move
    of each seat has its own window instead of spending its bank)."""

    seat: int
    grace_ms: int | None = None


@dataclass(frozen=True)
class Clock:
    """Each seat's bank, when the current turn started and whose time runs in it."""

    control: TimeControl
    remaining_ms: tuple[int | None, ...]
    humans: tuple[bool, ...]
    turn_started: datetime | None = None
    turn: Turn | None = None
    flagged: int | None = None

    @staticmethod
    def new(control: TimeControl, humans: tuple[bool, ...]) -> Clock:
        """A match's clock before its first turn."""
        return Clock(control, control.banks(humans), humans)

    @property
    def running(self) -> int | None:
        """The seat whose time runs now (None: no clock runs)."""
        if self.turn is None or self.turn_started is None or self.flagged is not None:
            return None
        return self.turn.seat

    def bank_ms(self, seat: int) -> int | None:
        """``seat``'s bank as stored (correspondence: the time for a move); None: no clock."""
        if not self.humans[seat]:
            return None
        if self.control.mode == "correspondence":
            return self.control.per_move_ms
        return self.remaining_ms[seat]

    def _used_ms(self, now: datetime) -> int:
        assert self.turn_started is not None
        return int((now - self.turn_started).total_seconds() * 1000)

    def left_ms(self, seat: int, now: datetime) -> int | None:
        """Milliseconds ``seat`` has left at ``now`` before it runs out (None: no clock); in a
        first move's grace window, the window's rest."""
        bank = self.bank_ms(seat)
        if bank is None or self.running != seat or self.turn is None:
            return bank
        if self.turn.grace_ms is not None:
            return self.turn.grace_ms - self._used_ms(now)
        return bank - self._used_ms(now)

    def shown_ms(self, seat: int, now: datetime) -> int | None:
        """What ``seat``'s clock shows at ``now``: its bank less the turn's time, or during a
        grace window the bank it keeps (never below zero)."""
        bank = self.bank_ms(seat)
        if bank is None:
            return None
        if self.running == seat and self.turn is not None and self.turn.grace_ms is None:
            bank -= self._used_ms(now)
        return max(0, bank)

    def out_of_time(self, now: datetime) -> int | None:
        """The running seat if its time has run out at ``now`` (None otherwise)."""
        seat = self.running
        if seat is None:
            return None
        left = self.left_ms(seat, now)
        return seat if left is not None and left <= 0 else None

    def deadline(self) -> datetime | None:
        """When the running seat's time runs out (None when no clock runs)."""
        seat = self.running
        if seat is None or self.turn is None or self.turn_started is None:
            return None
        window = self.turn.grace_ms if self.turn.grace_ms is not None else self.bank_ms(seat)
        if window is None:
            return None
        return self.turn_started + timedelta(milliseconds=window)

    def start(self, now: datetime, turn: Turn | None) -> Clock:
        """The first turn starts at ``now`` (the last seat was taken)."""
        return replace(self, turn_started=now, turn=turn)

    def after_move(self, seat: int, now: datetime, turn: Turn | None) -> Clock:
        """The clock once ``seat``'s move, accepted at ``now``, is played: a real-time mover's
        time used is taken from its bank and the increment added; ``turn`` starts now."""
        remaining = list(self.remaining_ms)
        if self.control.mode == "realtime" and self.running == seat:
            shown = self.shown_ms(seat, now)
            if shown is not None:
                remaining[seat] = shown + self.control.increment_ms
        return replace(self, remaining_ms=tuple(remaining), turn_started=now, turn=turn)

    def flagged_seat(self, seat: int) -> Clock:
        """The clock once ``seat`` ran out of time: its bank is empty and no clock runs."""
        remaining = list(self.remaining_ms)
        if self.control.mode == "realtime" and remaining[seat] is not None:
            remaining[seat] = 0
        return replace(self, remaining_ms=tuple(remaining), flagged=seat, turn=None)

    def stopped(self, now: datetime) -> Clock:
        """The clock stopped at ``now`` (a resignation): the running seat keeps what it had."""
        seat = self.running
        remaining = list(self.remaining_ms)
        if seat is not None and self.control.mode == "realtime" and remaining[seat] is not None:
            remaining[seat] = max(0, self.left_ms(seat, now) or 0)
        return replace(self, remaining_ms=tuple(remaining), turn=None)

    def frame(self, now: datetime) -> dict[str, Any]:
        """What clients see (``contract.ClockInfo``): each seat's time as of ``server_time``,
        whose runs and until when."""
        deadline = self.deadline()
        return {
            "mode": self.control.mode,
            "initial_ms": self.control.initial_ms,
            "increment_ms": self.control.increment_ms,
            "per_move_ms": self.control.per_move_ms,
            "remaining_ms": [self.shown_ms(seat, now) for seat in range(len(self.humans))],
            "running": self.running,
            "server_time": now.isoformat(),
            "deadline": None if deadline is None else deadline.isoformat(),
            "flagged": self.flagged,
        }
