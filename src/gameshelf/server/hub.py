"""The server's parts, put together once per app: the store, the matches in memory, the round
every change goes through, the lobby, the bot driver, the clock steward, multi-process sync,
chat and rematches. Routes and the live socket reach each part through the hub; the parts
know only the ones below them (docs/server.md, "Layout")."""

from __future__ import annotations

from concurrent.futures import Executor

from .bots import StopBoard
from .chat import ChatRooms
from .cluster import STEWARD_EVERY_SECONDS, Cluster
from .committer import GroupCommitter
from .driver import Driver
from .lobby import Lobby
from .registry import MatchRegistry
from .rematch import Rematches
from .round import Round
from .settings import ServerSettings
from .steward import ClockSteward
from .store import Store
from .sync import Sync
from .timing import TimeSource
from .vetting import CardSetCatalog
from .work import WorkScheduler, scheduler_for


class Hub:
    """Owns every part of the server for one app (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        settings: ServerSettings | None = None,
        catalog: CardSetCatalog | None = None,
        clock: TimeSource | None = None,
    ) -> None:
        self.store = store
        self.executor = executor
        self.settings = settings or ServerSettings()
        self.catalog = catalog or CardSetCatalog()
        self.time = clock or TimeSource()
        self.stops = StopBoard()  # a search of a match that ended is stopped in its worker
        self.work: WorkScheduler = scheduler_for(self)
        self.registry = MatchRegistry(store, self.settings, self.time)
        self.round = Round(store, self.registry, GroupCommitter(store), self.time)
        self.driver = Driver(self.round, self.work, self.settings)
        self.steward = ClockSteward(store, self.round, self.time)
        self.sync = Sync(store, self.registry, self.round, self.driver)
        self.lobby = Lobby(store, self.registry, self.round, self.settings, self.catalog)
        self.chat = ChatRooms(store, self.settings, self.time)
        self.rematches = Rematches(store, self.lobby, self.registry, self.round)
        self.cluster: Cluster | None = None  # set on PostgreSQL: several processes share it

    async def join_cluster(self, database_url: str) -> None:
        """Share the database with other server processes (PostgreSQL): own matches one at a
        time, hear their changes, take over those whose process died."""
        cluster = Cluster(database_url)
        self.cluster = cluster
        self.sync.shared = True
        self.sync.owned = cluster.owned
        self.driver.owns = cluster.own
        self.driver.release = cluster.release
        # a flag is due whoever saw the match's moves: every process looks each second
        self.steward.longest_sleep = STEWARD_EVERY_SECONDS
        await cluster.start(self.sync)

    def evict_idle(self) -> int:
        """Drop from memory matches nobody watches and no bot drives (they reload on demand)."""
        idle = self.registry.idle()
        for match_id in idle:
            del self.registry.matches[match_id]
            self.rematches.forget(match_id)  # what memory held for it goes with it
        return len(idle)
