"""One scheduler for the server's computed work: bot moves, hints and analyses.

Every search the server runs goes through :class:`WorkScheduler`, which decides when the worker
pool serves it:

* **Priorities.** A bot's reply to a person first; then hints; then analyses and the moves of
  bots-only matches. Work other than live replies holds at most all workers but one, so a live
  reply never waits behind it. Within a priority the requester served least recently goes
  first, so one address's pile waits behind everyone else's single requests.
* **Budgets in seconds of search.** A request names its owners (its address, its account): it
  reserves its seconds from each owner's bucket (refilled at ``work_seconds_per_minute``, up to
  ``work_seconds_burst``) and is refused ``request/rate-limited`` when one is short. When it
  ends, what it did not run comes back; a job that ran past its reservation is charged in full.
* **A bounded queue.** Requests waiting for a worker are at most ``work_queue``; past that they
  are refused ``server/busy``. The server's own work (bot moves) has no owner, no budget and is
  never refused: each match has at most one search, and bots-only matches are capped.
* **Cancellation.** A job whose every requester left (its awaiting task cancelled, e.g. the
  match ended, or its ``cancel_when`` done, e.g. the HTTP client hung up) leaves the queue, or
  is stopped in its worker through the :class:`~gameshelf.server.bots.StopBoard`.
* **Cached answers.** A job with a ``key`` is computed once: later asks get the kept answer
  (the ``work_cache_entries`` most recent), concurrent asks share the running computation.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, Protocol, TypeVar, cast

from .bots import StopBoard, stoppable
from .errors import ServerError
from .settings import ServerSettings

T = TypeVar("T")
Kind = Literal["live", "hint", "analysis", "bot-only"]
PRIORITY: dict[Kind, int] = {"live": 0, "hint": 1, "analysis": 2, "bot-only": 2}
"""Lower first: a bot's reply to a person, then hints, then analyses and bots-only matches."""
MAX_OWNERS = 10_000
"""Budget buckets kept in memory (the least recently used are forgotten: a full bucket)."""


class Abandoned(ServerError):
    """Every requester of a job left before its answer (the client hung up)."""

    def __init__(self) -> None:
        super().__init__("request/abandoned", "the request was given up: its client left")


class Budgets:
    """Seconds of search per owner as token buckets: ``per_minute`` refill, ``burst`` at most.

    ``clock`` is injected so tests can move time; the scheduler charges with the same clock.
    """

    def __init__(self, per_minute: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.per_minute = per_minute
        self.clock = clock
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def level(self, owner: str) -> float:
        """Seconds of search ``owner`` may start now (negative after an overrun)."""
        now = self.clock()
        seconds, stamp = self.buckets.get(owner, (self.burst, now))
        return min(self.burst, seconds + (now - stamp) * self.rate)

    def reserve(self, owners: Sequence[str], seconds: float) -> None:
        """Take ``seconds`` from every owner's bucket, or refuse (taking nothing) naming the
        budget. A job larger than the burst needs a full bucket, not an impossible one."""
        need = min(seconds, self.burst)
        for owner in owners:
            have = self.level(owner)
            if have < need:
                wait = (need - have) / self.rate if self.rate > 0 else 60.0
                kind, _, who = owner.partition(":")
                raise ServerError(
                    "request/rate-limited",
                    f"{kind} {who} has used its search budget ({self.per_minute:g} s of search "
                    f"a minute, at most {self.burst:g} s at once); this needs {need:g} s: "
                    f"retry in {max(1.0, wait):.0f} s",
                )
        for owner in owners:
            self._set(owner, self.level(owner) - seconds)

    def give_back(self, owners: Sequence[str], seconds: float) -> None:
        """Return ``seconds`` (negative: charge more) to every owner's bucket."""
        for owner in owners:
            self._set(owner, min(self.burst, self.level(owner) + seconds))

    def _set(self, owner: str, seconds: float) -> None:
        self.buckets.pop(owner, None)
        self.buckets[owner] = (seconds, self.clock())
        while len(self.buckets) > MAX_OWNERS:
            self.buckets.popitem(last=False)


@dataclass(eq=False)
class Job:
    """One search: what to run, who asked, and where it stands."""

    kind: Kind
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    seconds: float
    owners: tuple[str, ...]
    key: Hashable | None
    done: asyncio.Future[Any]
    waiters: int = 1
    slot: int | None = None
    submitted: Future[Any] | None = None
    """The pool's own future: its ``cancel`` fails once the call runs (an asyncio wrapper's
    would succeed and report the worker free while the search still runs)."""
    started: float = 0.0
    abandoned: bool = False
    lane: str = field(init=False)

    def __post_init__(self) -> None:
        self.lane = self.owners[0] if self.owners else ""

    @property
    def background(self) -> bool:
        """Whether it is anything but a bot's reply to a person."""
        return PRIORITY[self.kind] > 0


class WorkScheduler:
    """Runs every search on ``executor`` (``workers`` of them) in priority order, within the
    owners' budgets; see the module's description."""

    def __init__(
        self,
        executor: Executor,
        stops: StopBoard,
        settings: ServerSettings,
        workers: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.executor = executor
        self.stops = stops
        self.workers = max(1, workers)
        self.background_cap = max(1, self.workers - 1)
        self.queue_limit = settings.work_queue
        self.cache_size = settings.work_cache_entries
        self.clock = clock
        self.budgets = Budgets(settings.work_seconds_per_minute, settings.work_seconds_burst, clock)
        self.queues: dict[int, OrderedDict[str, deque[Job]]] = {
            priority: OrderedDict() for priority in sorted(set(PRIORITY.values()))
        }
        self.served: OrderedDict[str, int] = OrderedDict()  # requester -> turn last served
        self.turn = 0
        self.running: set[Job] = set()
        self.waiting_requests = 0
        self.cache: OrderedDict[Hashable, Any] = OrderedDict()
        self.pending: dict[Hashable, Job] = {}

    # --- asking -----------------------------------------------------------------------------
    async def run(
        self,
        kind: Kind,
        fn: Callable[..., T],
        *args: Any,
        seconds: float,
        owners: Sequence[str] = (),
        key: Hashable | None = None,
        cancel_when: Awaitable[object] | None = None,
    ) -> T:
        """``fn(*args)`` in a worker, once its turn comes; ``seconds`` is its search time.

        ``owners`` (e.g. ``"address:1.2.3.4"``, ``"account:7"``) make it a request: budgeted
        and refused when the queue is full. ``key`` caches the answer. Cancelling the awaiting
        task, or ``cancel_when`` completing first (a coroutine given there is run and then
        cancelled), abandons the job once no one else waits for it; ``cancel_when`` then
        raises :class:`Abandoned`. A search stopped in its worker raises nothing here.
        """
        if key is not None and key in self.cache:
            _discard(cancel_when)
            self.cache.move_to_end(key)
            return cast(T, self.cache[key])
        job = self.pending.get(key) if key is not None else None
        if job is not None:
            job.waiters += 1
        else:
            try:
                job = self._admit(kind, fn, args, seconds, tuple(owners), key)
            except ServerError:
                _discard(cancel_when)
                raise
            self._pump()
        return cast(T, await self._wait(job, cancel_when))

    def _admit(
        self,
        kind: Kind,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        seconds: float,
        owners: tuple[str, ...],
        key: Hashable | None,
    ) -> Job:
        """Queue a new job, or refuse it (changing nothing): queue full, then budgets."""
        if owners and self.waiting_requests >= self.queue_limit:
            raise ServerError(
                "server/busy",
                f"the server's search queue is full ({self.queue_limit} requests waiting for "
                "a worker); try again in a few seconds",
            )
        if owners:
            self.budgets.reserve(owners, seconds)
            self.waiting_requests += 1
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job = Job(kind, fn, args, seconds, owners, key, done)
        if key is not None:
            self.pending[key] = job
        self.queues[PRIORITY[kind]].setdefault(job.lane, deque()).append(job)
        return job

    async def _wait(self, job: Job, cancel_when: Awaitable[object] | None) -> Any:
        """The job's answer for one of its waiters; leaving it when that waiter goes."""
        watcher = None if cancel_when is None else asyncio.ensure_future(cancel_when)
        try:
            if watcher is None:
                return await asyncio.shield(job.done)
            await asyncio.wait({job.done, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if job.done.done():
                return job.done.result()
            self._leave(job)
            raise Abandoned()
        except asyncio.CancelledError:
            self._leave(job)
            raise
        finally:
            if watcher is not None and watcher is not cancel_when:
                watcher.cancel()  # our own watcher (a coroutine we started): end it

    def _leave(self, job: Job) -> None:
        """One waiter went; with none left the job is dropped, or stopped in its worker."""
        if job.done.done() or job.abandoned:
            return
        job.waiters -= 1
        if job.waiters > 0:
            return
        job.abandoned = True
        if job.key is not None and self.pending.get(job.key) is job:
            del self.pending[job.key]  # a later ask starts afresh, not on a stopping search
        job.done.cancel()
        if job.submitted is None:
            self._unqueue(job)
            self.budgets.give_back(job.owners, job.seconds)
        elif not job.submitted.cancel() and job.slot is not None:
            self.stops.stop(job.slot)  # already running: stop it in its worker

    def _unqueue(self, job: Job) -> None:
        lanes = self.queues[PRIORITY[job.kind]]
        lane = lanes[job.lane]
        lane.remove(job)
        if not lane:
            del lanes[job.lane]
        if job.owners:
            self.waiting_requests -= 1

    # --- serving ----------------------------------------------------------------------------
    @property
    def background_running(self) -> int:
        """Jobs other than live replies now in a worker."""
        return sum(job.background for job in self.running)

    def _next(self) -> Job | None:
        """The job to start now, if a worker may take one: the first priority with work,
        the requester served least recently first."""
        if len(self.running) >= self.workers:
            return None
        for priority, lanes in self.queues.items():
            if not lanes:
                continue
            if priority > 0 and self.background_running >= self.background_cap:
                return None  # the last worker is kept for a live reply
            lane = min(lanes, key=lambda name: self.served.get(name, -1))
            jobs = lanes[lane]
            job = jobs.popleft()
            if not jobs:
                del lanes[lane]
            self._served(lane)
            if job.owners:
                self.waiting_requests -= 1
            return job
        return None

    def _served(self, lane: str) -> None:
        """Mark ``lane`` served now (kept past its queue, so a requester whose pile empties
        for a moment does not come back first)."""
        self.turn += 1
        self.served.pop(lane, None)
        self.served[lane] = self.turn
        while len(self.served) > MAX_OWNERS:
            self.served.popitem(last=False)

    def _pump(self) -> None:
        """Start jobs while workers are free for them."""
        while (job := self._next()) is not None:
            self._start(job)

    def _start(self, job: Job) -> None:
        job.slot = self.stops.take()
        try:
            submitted = self.executor.submit(
                stoppable, self.stops.path, job.slot, job.fn, *job.args
            )
        except RuntimeError:  # the pool is shut down: the server is stopping
            if job.slot is not None:
                self.stops.give_back(job.slot)
            self.budgets.give_back(job.owners, job.seconds)
            job.done.set_exception(ServerError("server/unavailable", "the server is stopping"))
            return
        job.started = self.clock()
        job.submitted = submitted
        self.running.add(job)
        asyncio.wrap_future(submitted).add_done_callback(partial(self._finished, job))

    def _finished(self, job: Job, running: asyncio.Future[Any]) -> None:
        """A worker is done with ``job``: charge its time, answer its waiters, start the next."""
        self.running.discard(job)
        if job.slot is not None:
            self.stops.give_back(job.slot)
        used = 0.0 if running.cancelled() else self.clock() - job.started
        self.budgets.give_back(job.owners, job.seconds - used)
        if job.key is not None and self.pending.get(job.key) is job:
            del self.pending[job.key]
        if not job.done.done():
            if running.cancelled():
                job.done.cancel()
            elif (error := running.exception()) is not None:
                job.done.set_exception(error)  # failures are not kept: the next ask retries
            else:
                job.done.set_result(running.result())
                self._keep(job.key, running.result())
        elif not running.cancelled():
            running.exception()  # abandoned: its (stop) exception is read, not reported
        self._pump()

    def _keep(self, key: Hashable | None, answer: Any) -> None:
        if key is None or self.cache_size <= 0:
            return
        self.cache[key] = answer
        self.cache.move_to_end(key)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker, of every kind."""
        return sum(len(jobs) for lanes in self.queues.values() for jobs in lanes.values())


def _discard(watch: Awaitable[object] | None) -> None:
    """Close a watcher coroutine that will not be awaited (no "never awaited" warning)."""
    if asyncio.iscoroutine(watch):
        watch.close()


class Pool(Protocol):
    """What the scheduler needs of the hub: its worker pool, stop board and limits."""

    executor: Executor
    stops: StopBoard
    settings: ServerSettings


_schedulers: weakref.WeakKeyDictionary[Any, WorkScheduler] = weakref.WeakKeyDictionary()


def scheduler_for(hub: Pool) -> WorkScheduler:
    """The one scheduler of ``hub``'s worker pool (made on first use, in the event loop)."""
    scheduler = _schedulers.get(hub)
    if scheduler is None:
        # both of the standard library's pools know their size only as this attribute
        workers = int(getattr(hub.executor, "_max_workers", 1))
        scheduler = WorkScheduler(hub.executor, hub.stops, hub.settings, workers)
        _schedulers[hub] = scheduler
    return scheduler
