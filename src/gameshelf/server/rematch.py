"""Rematch with seats swapped (docs/server.md, "Rematch").

After a game is over every human seat may ask for a rematch; once all of them have, the server
creates a new match of the same game string and time control, each seat moved one place on
(two players: swapped), bots keeping their agent. Nobody has to take a seat again: each new
seat is held by the same secret token that held the player's old one, so each browser already
holds the key to its new seat (it stores it under the new match id when it hears of the
rematch). A rated match's rematch is rated too. The offers live in memory (a restart forgets
them: the players simply ask again) only while they matter: they are dropped once the rematch
exists and when the match leaves memory (:meth:`Rematches.forget`, from the hub's eviction of
idle matches), so memory stays bounded by the matches held. The rematch that followed a match
is stored with it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from sqlalchemy import select

from .contract import RematchFrame
from .errors import ServerError
from .guard import RateLimiter
from .match import Status
from .store import RatedMatchRow, RematchRow, SeatAccountRow, SeatInfo, utcnow

if TYPE_CHECKING:
    from .lobby import Lobby
    from .match import Match
    from .outbox import Client
    from .registry import MatchRegistry
    from .round import Round
    from .store import Store


def new_seat(old_seat: int, seats: int) -> int:
    """Where the holder of ``old_seat`` sits in the rematch: one place on (two: swapped)."""
    return (old_seat + 1) % seats


class Rematches:
    """Offers per finished match, and the creation of the rematch once every human agreed."""

    def __init__(self, store: Store, lobby: Lobby, registry: MatchRegistry, round_: Round) -> None:
        self.store = store
        self.lobby = lobby
        self.registry = registry
        self.round = round_
        self.offers: dict[str, set[int]] = {}
        """Seats asking for a rematch, per finished match held in memory that has none yet."""
        self.known: dict[str, str] = {}
        """The rematch of a match held in memory, once looked up or created."""
        self.limiter: RateLimiter | None = None
        """The per-address create limit (the app's): the offer that makes a rematch spends
        a create of its address, so rematch chains are held to it like any create."""

    def forget(self, match_id: str) -> None:
        """``match_id`` left memory: drop its offers and what is known of its rematch (a
        player who comes back asks again; the rematch itself is in the database)."""
        self.offers.pop(match_id, None)
        self.known.pop(match_id, None)

    async def next_of(self, match_id: str) -> str | None:
        """The rematch that followed ``match_id``, if there was one."""
        if match_id in self.known:
            return self.known[match_id]
        found = await asyncio.to_thread(self._stored_next, match_id)
        if found is not None:
            self.known[match_id] = found
        return found

    def _stored_next(self, match_id: str) -> str | None:
        with self.store.session() as session:
            row = session.get(RematchRow, match_id)
            return None if row is None else row.next_id

    def frame(self, match: Match, next_id: str | None) -> RematchFrame:
        """What everyone connected hears: who asked, and the new match once there is one
        (then every human seat asked: the offers themselves are forgotten by then)."""
        count = len(match.seats)
        if next_id is None:
            offers = sorted(self.offers.get(match.id, set()))
        else:
            offers = [s.seat for s in match.seats if s.kind == "human"]
        return RematchFrame(
            type="rematch",
            match=match.id,
            offers=offers,
            next=next_id,
            seat_map=[new_seat(seat, count) for seat in range(count)],
        )

    async def offer(self, match: Match, client: Client, seat: int, accept: bool) -> str | None:
        """``seat`` asks for (or withdraws its wish for) a rematch; returns the new match's id
        once every human seat has asked."""
        if seat not in client.seats:
            raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")
        async with match.lock:
            if match.status != Status.FINISHED:
                raise ServerError("match/not-finished", "a rematch comes once the game is over")
            next_id = await self.next_of(match.id)
            if next_id is None:
                wishes = set(self.offers.get(match.id, set()))
                if accept:
                    wishes.add(seat)
                else:
                    wishes.discard(seat)
                humans = {s.seat for s in match.seats if s.kind == "human"}
                if humans <= wishes:
                    self._spend_create(client.address)
                    next_id = await self._create(match)
                    self.known[match.id] = next_id
                    self.offers.pop(match.id, None)  # done with: the rematch exists
                elif wishes:
                    self.offers[match.id] = wishes
                else:
                    self.offers.pop(match.id, None)
            message = self.frame(match, next_id)
        for other in list(match.clients):
            if other is not client:  # the asker's answer carries its request id
                other.send(message)
        return next_id

    def _spend_create(self, address: str) -> None:
        """Refuse the rematch (changing nothing) past the asker's create limit."""
        wait = 0.0 if self.limiter is None else self.limiter.take(address)
        if wait > 0:
            raise ServerError(
                "request/rate-limited",
                f"too many new matches from your address; ask for the rematch again in "
                f"{wait:.0f} s",
            )

    async def _create(self, match: Match) -> str:
        """The rematch: same game and clock, seats moved on, each held by the same token."""
        count = len(match.seats)
        moved: list[SeatInfo] = list(match.seats)
        for old in match.seats:
            moved[new_seat(old.seat, count)] = old
        specs = [
            {"kind": "human"} if s.kind == "human" else {"kind": "bot", "agent": s.agent}
            for s in moved
        ]
        control = None
        if match.clock is not None:
            control = match.clock.control
        fresh = await self.lobby.create_match(match.display, specs, None, time_control=control)
        if match.rated:  # before its clock starts: the first moves' grace windows apply
            self.registry.mark_rated(fresh)
        async with fresh.lock:
            for index, old in enumerate(moved):
                if old.kind == "human" and old.token_hash is not None:
                    await self.round.seat_locked(fresh, index, old.name, old.token_hash)
            await asyncio.to_thread(self._link, match.id, fresh.id)
        await _carry_rating(
            self.store, match.id, fresh.id, {s.seat: new_seat(s.seat, count) for s in match.seats}
        )
        self.round.changed(fresh)
        return fresh.id

    def _link(self, match_id: str, next_id: str) -> None:
        with self.store.session() as session:
            session.add(RematchRow(match_id=match_id, next_id=next_id, created=utcnow()))


async def _carry_rating(store: Store, old_id: str, new_id: str, seat_map: dict[int, int]) -> None:
    """Each account holds its seat of the rematch, and a rated match's rematch is rated."""
    await asyncio.to_thread(_carry_accounts, store, old_id, new_id, seat_map)


def _carry_accounts(store: Store, old_id: str, new_id: str, seat_map: dict[int, int]) -> None:
    with store.session() as session:
        held = session.scalars(select(SeatAccountRow).where(SeatAccountRow.match_id == old_id))
        for row in list(held):
            session.add(
                SeatAccountRow(match_id=new_id, seat=seat_map[row.seat], account_id=row.account_id)
            )
        if session.get(RatedMatchRow, old_id) is not None:
            session.add(RatedMatchRow(match_id=new_id, settled=None))
