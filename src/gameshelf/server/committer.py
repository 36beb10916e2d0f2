"""The group committer: changes of many matches written in one transaction each batch, every
one a compare-and-set on its match's version, and each caller answered only once the batch
holding its change is durable."""

from __future__ import annotations

import asyncio

from .store import PendingChange, Store


class GroupCommitter:
    """Writes changes in batches: each caller returns once its batch committed."""

    MAX_BATCH = 512

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: asyncio.Queue[tuple[PendingChange, asyncio.Future[bool]]] | None = None
        self.task: asyncio.Task[None] | None = None

    async def write(self, change: PendingChange) -> bool:
        """Queue ``change`` and wait until its batch committed: True if it was stored, False
        if its match had moved on (a storage error is re-raised)."""
        if self.queue is None or self.task is None or self.task.done():
            self.queue = asyncio.Queue()
            self.task = asyncio.get_running_loop().create_task(self._run(self.queue))
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        await self.queue.put((change, done))
        return await done

    async def _run(self, queue: asyncio.Queue[tuple[PendingChange, asyncio.Future[bool]]]) -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < self.MAX_BATCH:
                batch.append(queue.get_nowait())
            try:
                stored = await asyncio.to_thread(
                    self.store.write_changes, [change for change, _ in batch]
                )
            except Exception as error:
                if len(batch) == 1:  # its waiter learns its change was not stored
                    _settle(batch[0][1], error=error)
                else:  # one change's failure (a game-over hook, say) must not cost the others
                    await self._one_by_one(batch)
                continue
            for (_, done), ok in zip(batch, stored, strict=True):
                _settle(done, ok)

    async def _one_by_one(self, batch: list[tuple[PendingChange, asyncio.Future[bool]]]) -> None:
        """Write a failed batch's changes again, each in its own transaction (the failed one
        rolled back, so nothing of it was stored), so that each waiter hears its own outcome."""
        for change, done in batch:
            try:
                stored = await asyncio.to_thread(self.store.write_changes, [change])
            except Exception as error:
                _settle(done, error=error)
            else:
                _settle(done, stored[0])


def _settle(done: asyncio.Future[bool], ok: bool = False, error: Exception | None = None) -> None:
    """Hand a waiter its change's outcome (unless it stopped waiting)."""
    if done.done():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(ok)
