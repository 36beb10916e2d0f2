"""The bot and chance driver: plays chance outcomes and bots' moves until a human is to move
or the match ends, each through the round like any other change.

Each match has at most one driver task, supervised: after a failure (the database away) it
logs, waits with backoff and goes on, so a brief outage never stalls a match until restart.
A bot's search runs in the worker pool through the work scheduler, from a snapshot of the
state; when the match ends meanwhile (a resignation, a flag, another process's change) the
search is abandoned and stopped in its worker.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
from collections.abc import Awaitable, Callable

from gameshelf.core.game import CHANCE
from gameshelf.core.rng import derive_seed, make_rng

from .bots import choose_bot_action
from .match import Match, Move, Status
from .round import Round
from .settings import ServerSettings
from .work import Kind, WorkScheduler

log = logging.getLogger("gameshelf.server")

Owns = Callable[[str], Awaitable[bool]]
"""Whether this process drives a match (several processes on one database share them)."""


class Driver:
    """Drives the bots and chance of every match this process owns."""

    def __init__(self, round_: Round, work: WorkScheduler, settings: ServerSettings) -> None:
        self.round = round_
        self.work = work
        self.settings = settings
        self.choose: Callable[[bytes, str, int, float], int] = choose_bot_action
        self.owns: Owns | None = None
        """Set when several processes share the database (the cluster's ownership)."""
        self.release: Callable[[str], Awaitable[None]] | None = None
        round_.listeners.append(self.on_change)

    def on_change(self, match: Match) -> None:
        """A match changed: an ended one's search is abandoned; a running one driven."""
        if match.status != Status.RUNNING:
            self.stop(match)
            return
        self.schedule(match)

    def schedule(self, match: Match) -> None:
        """Let the match's bots and chance move, if any is to (and this process owns it)."""
        if match.bot_task is None or match.bot_task.done():
            match.bot_task = asyncio.get_running_loop().create_task(self._supervise(match))

    def stop(self, match: Match) -> None:
        """The match ended: abandon any bot search running for it."""
        if match.search is not None:
            match.search.cancel()

    async def _supervise(self, match: Match) -> None:
        if self.owns is not None and not await self.owns(match.id):
            return  # another server process owns this match and drives its bots
        delay = 0.25
        while True:
            try:
                await self._drive(match)
                if self.release is not None and match.status == Status.FINISHED:
                    await self.release(match.id)
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning(
                    "match %s: bot driver failed (%s); retrying in %.2f s", match.id, error, delay
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def _drive(self, match: Match) -> None:
        """Play chance outcomes and bot moves until a human is to move or the game ends."""
        while True:
            async with match.lock:
                state = match.state
                if match.status != Status.RUNNING or state.is_terminal():
                    return
                player = state.current_player()
                version = match.version
                if player == CHANCE:
                    rng = make_rng(derive_seed(match.seed, "chance", len(state.history())))
                    await self.round.apply_locked(match, Move(CHANCE, state.sample_chance(rng)))
                    self.round.changed(match)
                    continue
                seat = match.seats[player]
                if seat.kind != "bot" or seat.agent is None:
                    return
                snapshot = pickle.dumps(state)
            action = await self._bot_action(match, snapshot, seat.agent, player)
            if action is None:  # abandoned: the match ended meanwhile
                continue
            async with match.lock:
                if match.version == version:
                    await self.round.apply_locked(match, Move(player, action))
            self.round.changed(match)

    async def _bot_action(
        self, match: Match, snapshot: bytes, agent: str, player: int
    ) -> int | None:
        """The bot's move from a snapshot (no history replay); None when abandoned."""
        plies = len(match.movers)
        seed = derive_seed(match.seed, "seat", player, plies)
        try:
            return await self._search(match, snapshot, agent, seed)
        except Exception:  # a broken bot must neither crash the server nor stall the match
            log.exception("bot %s failed in match %s; playing a random move", agent, match.id)
            rng = make_rng(derive_seed(match.seed, "fallback", plies))
            return int(rng.choice(match.state.legal_actions()))

    async def _search(self, match: Match, snapshot: bytes, agent: str, seed: int) -> int | None:
        """One bot search through the work scheduler (None: abandoned by :meth:`stop`).
        However it is cancelled, it is stopped in its worker too, so the worker is free."""
        cap = self.settings.bot_move_seconds
        kind: Kind = "bot-only" if match.bots_only else "live"
        search = asyncio.ensure_future(
            self.work.run(kind, self.choose, snapshot, agent, seed, cap, seconds=cap)
        )
        match.search = search
        try:
            return int(await search)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # the driver itself is cancelled
                search.cancel()
                raise
            return None
        finally:
            match.search = None
