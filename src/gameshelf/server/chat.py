"""Chat per match (docs/server.md, "Chat"): players write, stored with the match.

Only a connection holding a seat may write; spectators read the chat only where the operator
turned that on (``--chat-spectators 1``). Every message is checked (length, characters) and
rate-limited per connection and seat. Chat frames carry nothing but what players typed, their
seat and display name: no game data, so they are safe in hidden-information games. A player
may mute other seats: their messages are no longer sent to that connection.
"""

from __future__ import annotations

import asyncio
import unicodedata
import weakref
from typing import TYPE_CHECKING

from sqlalchemy import select

from .contract import ChatMessage, ChatMessagesFrame
from .errors import ServerError
from .names import REFUSED_CATEGORIES, shows_something
from .store import ChatRow, as_utc, utcnow

if TYPE_CHECKING:
    from .match import Match
    from .outbox import Client
    from .settings import ServerSettings
    from .store import Store
    from .timing import TimeSource


HISTORY = 100
"""Messages a connection gets when it arrives (the newest)."""


JOINERS = frozenset("\u200c\u200d")
"""Zero-width (non-)joiners: format characters, but they build emoji sequences (a family, a
flag, a skin tone on a profession) and Indic half forms, so chat keeps them between two
characters that are drawn."""


def clean_text(text: str, max_chars: int) -> str:
    """A chat message, normalised (NFC, surrounding space trimmed) and checked: not empty, at
    most ``max_chars`` characters, no control, format (bidi) or private-use characters, except
    a joiner (:data:`JOINERS`) between two other characters that are not spaces."""
    cleaned = unicodedata.normalize("NFC", text).strip()
    if not shows_something(cleaned):  # nothing, or only Hangul fillers, lone marks, blanks...
        raise ServerError("chat/invalid", "a chat message cannot be empty")
    if len(cleaned) > max_chars:
        raise ServerError("chat/invalid", f"chat messages are limited to {max_chars} characters")
    for at, char in enumerate(cleaned):
        if unicodedata.category(char) in REFUSED_CATEGORIES and not _joins(cleaned, at):
            raise ServerError(
                "chat/invalid", f"character U+{ord(char):04X} is not allowed in a chat message"
            )
    return cleaned


def _joins(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a joiner between two characters that are neither spaces nor
    refused themselves."""
    if text[at] not in JOINERS or at == 0 or at == len(text) - 1:
        return False
    return all(
        not neighbour.isspace() and unicodedata.category(neighbour) not in REFUSED_CATEGORIES
        for neighbour in (text[at - 1], text[at + 1])
    )


class ChatRooms:
    """The chat of every match this process holds: rate buckets and each connection's mutes."""

    def __init__(self, store: Store, settings: ServerSettings, clock: TimeSource) -> None:
        self.store = store
        self.settings = settings
        self.time = clock
        self.muted: weakref.WeakKeyDictionary[Client, set[int]] = weakref.WeakKeyDictionary()
        self.buckets: dict[tuple[str, int], tuple[float, float]] = {}

    def may_read(self, client: Client) -> bool:
        """Players read their match's chat; spectators only where the operator allows it."""
        return bool(client.seats) or bool(self.settings.chat_spectators)

    def _take(self, match_id: str, seat: int) -> bool:
        """One message from this seat's bucket (a burst of 3, refilled at the per-minute rate)."""
        rate = self.settings.chat_per_minute / 60.0
        burst = 3.0
        now = self.time.monotonic()
        tokens, stamp = self.buckets.get((match_id, seat), (burst, now))
        tokens = min(burst, tokens + (now - stamp) * rate)
        if tokens < 1:
            self.buckets[(match_id, seat)] = (tokens, now)
            return False
        self.buckets[(match_id, seat)] = (tokens - 1, now)
        if len(self.buckets) > 10_000:  # forget the oldest seats' buckets
            for key in list(self.buckets)[:5_000]:
                del self.buckets[key]
        return True

    async def history(self, match: Match, client: Client) -> None:
        """Send a newly connected client the chat so far (if it may read it and there is any:
        a match without chat costs its connections no extra frame)."""
        if not self.may_read(client) or match.bots_only:
            return
        rows = await asyncio.to_thread(self._load, match.id)
        if not rows:
            return
        messages = [self._message(row) for row in rows]
        client.send(ChatMessagesFrame(type="chat", match=match.id, messages=messages))

    def _load(self, match_id: str) -> list[ChatRow]:
        with self.store.session() as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.match_id == match_id)
                .order_by(ChatRow.id.desc())
                .limit(HISTORY)
            ).all()
            return list(reversed(rows))

    @staticmethod
    def _message(row: ChatRow) -> ChatMessage:
        return ChatMessage(
            seat=row.seat, name=row.name, text=row.text, at=as_utc(row.created).isoformat()
        )

    async def say(self, match: Match, client: Client, seat: int | None, text: str) -> ChatMessage:
        """Store a player's message and send it to every other connection that reads the chat
        and has not muted its seat; returns the message (the sender's answer)."""
        settings = self.settings
        if not client.seats:
            raise ServerError("chat/not-allowed", "spectators cannot write in the chat")
        if seat is None:
            seat = min(client.seats)
        if seat not in client.seats:
            raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")
        cleaned = clean_text(text, settings.chat_max_chars)
        if not self._take(match.id, seat):
            raise ServerError(
                "request/rate-limited",
                f"at most {settings.chat_per_minute:g} chat messages a minute; this one was "
                "not sent",
            )
        name = match.seats[seat].name
        row = await asyncio.to_thread(self._store, match.id, seat, name, cleaned)
        message = self._message(row)
        for other in list(match.clients):
            if (
                other is not client
                and self.may_read(other)
                and seat not in self.muted.get(other, set())
            ):
                other.send(ChatMessagesFrame(type="chat", match=match.id, messages=[message]))
        return message

    def _store(self, match_id: str, seat: int, name: str | None, text: str) -> ChatRow:
        row = ChatRow(match_id=match_id, seat=seat, name=name, text=text, created=utcnow())
        with self.store.session() as session:
            session.add(row)
        return row

    def mute(self, match: Match, client: Client, seats: list[int]) -> list[int]:
        """Set the seats this connection no longer hears (its own cannot be muted)."""
        for seat in seats:
            if not 0 <= seat < len(match.seats):
                raise ServerError(
                    "request/invalid", f"seat {seat} does not exist (0..{len(match.seats) - 1})"
                )
        chosen = set(seats) - client.seats
        self.muted[client] = chosen
        return sorted(chosen)
