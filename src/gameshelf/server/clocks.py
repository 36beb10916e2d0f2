"""Clocks of matches: real-time (a bank of minutes plus an increment) and correspondence (days
per move), kept by the server (docs/server.md, "Clocks").

The server is the only authority on time. Each seat's remaining time and the moment the current
turn started are stored in ``match_clocks`` and committed in the same transaction as every
move; the time left is always computed from those stored moments and the wall clock, so a
restarted server recomputes exactly what it had. A :class:`ClockSteward` wakes at the next
deadline found in the database and flags a seat whose time ran out, whether or not anybody is
connected; a move that arrives after its seat's deadline flags it too and is refused.

Only human seats have clocks: a bot's turn costs nobody time (its think time is capped by
``--bot-move-seconds`` instead), nor does a chance outcome. A flag ends the game (see
:func:`flag_result`); clocked matches have no take-backs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from gameshelf.core.game import State

from .db import (
    NOTIFY_CHANNEL,
    SEATS_CHANGED,
    ClockRow,
    MatchRow,
    ResignationRow,
    SeatInfo,
    Store,
    as_utc,
    utcnow,
)
from .errors import ServerError

if TYPE_CHECKING:
    from .hub import Hub, Runtime

log = logging.getLogger("gameshelf.server")

Mode = Literal["realtime", "correspondence"]
LOSS_VALUE = {"axia": 0.0}
"""What a lost game is worth per game (the engines' own scale); -1 where not listed."""
MAX_STEWARD_SLEEP = 30.0
"""The steward looks at the database at least this often (seconds), whatever it expects."""


def wall_now() -> datetime:
    """The server's wall clock (UTC); tests move it forward to reach a far deadline."""
    return utcnow()


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


@dataclass
class Clock:
    """A match's clock in memory (mirrors :class:`ClockRow`)."""

    control: TimeControl
    remaining_ms: list[int | None]
    turn_started: datetime | None = None
    flagged: int | None = None

    def running_seat(self, runtime: Runtime) -> int | None:
        """The seat whose time runs now: a human to move in a running match (else None)."""
        return self.running_seat_in(runtime.status, runtime.state, runtime)

    def running_seat_in(self, status: str, state: State, runtime: Runtime) -> int | None:
        """The seat whose time runs in ``state`` (a human to move), or None."""
        if status != "running" or self.flagged is not None or state.is_terminal():
            return None
        if self.turn_started is None:
            return None
        player = state.current_player()
        if not 0 <= player < len(runtime.seats) or runtime.seats[player].kind != "human":
            return None
        return player

    def left_ms(
        self, runtime: Runtime, seat: int, now: datetime, shown: bool = False
    ) -> int | None:
        """Milliseconds ``seat`` has left at ``now`` before it runs out (None: a bot's seat,
        no clock); during a first move's grace window that is the window's rest, and with
        ``shown`` the bank the seat will have once it moves (what its clock shows)."""
        if self.control.mode == "correspondence":
            if runtime.seats[seat].kind != "human":
                return None
            bank = self.control.per_move_ms
        else:
            stored = self.remaining_ms[seat]
            if stored is None:
                return None
            bank = stored
        if self.running_seat(runtime) == seat and self.turn_started is not None:
            used = _ms(now - self.turn_started)
            grace = self.grace_ms(runtime, seat)
            if grace is not None:  # a first move: its own window, the bank untouched
                return bank if shown else grace - used
            bank -= used
        return bank

    def grace_ms(self, runtime: Runtime, seat: int, also_moved: int | None = None) -> int | None:
        """The grace window of ``seat``'s turn if it is the seat's first move of a rated
        real-time match (``also_moved``: a seat whose move is being stored), else None."""
        grace: int | None = runtime.first_move_grace_ms
        first = seat not in runtime.movers and seat != also_moved
        return grace if first and self.control.mode == "realtime" else None

    def deadline(
        self,
        runtime: Runtime,
        status: str | None = None,
        state: State | None = None,
        also_moved: int | None = None,
    ) -> datetime | None:
        """When the running seat's time runs out (None when no clock runs); ``status`` and
        ``state`` default to the runtime's own (a move about to be stored passes its own, and
        its mover as ``also_moved``)."""
        seat = self.running_seat_in(status or runtime.status, state or runtime.state, runtime)
        if seat is None or self.turn_started is None:
            return None
        grace = self.grace_ms(runtime, seat, also_moved)
        if grace is not None:
            return self.turn_started + timedelta(milliseconds=grace)
        if self.control.mode == "correspondence":
            left = self.control.per_move_ms
        else:
            bank = self.remaining_ms[seat]
            if bank is None:
                return None
            left = bank
        return self.turn_started + timedelta(milliseconds=left)

    def after_move(self, runtime: Runtime, player: int, now: datetime) -> Clock:
        """The clock once ``player``'s move, accepted at ``now``, is played: the mover's time
        used is taken from its bank and the increment added; the next turn starts now."""
        remaining = list(self.remaining_ms)
        if (
            self.control.mode == "realtime"
            and self.running_seat(runtime) == player
            and remaining[player] is not None
        ):
            left = self.left_ms(runtime, player, now, shown=True) or 0
            remaining[player] = max(0, left) + self.control.increment_ms
        return replace(self, remaining_ms=remaining, turn_started=now)

    def frame(self, runtime: Runtime, now: datetime) -> dict[str, Any]:
        """What clients see: each seat's time left as of ``server_time`` and whose runs."""
        seats = range(len(runtime.seats))
        deadline = self.deadline(runtime)
        return {
            "mode": self.control.mode,
            "initial_ms": self.control.initial_ms,
            "increment_ms": self.control.increment_ms,
            "per_move_ms": self.control.per_move_ms,
            "remaining_ms": [
                _clamp(self.left_ms(runtime, seat, now, shown=True)) for seat in seats
            ],
            "running": self.running_seat(runtime),
            "server_time": now.isoformat(),
            "deadline": None if deadline is None else deadline.isoformat(),
            "flagged": self.flagged,
        }


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def _clamp(value: int | None) -> int | None:
    return None if value is None else max(0, value)


# --- the database ------------------------------------------------------------------------------
def create_clock(session: Session, match_id: str, control: TimeControl, seats: list[str]) -> None:
    """Store a new match's clock (``seats``: each seat's kind) in the creating transaction."""
    banks = [control.initial_ms if kind == "human" else None for kind in seats]
    if control.mode == "correspondence":
        banks = [None] * len(seats)
    session.add(
        ClockRow(
            match_id=match_id,
            mode=control.mode,
            initial_ms=control.initial_ms,
            increment_ms=control.increment_ms,
            per_move_ms=control.per_move_ms,
            remaining_ms=banks,
            turn_started=None,
            deadline=None,
            flagged=None,
        )
    )


def store_new(store: Store, match_id: str, control: TimeControl, seats: list[SeatInfo]) -> None:
    """Store a new match's clock (blocking: call it from a worker thread)."""
    with store.session() as session:
        create_clock(session, match_id, control, [seat.kind for seat in seats])


def load_clock(session: Session, match_id: str) -> Clock | None:
    """A match's clock as stored (None: the match is not clocked)."""
    row = session.get(ClockRow, match_id)
    if row is None:
        return None
    control = TimeControl(
        row.mode,  # type: ignore[arg-type]
        initial_ms=row.initial_ms,
        increment_ms=row.increment_ms,
        per_move_ms=row.per_move_ms,
    )
    started = None if row.turn_started is None else as_utc(row.turn_started)
    return Clock(control, list(row.remaining_ms), started, row.flagged)


def write_clock(session: Session, match_id: str, clock: Clock, deadline: datetime | None) -> None:
    """Store ``clock`` (in the caller's transaction: the move's own)."""
    session.execute(
        update(ClockRow)
        .where(ClockRow.match_id == match_id)
        .values(
            remaining_ms=list(clock.remaining_ms),
            turn_started=clock.turn_started,
            deadline=deadline,
            flagged=clock.flagged,
        )
        .execution_options(synchronize_session=False)
    )


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


# --- hooks the hub calls -----------------------------------------------------------------------
def stored_clock(hub: Hub, match_id: str) -> Clock | None:
    """Read a match's clock (blocking: call it from a worker thread)."""
    with hub.store.session() as session:
        return load_clock(session, match_id)


def stored_ending(hub: Hub, match_id: str) -> tuple[Clock | None, int | None]:
    """Read a match's clock and the seat that resigned it, if any (blocking)."""
    with hub.store.session() as session:
        row = session.get(ResignationRow, match_id)
        return load_clock(session, match_id), None if row is None else row.seat


def move_hook(
    runtime: Runtime, player: int, after: State, status: str, now: datetime
) -> tuple[Clock | None, Callable[[Session], None] | None]:
    """For a move about to be stored: the clock after it and the callback that writes it in
    the move's own transaction (``(None, None)`` for an unclocked match)."""
    clock: Clock | None = runtime.clock
    if clock is None:
        return None, None
    following = clock.after_move(runtime, player, now)
    deadline = following.deadline(runtime, status, after, also_moved=player)

    def store(session: Session) -> None:
        write_clock(session, runtime.id, following, deadline)

    return following, store


async def started(hub: Hub, runtime: Runtime) -> None:
    """The match just started (its last seat taken): the first turn's clock starts now."""
    clock: Clock | None = runtime.clock
    if clock is None or clock.turn_started is not None:
        return
    clock.turn_started = wall_now()
    deadline = clock.deadline(runtime)
    await asyncio.to_thread(_write, hub, runtime.id, clock, deadline, True)
    wake(hub)


def _write(
    hub: Hub, match_id: str, clock: Clock, deadline: datetime | None, tell: bool = False
) -> None:
    """Store ``clock``; ``tell``: other server processes hear of it as of a seat change."""
    with hub.store.session() as session:
        write_clock(session, match_id, clock, deadline)
        if tell and hub.store.url.startswith("postgresql"):
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": f"{match_id}:{SEATS_CHANGED}"},
            )


def wake(hub: Hub) -> None:
    """A deadline changed: let the steward look again."""
    steward: ClockSteward | None = hub.steward
    if steward is not None:
        steward.changed.set()


async def check_move(hub: Hub, runtime: Runtime, seat: int) -> None:
    """Before a human move (match lock held): a seat whose time ran out is flagged now and its
    move refused, even if the steward has not woken yet."""
    clock: Clock | None = runtime.clock
    if clock is None or clock.running_seat(runtime) != seat:
        return
    left = clock.left_ms(runtime, seat, wall_now())
    if left is not None and left <= 0:
        await flag_locked(hub, runtime, seat)
        raise ServerError("clock/flagged", f"seat {seat}'s time ran out: the game is over")


def undo_refusal(runtime: Runtime) -> str | None:
    """Why a clocked match refuses take-backs (None when it has no clock)."""
    if runtime.clock is None:
        return None
    return "clocked matches have no take-backs"


def flag_result(
    runtime: Runtime, flagged: int, why: str = "ran out of time"
) -> tuple[list[float], str]:
    """The result when ``flagged`` runs out of time, by the game's scale of returns.

    Two players: the other one wins. Three or four: the flagged player is placed last and
    the game ends there, the others sharing the win (the rulebooks have no timeouts; docs/
    server.md says why). Solo (AXIA): the game ends as a loss. A resignation is the same
    flag, given up voluntarily (``why``: "resigned").
    """
    count = len(runtime.seats)
    loss = LOSS_VALUE.get(runtime.game.spec.name, -1.0)
    result = [1.0] * count
    result[flagged] = loss
    state: State = runtime.state
    who = state.describe_player(flagged)
    others = [state.describe_player(p) for p in range(count) if p != flagged]
    if not others:
        return result, f"{who} {why}"
    if len(others) == 1:
        return result, f"{who} {why}; {others[0]} wins"
    return result, f"{who} {why} and is placed last; shared win: " + ", ".join(others)


def result_fields(runtime: Runtime, fields: dict[str, Any]) -> None:
    """Put a flagged or resigned match's result into a state frame or summary, and the
    clock's frame."""
    clock: Clock | None = runtime.clock
    if runtime.resigned is not None:
        fields["result"], fields["result_text"] = flag_result(runtime, runtime.resigned, RESIGNED)
    if clock is None:
        return
    if clock.flagged is not None:
        fields["result"], fields["result_text"] = flag_result(runtime, clock.flagged)
    ender = runtime.resigned if runtime.resigned is not None else clock.flagged
    if ender is not None and runtime.aborted:
        words = aborted_words(runtime, ender, runtime.resigned == ender)
        fields["result"], fields["result_text"] = None, words
    fields["clock"] = clock.frame(runtime, wall_now())


def aborted_words(runtime: Runtime, seat: int, resigned: bool) -> str:
    """The result in words of a rated match aborted by ``seat``'s resignation or flag."""
    how = "resigned" if resigned else "ran out of time"
    who = runtime.state.describe_player(seat)
    return f"aborted: {who} {how} before every player had made a first move; nothing is rated"


async def flag_locked(
    hub: Hub, runtime: Runtime, seat: int, resigned: bool = False, ack: Any = None
) -> bool:
    """Flag ``seat`` (match lock held): store the finished match and the flag as one
    compare-and-set on the version, then tell everyone. False if the match moved on.

    ``resigned``: the seat gave up (a voluntary flag, clocked match or not): the same result
    rule and game-over hooks; its clock, if any, stops with the time it had used."""
    clock: Clock | None = runtime.clock
    result, text = flag_result(runtime, seat, RESIGNED if resigned else "ran out of time")
    ended = clock
    if clock is not None and resigned:
        ended = replace(clock, remaining_ms=list(clock.remaining_ms))
        left = clock.left_ms(runtime, seat, wall_now())
        if clock.control.mode == "realtime" and ended.remaining_ms[seat] is not None:
            ended.remaining_ms[seat] = max(0, left or 0)
    elif clock is not None:
        ended = replace(clock, flagged=seat)
        if clock.control.mode == "realtime":
            ended.remaining_ms = list(clock.remaining_ms)
            ended.remaining_ms[seat] = 0
    version = runtime.version + 1
    stored_result: list[float] | None = result
    if runtime.rated and not all(
        s.seat in runtime.movers for s in runtime.seats if s.kind == "human"
    ):  # the abort rule: ended before every human moved, the match settles nothing
        stored_result, text = None, aborted_words(runtime, seat, resigned)
    stored = await asyncio.to_thread(
        _store_flag,
        hub,
        runtime.id,
        runtime.version,
        ended,
        stored_result,
        text,
        seat if resigned else None,
    )
    if not stored:
        return False
    runtime.clock = ended
    runtime.version = version
    runtime.status = "finished"
    if resigned:
        runtime.resigned = seat
    log.info("match %s: seat %d %s", runtime.id, seat, "resigned" if resigned else "flagged")
    hub.broadcast_state(runtime, ack)
    wake(hub)
    return True


RESIGNED = "resigned"
"""A resignation's words in the result (a flag's are "ran out of time")."""


async def resign(hub: Hub, runtime: Runtime, seats: set[int], seat: int, ack: Any = None) -> None:
    """``seat`` (held by a connection holding ``seats``) gives up now: a voluntary flag.

    Refused, changing nothing: by a spectator, for a seat the connection does not hold, before
    the match started, and once the game is over (a flag that came first included)."""
    async with runtime.lock:
        if not seats:
            raise ServerError("resign/not-allowed", "a spectator cannot resign")
        if seat not in seats:
            raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")
        if runtime.status == "open":
            raise ServerError("match/not-started", "the match waits for players to join")
        if runtime.status != "running" or runtime.state.is_terminal():
            raise ServerError("move/game-over", "the game is over")
        running = None if runtime.clock is None else runtime.clock.running_seat(runtime)
        if running is not None:  # a seat already out of time is flagged, not resigned
            left = runtime.clock.left_ms(runtime, running, wall_now())
            if left is not None and left <= 0:
                await flag_locked(hub, runtime, running)
                raise ServerError("move/game-over", "the game is over: a seat ran out of time")
        if not await flag_locked(hub, runtime, seat, resigned=True, ack=ack):
            await hub._refresh_locked(runtime)
            hub.broadcast_state(runtime)
            raise ServerError(
                "state/stale-version", f"the match moved on; it is at {runtime.version} now"
            )


def _store_flag(
    hub: Hub,
    match_id: str,
    version: int,
    clock: Clock | None,
    result: list[float] | None,
    words: str,
    resigned: int | None = None,
) -> bool:
    with hub.store.session() as session:
        changed = session.execute(
            update(MatchRow)
            .where(MatchRow.id == match_id, MatchRow.version == version)
            .values(
                version=version + 1,
                status="finished",
                result=result,
                result_text=words,
                updated=utcnow(),
            )
            .execution_options(synchronize_session=False)
        )
        if int(getattr(changed, "rowcount", 0)) != 1:
            return False
        if clock is not None:
            write_clock(session, match_id, clock, None)
        if resigned is not None:
            session.add(ResignationRow(match_id=match_id, seat=resigned, created=utcnow()))
        hub.store.finished(session, match_id, result)  # game-over hooks: a rated match rates
        if hub.store.url.startswith("postgresql"):
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": f"{match_id}:{version + 1}"},
            )
    return True


async def flag_if_due(hub: Hub, match_id: str) -> bool:
    """Flag the running seat of ``match_id`` if its time has run out (the steward's check); a
    stored deadline that no longer holds (the match moved on elsewhere) is written again."""
    runtime = await hub.runtime(match_id)
    async with runtime.lock:
        clock: Clock | None = runtime.clock
        if clock is None:
            return False
        seat = clock.running_seat(runtime)
        left = None if seat is None else clock.left_ms(runtime, seat, wall_now())
        if seat is not None and left is not None and left <= 0:
            return await flag_locked(hub, runtime, seat)
        await asyncio.to_thread(_write, hub, runtime.id, clock, clock.deadline(runtime))
        return False


class ClockSteward:
    """One background task per server process: sleeps until the next stored deadline (or a
    change), then flags every match whose running seat is out of time."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start watching (the hub's ``steward`` is this one from now on)."""
        self.hub.steward = self
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
            pause = MAX_STEWARD_SLEEP
            try:
                pause = await self.pass_once()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away: look again shortly
                log.warning("clock steward: %s", error)
                pause = 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), pause)

    async def pass_once(self) -> float:
        """Flag what is due; returns how long to sleep until the next deadline."""
        now = wall_now()
        due, upcoming = await asyncio.to_thread(self._due, now)
        for match_id in due:
            try:
                await flag_if_due(self.hub, match_id)
            except ServerError:  # a match that will not load is set aside by the hub
                continue
        if upcoming is None:
            return MAX_STEWARD_SLEEP
        wait = (upcoming - wall_now()).total_seconds() + 0.005
        return min(MAX_STEWARD_SLEEP, max(0.005, wait))

    def _due(self, now: datetime) -> tuple[list[str], datetime | None]:
        with self.hub.store.session() as session:
            return due_matches(session, now)
