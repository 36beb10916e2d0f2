"""Clocks and resignations in the database: a clock is written in the transaction of the change
that moves it (a move, a join that starts the match, a flag), with the deadline the steward
finds it by."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..clock import Clock, TimeControl
from .records import ClockWrite, as_utc
from .tables import ClockRow, ResignationRow


def create_clock(session: Session, match_id: str, clock: Clock) -> None:
    """Store a new match's clock in the creating transaction."""
    control = clock.control
    session.add(
        ClockRow(
            match_id=match_id,
            mode=control.mode,
            initial_ms=control.initial_ms,
            increment_ms=control.increment_ms,
            per_move_ms=control.per_move_ms,
            remaining_ms=list(clock.remaining_ms),
            turn_started=None,
            deadline=None,
            flagged=None,
        )
    )


def load_clock(session: Session, match_id: str, humans: tuple[bool, ...]) -> Clock | None:
    """A match's clock as stored, for seats whose kinds are ``humans`` (None: no clock). Whose
    turn runs is not stored: the match tells the clock (:meth:`Clock.start`)."""
    row = session.get(ClockRow, match_id)
    if row is None:
        return None
    control = TimeControl(
        "correspondence" if row.mode == "correspondence" else "realtime",
        initial_ms=row.initial_ms,
        increment_ms=row.increment_ms,
        per_move_ms=row.per_move_ms,
    )
    started = None if row.turn_started is None else as_utc(row.turn_started)
    return Clock(control, tuple(row.remaining_ms), humans, started, None, row.flagged)


def write_clock(session: Session, match_id: str, written: ClockWrite) -> None:
    """Store a clock and its deadline (in the caller's transaction: the change's own)."""
    clock = written.clock
    session.execute(
        update(ClockRow)
        .where(ClockRow.match_id == match_id)
        .values(
            remaining_ms=list(clock.remaining_ms),
            turn_started=clock.turn_started,
            deadline=written.deadline,
            flagged=clock.flagged,
        )
        .execution_options(synchronize_session=False)
    )


def resigned_seat(session: Session, match_id: str) -> int | None:
    """The seat that resigned ``match_id``, if one did."""
    row = session.get(ResignationRow, match_id)
    return None if row is None else row.seat


def due_matches(session: Session, now: datetime) -> tuple[list[str], datetime | None]:
    """Matches whose deadline has passed, and the earliest deadline still to come."""
    due = list(
        session.scalars(
            select(ClockRow.match_id).where(ClockRow.deadline <= now, ClockRow.flagged.is_(None))
        )
    )
    upcoming = session.scalar(
        select(ClockRow.deadline)
        .where(ClockRow.deadline > now, ClockRow.flagged.is_(None))
        .order_by(ClockRow.deadline)
        .limit(1)
    )
    return due, None if upcoming is None else as_utc(upcoming)
