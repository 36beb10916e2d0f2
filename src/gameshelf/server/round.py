"""The round: the one path every change of a match takes (docs/server.md, "The walk of a move").

A player's move, an undo, a resignation, a flag found by the steward, a bot's or chance's move
and a join all go the same way, under the match's lock: check the change against the match,
plan it (:meth:`Match.plan`: the next state, clock and ending, nothing changed yet), store it as
one compare-and-set through the group committer (durable before anyone hears of it), take it
on, tell every connection its own view, then tell the listeners (the bot driver, the clock
steward) that the match changed. A change whose match moved on in another process is refused
as stale after the match has caught up.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable

from . import frames
from .committer import GroupCommitter
from .errors import ServerError
from .frames import Ack
from .match import Change, Flag, Match, Move, Resign, Status, Step, Undo
from .outbox import Client
from .registry import MatchRegistry
from .store import ClockWrite, SeatInfo, Store, hash_token
from .timing import TimeSource

log = logging.getLogger("gameshelf.server")

Listener = Callable[[Match], None]


class Round:
    """Applies changes to matches; see the module's docstring."""

    def __init__(
        self, store: Store, registry: MatchRegistry, writer: GroupCommitter, clock: TimeSource
    ) -> None:
        self.store = store
        self.registry = registry
        self.writer = writer
        self.time = clock
        self.listeners: list[Listener] = []
        """Called after every change of a match, outside its lock."""

    def changed(self, match: Match) -> None:
        """Tell the listeners that ``match`` changed (or must be looked at again)."""
        for listener in self.listeners:
            listener(match)

    def broadcast(self, match: Match, last: tuple[int, str] | None = None, ack: Ack = None) -> None:
        """Send every connection of ``match`` its own view as of now."""
        frames.broadcast(match, last, self.time.now(), ack)

    # --- the one path ---------------------------------------------------------------------
    async def apply_locked(self, match: Match, change: Change, ack: Ack = None) -> None:
        """Plan, store, take on and announce a checked change (the match's lock held)."""
        now = self.time.now()
        if isinstance(change, Undo):  # an undo replays the game: off the event loop
            step = await asyncio.to_thread(match.plan, change, now)
        else:
            step = match.plan(change, now)
        await self._store(match, step)
        match.install(step)
        match.touched = self.time.monotonic()
        if isinstance(change, Flag | Resign):
            how = "resigned" if isinstance(change, Resign) else "flagged"
            log.info("match %s: seat %d %s", match.id, change.seat, how)
        self.broadcast(match, step.appended, ack)

    async def _store(self, match: Match, step: Step) -> None:
        """Write the step's change; refuse (changing nothing here) when it could not be."""
        try:
            stored = await self.writer.write(step.pending)
        except Exception as error:  # nothing changed in memory: the change can be sent again
            log.warning("match %s: a change could not be stored: %s", match.id, error)
            raise ServerError(
                "server/unavailable",
                "the database is unavailable right now; nothing was changed, try again",
            ) from None
        if not stored:  # another server process changed the match first
            self.broadcast(match, await self.registry.catch_up_locked(match))
            raise ServerError(
                "state/stale-version", f"the match moved on; it is at {match.version} now"
            )

    # --- players' changes ------------------------------------------------------------------
    async def play(
        self, match: Match, client: Client, seat: int, move: str, version: int, ack: Ack = None
    ) -> None:
        """A human's move for ``seat``; refused with a coded error, changing nothing."""
        async with match.lock:
            _check_holds(client, seat)
            match.check_turn(seat, version)
            await self._flag_if_out(match, seat)
            action = match.state.move_to_action(move)
            await self.apply_locked(match, Move(seat, action), ack)
        self.changed(match)

    async def undo(
        self, match: Match, client: Client, seat: int, version: int, ack: Ack = None
    ) -> None:
        """Take back ``seat``'s last move and any bot replies after it."""
        async with match.lock:
            _check_holds(client, seat)
            match.check_version(version)
            reason = match.undo_refusal(seat)
            if reason is not None:
                raise ServerError("undo/not-allowed", reason)
            await self.apply_locked(match, Undo(seat), ack)
        self.changed(match)

    async def resign(self, match: Match, client: Client, seat: int, ack: Ack = None) -> None:
        """``seat`` gives up now. Refused, changing nothing: by a spectator, for a seat the
        connection does not hold, before the start and once the game is over (a flag that
        came first included)."""
        async with match.lock:
            if not client.seats:
                raise ServerError("resign/not-allowed", "a spectator cannot resign")
            _check_holds(client, seat)
            match.check_running()
            out = match.overdue(self.time.now())
            if out is not None:  # a seat already out of time is flagged, not resigned
                await self.apply_locked(match, Flag(out))
                self.changed(match)
                raise ServerError("move/game-over", "the game is over: a seat ran out of time")
            await self.apply_locked(match, Resign(seat), ack)
        self.changed(match)

    async def _flag_if_out(self, match: Match, seat: int) -> None:
        """A move that comes after its seat's deadline flags the seat and is refused, even if
        the steward has not woken yet."""
        if match.overdue(self.time.now()) == seat:
            await self.apply_locked(match, Flag(seat))
            self.changed(match)
            raise ServerError("clock/flagged", f"seat {seat}'s time ran out: the game is over")

    # --- the server's own changes ----------------------------------------------------------
    async def flag_if_due(self, match_id: str) -> bool:
        """Flag the running seat of ``match_id`` if its time has run out (the steward's
        check); a stored deadline that no longer holds is written again."""
        match = await self.registry.get(match_id)
        async with match.lock:
            if match.clock is None:
                return False
            out = match.overdue(self.time.now())
            if out is None:
                written = ClockWrite(match.clock, match.clock.deadline())
                await asyncio.to_thread(self.store.write_clock, match.id, written)
                return False
            try:
                await self.apply_locked(match, Flag(out))
            except ServerError:  # moved on elsewhere: the catch-up told everyone
                return False
        self.changed(match)
        return True

    # --- seats -------------------------------------------------------------------------------
    async def join(self, match_id: str, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free human seat (the first one if ``seat`` is None); returns (seat, token)."""
        match = await self.registry.get(match_id)
        token = secrets.token_urlsafe(24)
        async with match.lock:
            seat = _free_seat(match, seat)
            await self.seat_locked(match, seat, name, hash_token(token))
        self.changed(match)
        return seat, token

    async def seat_locked(self, match: Match, seat: int, name: str | None, token: str) -> None:
        """Seat a player holding the token hashed ``token`` (the lock held); the last seat
        taken starts the match and its first turn's clock, in the same transaction."""
        seats = list(match.seats)
        seats[seat] = SeatInfo(seat, "human", None, name, token)
        starts = match.status == Status.OPEN and all(s.taken for s in seats)
        clock = match.started_clock(self.time.now()) if starts else None
        written = None if clock is None else ClockWrite(clock, clock.deadline())
        taken = await asyncio.to_thread(self.store.take_seat, match.id, seat, name, token, written)
        if not taken:
            raise ServerError("match/seat-taken", f"seat {seat} of match {match.id} is taken")
        match.seats = seats
        if starts:
            match.status = Status.RUNNING
            match.clock = clock
        self.broadcast(match)


def _check_holds(client: Client, seat: int) -> None:
    if seat not in client.seats:
        raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")


def _free_seat(match: Match, seat: int | None) -> int:
    """The seat a join asks for, if it is free (the first free one for ``None``)."""
    free = [s.seat for s in match.seats if s.kind == "human" and not s.taken]
    if seat is None:
        if not free:
            raise ServerError("match/full", f"match {match.id} has no free seat")
        return free[0]
    if not 0 <= seat < len(match.seats):
        raise ServerError(
            "request/invalid", f"seat {seat} does not exist (0..{len(match.seats) - 1})"
        )
    if match.seats[seat].kind == "bot":  # the same code: the seat is not free
        free_seats = ", ".join(map(str, free)) or "none"
        raise ServerError(
            "match/seat-taken",
            f"seat {seat} of match {match.id} is a bot's seat "
            f"(bot: {match.seats[seat].agent}); only human seats can be joined "
            f"(free: {free_seats})",
        )
    if seat not in free:
        raise ServerError("match/seat-taken", f"seat {seat} of match {match.id} is taken")
    return seat
