"""Several server processes on one database: catch a match up with what another process
stored (a move, an undo, a flag, a seat taken) and tell this process's connections.

The cluster's listener calls :meth:`Sync.refresh` and :meth:`Sync.refresh_seats` on each
notification; reads of a summary, record or replay go through :meth:`Sync.current` so that
they never lag behind a move made elsewhere.
"""

from __future__ import annotations

import asyncio

from .driver import Driver
from .errors import ServerError
from .match import Match
from .registry import MatchRegistry
from .round import Round
from .store import Store


class Sync:
    """Keeps this process's matches up with the database."""

    def __init__(
        self, store: Store, registry: MatchRegistry, round_: Round, driver: Driver
    ) -> None:
        self.store = store
        self.registry = registry
        self.round = round_
        self.driver = driver
        self.shared = False
        """Whether other processes share the database (PostgreSQL with a cluster)."""
        self.owned: set[str] = set()
        """The matches this process owns (the cluster's set, when there is one)."""

    async def refresh(self, match_id: str, version: int) -> None:
        """Another process changed ``match_id`` (now at ``version``): catch up, tell our
        connections, and drive the bots if this process owns the match."""
        match = self.registry.matches.get(match_id)
        if match is None and match_id in self.registry.loading:
            # loading now, perhaps from before this change: wait for it, then catch up
            match = await self.registry.get(match_id)
        if match is None:
            if match_id in self.owned:  # evicted here, still ours: drive it
                self.driver.schedule(await self.registry.get(match_id))
            return
        if match.version >= version:
            return
        async with match.lock:
            if match.version >= version:  # our own change, applied while we waited
                return
            before = match.version
            last = await self.registry.catch_up_locked(match)
        if match.version != before:  # a catch-up that found nothing tells nobody
            self.round.broadcast(match, last)
            self.round.changed(match)

    async def refresh_seats(self, match_id: str) -> None:
        """Another process seated a player in ``match_id``: read the seats and status again."""
        match = self.registry.matches.get(match_id)
        if match is None:
            return
        async with match.lock:
            if not await self.registry.reload_seats(match):
                return  # nothing new (e.g. this process's own join coming back)
        self.round.broadcast(match)
        self.round.changed(match)

    async def current(self, match_id: str) -> Match:
        """The match as the database has it now (caught up first when processes share it)."""
        match = await self.registry.get(match_id)
        if self.shared:
            async with match.lock:
                before = match.version
                last = await self.registry.catch_up_locked(match)
            if match.version != before:
                self.round.broadcast(match, last)
                self.round.changed(match)
        return match

    async def catch_up_all(self) -> None:
        """After the cluster's listener reconnected: changes committed while it was away were
        never heard, so every match held here is caught up with the database."""
        for match_id in list(self.registry.matches):
            await self.refresh(match_id, 1 << 62)
        for match_id in list(self.owned):
            match = self.registry.matches.get(match_id)
            if match is not None:
                self.round.changed(match)

    def give_up(self, match_id: str) -> None:
        """Another process owns ``match_id`` now: this one stops driving its bots."""
        match = self.registry.matches.get(match_id)
        if match is not None and match.bot_task is not None:
            match.bot_task.cancel()

    def idle(self, match_id: str) -> bool:
        """Whether no bot of ``match_id`` is searching in this process now."""
        match = self.registry.matches.get(match_id)
        return match is None or match.search is None

    async def take_over(self, match_id: str) -> None:
        """This process now owns ``match_id`` (its owner died): catch up and drive it."""
        match = await self.registry.get(match_id)
        await self.refresh(match_id, 1 << 62)
        self.round.changed(match)  # its bots move, its deadline is looked at

    async def running_ids(self) -> list[str]:
        """Every running match in the database."""
        return await asyncio.to_thread(self.store.match_ids, "running")

    async def resume(self) -> int:
        """After a restart: load every running match and let its bots continue (a match that
        will not load is set aside by the registry, and the server starts anyway)."""
        resumed = 0
        if self.shared:
            return resumed  # the cluster's steward takes them up, a fair share each
        for match_id in await self.running_ids():
            if self.driver.owns is not None and not await self.driver.owns(match_id):
                continue  # another live process has it
            try:
                match = await self.registry.get(match_id)
            except ServerError:
                continue
            self.driver.schedule(match)
            resumed += 1
        return resumed
