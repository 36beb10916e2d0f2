"""A live connection's side the server writes to: the seats it proved and a bounded outbox.

Nothing the server does waits on a client: :meth:`Client.offer` queues a frame or, when the
queue is full, marks the client too slow (the connection's handler then closes it).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel


@dataclass(eq=False)
class Client:
    """A connection: the seats it proved it holds (none for a spectator) and its outbox."""

    queue_size: int = 64
    address: str = ""
    seats: set[int] = field(default_factory=set)
    outbox: asyncio.Queue[dict[str, Any]] = field(init=False)
    overflowed: asyncio.Event = field(init=False, default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.outbox = asyncio.Queue(maxsize=self.queue_size)

    def send(self, frame: BaseModel) -> bool:
        """Queue a contract frame (only the fields it was built with go on the wire)."""
        return self.offer(frame.model_dump(mode="json", exclude_unset=True))

    def offer(self, message: dict[str, Any]) -> bool:
        """Queue ``message``; False (and the client marked too slow) if its queue is full."""
        if self.overflowed.is_set():
            return False
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed.set()
            return False
        return True
