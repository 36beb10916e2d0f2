"""The work scheduler: priorities, budgets in seconds of search, a bounded queue, cancellation
that frees the worker, cached answers, and a bot's reply that an abusive address cannot delay.

Every test drives searches that block on events (no timing is asserted); the budgets read an
injected clock that the test moves by hand.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

from gameshelf.server.bots import SearchCancelled, StopBoard
from gameshelf.server.errors import ServerError
from gameshelf.server.settings import ServerSettings
from gameshelf.server.work import Abandoned, Kind, WorkScheduler

WAIT = 30.0
"""Safety net for an event that should come at once (a failing test ends instead of hanging)."""


class Clock:
    """The scheduler's time, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Searches:
    """Fake searches run in the pool: each, named, marks its start, then waits until the test
    releases it or the scheduler stops it (then marks that)."""

    def __init__(self) -> None:
        self.started: dict[str, threading.Event] = {}
        self.release: dict[str, threading.Event] = {}
        self.stopped: dict[str, threading.Event] = {}
        self.order: list[str] = []
        self.calls: dict[str, int] = {}
        self.all_released = False  # searches started after release_all are released too
        self._lock = threading.Lock()

    def _events(self, name: str) -> None:
        with self._lock:
            for table in (self.started, self.release, self.stopped):
                table.setdefault(name, threading.Event())
            if self.all_released:
                self.release[name].set()

    def __call__(self, name: str) -> str:
        self._events(name)
        with self._lock:
            self.order.append(name)
            self.calls[name] = self.calls.get(name, 0) + 1
        self.started[name].set()
        try:
            while not self.release[name].wait(0.005):  # a search's loop: stoppable between steps
                pass
        except SearchCancelled:
            self.stopped[name].set()
            raise
        return f"answer of {name}"

    async def wait_started(self, name: str) -> None:
        self._events(name)
        assert await asyncio.to_thread(self.started[name].wait, WAIT), f"{name} never started"

    async def wait_stopped(self, name: str) -> None:
        self._events(name)
        assert await asyncio.to_thread(self.stopped[name].wait, WAIT), f"{name} was not stopped"

    def finish(self, name: str) -> None:
        self._events(name)
        self.release[name].set()

    def release_all(self) -> None:
        with self._lock:
            self.all_released = True
            for event in self.release.values():
                event.set()


@pytest.fixture
def searches() -> Iterator[Searches]:
    found = Searches()
    yield found
    found.release_all()


def scenario(
    searches: Searches,
    workers: int,
    body: Callable[[WorkScheduler, Clock], Awaitable[None]],
    **limits: Any,
) -> None:
    """Run ``body`` with a scheduler over a pool of ``workers`` threads and a stop board."""
    settings = replace(ServerSettings(), **limits)
    clock = Clock()
    pool = ThreadPoolExecutor(max_workers=workers)
    stops = StopBoard()

    async def main() -> None:
        work = WorkScheduler(pool, stops, settings, workers, clock=clock)
        try:
            await body(work, clock)
        finally:
            searches.release_all()

    try:
        asyncio.run(main())
    finally:
        searches.release_all()
        pool.shutdown(wait=True)
        stops.close()


def ask(
    work: WorkScheduler,
    searches: Searches,
    kind: Kind,
    name: str,
    owner: str | None = None,
    seconds: float = 1.0,
    **options: Any,
) -> asyncio.Task[str]:
    """A task awaiting search ``name`` through the scheduler."""
    owners = () if owner is None else (owner,)
    return asyncio.ensure_future(
        work.run(kind, searches, name, seconds=seconds, owners=owners, **options)
    )


async def settled() -> None:
    """Let every ready callback run (the scheduler acts in callbacks of the event loop)."""
    for _ in range(5):
        await asyncio.sleep(0)


def test_live_replies_first_then_hints_then_analyses(searches: Searches) -> None:
    async def body(work: WorkScheduler, _clock: Clock) -> None:
        first = ask(work, searches, "analysis", "analysis A", "address:a")
        live1 = ask(work, searches, "live", "live 1")
        await searches.wait_started("analysis A")
        await searches.wait_started("live 1")
        queued = [
            ask(work, searches, "analysis", "analysis B", "address:b"),
            ask(work, searches, "bot-only", "bots only"),
            ask(work, searches, "hint", "hint C", "address:c"),
            ask(work, searches, "live", "live 2"),
        ]
        await settled()
        assert work.queued == 4 and searches.order == ["analysis A", "live 1"]
        searches.finish("analysis A")  # a free worker: the live reply, not older background work
        assert await first == "answer of analysis A"
        await searches.wait_started("live 2")
        searches.finish("live 1")  # the next free worker: the hint before the analyses
        await searches.wait_started("hint C")
        searches.finish("hint C")
        searches.finish("live 2")
        await searches.wait_started("analysis B")
        searches.finish("analysis B")
        await searches.wait_started("bots only")
        searches.finish("bots only")
        await asyncio.gather(live1, *queued)
        assert searches.order == [
            "analysis A", "live 1", "live 2", "hint C", "analysis B", "bots only",
        ]  # fmt: skip

    scenario(searches, 2, body)


def test_background_work_never_takes_the_last_worker(searches: Searches) -> None:
    async def body(work: WorkScheduler, _clock: Clock) -> None:
        hints = [ask(work, searches, "hint", f"hint {i}", f"address:{i}") for i in range(3)]
        await searches.wait_started("hint 0")
        await settled()
        assert searches.order == ["hint 0"] and work.queued == 2  # two workers, one kept
        live = ask(work, searches, "live", "live")
        await searches.wait_started("live")
        searches.release_all()
        await asyncio.gather(live, *hints)

    scenario(searches, 2, body)


def test_one_address_pile_waits_behind_another_address_single_request(
    searches: Searches,
) -> None:
    async def body(work: WorkScheduler, _clock: Clock) -> None:
        pile = [ask(work, searches, "hint", f"pile {i}", "address:greedy") for i in range(3)]
        await searches.wait_started("pile 0")
        other = ask(work, searches, "hint", "single", "address:other")
        await settled()
        searches.finish("pile 0")
        await searches.wait_started("single")  # before the rest of the pile
        searches.release_all()
        await asyncio.gather(other, *pile)
        assert searches.order == ["pile 0", "single", "pile 1", "pile 2"]

    scenario(searches, 1, body)


def test_budgets_are_seconds_of_search_and_a_refusal_names_the_budget(
    searches: Searches,
) -> None:
    async def body(work: WorkScheduler, clock: Clock) -> None:
        budgets = work.budgets
        first = ask(work, searches, "analysis", "long", "address:a", seconds=2.0)
        await searches.wait_started("long")
        with pytest.raises(ServerError) as refused:  # 1 s left of the 3: not enough for 2
            await work.run("hint", searches, "more", seconds=2.0, owners=("address:a",))
        assert refused.value.code == "request/rate-limited"
        message = str(refused.value)
        assert "address a" in message and "6 s of search a minute" in message
        assert "at most 3 s at once" in message and "needs 2 s" in message
        assert budgets.level("address:a") == pytest.approx(1.0)  # the refusal took nothing
        assert budgets.level("address:b") == pytest.approx(3.0)  # others untouched
        clock.now += 2.5  # it searches 2.5 s: charged in full, past its 2 s reservation
        searches.finish("long")
        await first
        refill = 2.5 * 6 / 60
        assert budgets.level("address:a") == pytest.approx(3.0 - 2.5 + refill)
        clock.now += 10.0  # a second a ten seconds: the bucket refills
        assert budgets.level("address:a") == pytest.approx(3.0 - 2.5 + refill + 1.0)
        second = ask(work, searches, "hint", "later", "address:a", seconds=1.0)
        await searches.wait_started("later")
        searches.finish("later")  # used no time on the clock: the whole reservation returns
        await second
        assert budgets.level("address:a") == pytest.approx(3.0 - 2.5 + refill + 1.0)

    scenario(searches, 2, body, work_seconds_per_minute=6.0, work_seconds_burst=3.0)


def test_an_account_is_held_to_its_budget_from_any_address(searches: Searches) -> None:
    async def body(work: WorkScheduler, _clock: Clock) -> None:
        job = work.run("hint", searches, "one", seconds=2.0, owners=("address:a", "account:7"))
        first = asyncio.ensure_future(job)
        await searches.wait_started("one")
        with pytest.raises(ServerError, match="account 7 has used its search budget"):
            await work.run("hint", searches, "two", seconds=2.0, owners=("address:b", "account:7"))
        assert work.budgets.level("address:b") == pytest.approx(3.0)
        searches.finish("one")
        await first

    scenario(searches, 2, body, work_seconds_per_minute=6.0, work_seconds_burst=3.0)


def test_a_full_queue_refuses_requests_but_never_a_bot_move(searches: Searches) -> None:
    async def body(work: WorkScheduler, _clock: Clock) -> None:
        running = ask(work, searches, "hint", "running", "address:a")
        await searches.wait_started("running")
        waiting = [ask(work, searches, "analysis", f"wait {i}", f"address:{i}") for i in range(2)]
        await settled()
        with pytest.raises(ServerError) as refused:
            await work.run("hint", searches, "refused", seconds=1.0, owners=("address:z",))
        assert refused.value.code == "server/busy"
        assert "queue is full (2 requests waiting" in str(refused.value)
        assert work.budgets.level("address:z") == pytest.approx(60.0)  # nothing taken
        bot = ask(work, searches, "bot-only", "bot move")  # the server's own work: queued
        await settled()
        assert work.queued == 3 and not bot.done()
        searches.release_all()
        await asyncio.gather(running, bot, *waiting)
        assert "refused" not in searches.order

    scenario(searches, 1, body, work_queue=2)


def test_a_client_that_hangs_up_frees_the_worker_at_once(searches: Searches) -> None:
    async def body(work: WorkScheduler, clock: Clock) -> None:
        hung_up = asyncio.Event()
        left = ask(
            work, searches, "analysis", "left", "address:a", seconds=5.0,
            cancel_when=hung_up.wait(),
        )  # fmt: skip
        await searches.wait_started("left")
        queued_left = ask(
            work, searches, "analysis", "never", "address:a", seconds=5.0,
            cancel_when=hung_up.wait(),
        )  # fmt: skip
        nxt = ask(work, searches, "hint", "next", "address:b")
        await settled()
        clock.now += 1.0
        hung_up.set()
        with pytest.raises(Abandoned):
            await left
        with pytest.raises(Abandoned):
            await queued_left
        await searches.wait_stopped("left")  # stopped in its worker, never released
        await searches.wait_started("next")  # the one worker serves the next request
        assert "never" not in searches.order  # the queued one left the queue
        refill = 1.0 * 20 / 60  # the default 20 s a minute, over the second it searched
        assert work.budgets.level("address:a") == pytest.approx(60.0 - 1.0 + refill)
        searches.finish("next")
        assert await nxt == "answer of next"

    scenario(searches, 1, body)


def test_a_cancelled_bot_search_is_stopped_in_its_worker(searches: Searches) -> None:
    """The match ended: the bot driver cancels the task awaiting the search."""

    async def body(work: WorkScheduler, _clock: Clock) -> None:
        search = ask(work, searches, "live", "bot")
        await searches.wait_started("bot")
        search.cancel()
        with pytest.raises(asyncio.CancelledError):
            await search
        await searches.wait_stopped("bot")
        after = ask(work, searches, "live", "after")
        await searches.wait_started("after")
        searches.finish("after")
        await after

    scenario(searches, 1, body)


def test_a_shared_question_is_computed_once_and_kept(searches: Searches) -> None:
    async def body(work: WorkScheduler, _clock: Clock) -> None:
        key = ("hint", "position", 1.0)
        first = ask(work, searches, "hint", "same", "address:a", key=key)
        await searches.wait_started("same")
        second = ask(work, searches, "hint", "same", "address:b", key=key)  # joins it
        await settled()
        assert work.budgets.level("address:b") == pytest.approx(60.0)  # nothing charged
        searches.finish("same")
        assert await first == await second == "answer of same"
        third = await work.run("hint", searches, "same", seconds=1.0, key=key)
        assert third == "answer of same" and searches.calls["same"] == 1

    scenario(searches, 2, body)


def test_one_leaving_waiter_does_not_stop_a_shared_search(searches: Searches) -> None:
    async def body(work: WorkScheduler, _clock: Clock) -> None:
        key = ("analysis", "match", None)
        gone = asyncio.Event()
        leaving = ask(work, searches, "analysis", "shared", "address:a", key=key,
                      cancel_when=gone.wait())  # fmt: skip
        await searches.wait_started("shared")
        staying = ask(work, searches, "analysis", "shared", "address:b", key=key)
        await settled()
        gone.set()
        with pytest.raises(Abandoned):
            await leaving
        searches.finish("shared")
        assert await staying == "answer of shared"
        assert not searches.stopped["shared"].is_set() and searches.calls["shared"] == 1

    scenario(searches, 2, body)


def test_a_failure_is_not_kept(searches: Searches) -> None:
    calls: list[int] = []

    def broken(_name: str) -> str:
        calls.append(1)
        raise RuntimeError("the worker died")

    async def body(work: WorkScheduler, _clock: Clock) -> None:
        for _ in range(2):
            with pytest.raises(RuntimeError, match="the worker died"):
                await work.run("hint", broken, "x", seconds=1.0, key="k")
        assert len(calls) == 2 and "k" not in work.cache

    scenario(searches, 2, body)


def test_an_abusive_address_does_not_delay_another_players_bot(searches: Searches) -> None:
    """An address fills every background slot and the queue with hints and analyses; another
    player's bot reply still starts while all of that is held in place."""

    async def body(work: WorkScheduler, _clock: Clock) -> None:
        asked = []
        for i in range(20):
            kind: Kind = "hint" if i % 2 else "analysis"
            asked.append(ask(work, searches, kind, f"abuse {i}", "address:abuser"))
            await settled()
        refused = [task for task in asked if task.done()]
        abuse = [task for task in asked if not task.done()]
        assert len(abuse) == 9 and len(refused) == 11  # one searching, eight queued
        assert all(getattr(task.exception(), "code", None) == "server/busy" for task in refused)
        await searches.wait_started("abuse 0")
        await settled()
        assert searches.order == ["abuse 0"]
        bot = ask(work, searches, "live", "bot reply")
        await searches.wait_started("bot reply")  # not one abusive search has ended
        assert not any(task.done() for task in abuse)
        searches.finish("bot reply")
        assert await bot == "answer of bot reply"
        searches.release_all()
        await asyncio.gather(*abuse)

    scenario(searches, 2, body, work_queue=8)
