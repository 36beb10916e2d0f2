"""The matches this process holds in memory: loaded from the store on first use (one load per
match, however many ask at once), caught up with the store when another process changed them,
set aside when they cannot be rebuilt, and dropped when idle."""

from __future__ import annotations

import asyncio
import logging

from .contract import is_match_id
from .errors import ServerError
from .match import Match, Status
from .settings import ServerSettings
from .store import RatedMatchRow, Store, StoredMatch, load_clock, resigned_seat
from .timing import TimeSource
from .vetting import load_pinned

log = logging.getLogger("gameshelf.server")


def unavailable(match_id: str) -> ServerError:
    """The refusal for a match set aside because it cannot be rebuilt."""
    return ServerError(
        "match/unavailable",
        f"match {match_id} cannot be loaded on this server (its game or data is missing); "
        "the operator's log says why",
    )


class MatchRegistry:
    """Owns the in-memory matches of this process."""

    def __init__(self, store: Store, settings: ServerSettings, clock: TimeSource) -> None:
        self.store = store
        self.settings = settings
        self.time = clock
        self.matches: dict[str, Match] = {}
        self.loading: dict[str, asyncio.Lock] = {}
        self.broken: set[str] = set()

    async def get(self, match_id: str) -> Match:
        """The in-memory match, loaded from the database (and replayed) on first use."""
        match = self.matches.get(match_id)
        if match is not None:
            match.touched = self.time.monotonic()
            return match
        if not is_match_id(match_id):  # costs nothing: no lock, no database
            raise ServerError("match/not-found", "no such match")
        if match_id in self.broken:
            raise unavailable(match_id)
        lock = self.loading.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                match = self.matches.get(match_id)
                if match is None:
                    loaded = await asyncio.to_thread(self.load, match_id)
                    # the first load stored wins: a match must never have two copies
                    match = self.matches.setdefault(match_id, loaded)
        finally:
            if not lock.locked():
                self.loading.pop(match_id, None)
        return match

    def load(self, match_id: str) -> Match:
        """Rebuild a match from the store (blocking: call it from a worker thread)."""
        stored = self.store.load(match_id)
        if stored is None:
            raise ServerError("match/not-found", f"no match {match_id}")
        if stored.status == Status.BROKEN:
            raise unavailable(match_id)
        try:
            match = self._rebuild(stored)
        except Exception as error:  # whatever the cause, one bad match must not stop the rest
            log.error("match %s will not load and is set aside: %s", match_id, error)
            self.broken.add(match_id)
            self.store.mark_unloadable(match_id)
            raise unavailable(match_id) from None
        self._read_extras(match)
        return match

    def _rebuild(self, stored: StoredMatch) -> Match:
        game = load_pinned(stored.game, stored.extras)
        state = game.replay([action for _, action, _ in stored.moves], stored.seed)
        return Match(
            stored.id,
            game,
            stored.seed,
            stored.seats,
            state,
            [player for player, _, _ in stored.moves],
            [notation for _, _, notation in stored.moves],
            stored.version,
            Status(stored.status),
            stored.created,
            display=stored.game,
            extras=stored.extras,
            touched=self.time.monotonic(),
        )

    def _read_extras(self, match: Match) -> None:
        """The clock, the resignation and the rated mark: what the ending is made of."""
        with self.store.session() as session:
            match.clock = load_clock(session, match.id, match.humans)
            resigned = resigned_seat(session, match.id)
            rated = session.get(RatedMatchRow, match.id) is not None
        if rated:
            self.mark_rated(match)
        match.tell_clock()
        match.restore_ending(resigned)

    def mark_rated(self, match: Match) -> None:
        """``match`` is rated (its mark is stored): its first moves get the grace window."""
        match.first_move_grace_ms = round(self.settings.first_move_grace_seconds * 1000)

    async def catch_up_locked(self, match: Match) -> tuple[int, str] | None:
        """Bring ``match`` (lock held) up to the store; returns the newest move seen."""
        plies = len(match.movers)
        stored = await asyncio.to_thread(self.store.load, match.id, plies)
        if stored is None or stored.version == match.version:
            return None
        if stored.version - match.version == len(stored.moves):  # only new moves
            state = match.state.clone()
            for player, action, notation in stored.moves:
                state.apply_action(action)
                match.movers.append(player)
                match.notations.append(notation)
            match.state = state
        else:  # an undo happened elsewhere: rebuild from the start (one load, one replay)
            fresh = await asyncio.to_thread(self.load, match.id)
            match.state, match.movers, match.notations = fresh.state, fresh.movers, fresh.notations
        match.seats, match.version, match.status = (
            stored.seats,
            stored.version,
            Status(stored.status),
        )
        match.touched = self.time.monotonic()
        await asyncio.to_thread(self._read_extras, match)
        if not match.movers:
            return None
        return match.movers[-1], match.notations[-1]

    async def reload_seats(self, match: Match) -> bool:
        """Read the seats, status and clock again (lock held): another process seated a
        player. Returns whether anything changed."""
        stored = await asyncio.to_thread(self.store.load, match.id, 1 << 30)
        before = (match.clock, match.seats)
        if stored is not None and stored.seats != match.seats:
            match.seats = stored.seats
            if match.status == Status.OPEN:
                match.status = Status(stored.status)
        await asyncio.to_thread(self._read_extras, match)
        return (match.clock, match.seats) != before

    def idle(self) -> list[str]:
        """Matches nobody watches, no bot drives and nobody changes, idle long enough to go."""
        now = self.time.monotonic()
        idle = []
        for match_id, match in self.matches.items():
            busy = match.bot_task is not None and not match.bot_task.done()
            if match.clients or busy or match.lock.locked():
                continue
            if now - match.touched >= self.settings.idle_evict_seconds:
                idle.append(match_id)
        return idle
