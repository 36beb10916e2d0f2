"""The plain values the store reads and writes: seats, extras, a stored match, a change to
write, and the small helpers every table shares (UTC times, token hashes)."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..clock import Clock

NOTIFY_CHANNEL = "gameshelf_matches"
SEATS_CHANGED = -1
"""The version sent in a notification that says a seat was taken (the version is unchanged)."""


def utcnow() -> datetime:
    """The current time, timezone-aware UTC (the server's own reads go through its time
    source, :mod:`gameshelf.server.timing`; this one stamps rows)."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` with its timezone: SQLite gives back naive datetimes, stored as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def hash_token(token: str) -> str:
    """The stored form of a seat token (only the hash is kept)."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored`` (constant time)."""
    return stored is not None and hmac.compare_digest(hash_token(token), stored)


@dataclass(frozen=True)
class SeatInfo:
    """A seat as the server keeps it in memory."""

    seat: int
    kind: str
    agent: str | None
    name: str | None
    token_hash: str | None

    @property
    def taken(self) -> bool:
        """Whether the seat is occupied (bots always are)."""
        return self.kind == "bot" or self.token_hash is not None


@dataclass(frozen=True)
class MatchExtras:
    """The private extras of a match (see :class:`MatchExtraRow`)."""

    data_option: str | None = None
    data_name: str | None = None
    data_digest: str | None = None
    data_content: str | None = None
    seed_salt: str | None = None
    seed_chosen_by_client: bool = False


@dataclass(frozen=True)
class StoredMatch:
    """Everything needed to rebuild a match in memory."""

    id: str
    game: str
    seed: int
    status: str
    version: int
    seats: list[SeatInfo]
    moves: list[tuple[int, int, str]]
    created: datetime
    updated: datetime
    extras: MatchExtras
    result: list[float] | None = None
    result_text: str | None = None


@dataclass(frozen=True)
class StoredMove:
    """One move (or chance outcome) as a row: its ply, mover, action id and notation."""

    ply: int
    player: int
    action: int
    notation: str


@dataclass(frozen=True)
class ClockWrite:
    """A clock to store with a change, and the deadline the steward finds it by."""

    clock: Clock
    deadline: datetime | None


@dataclass(frozen=True)
class PendingChange:
    """One change of a match waiting to be written: a compare-and-set from ``version - 1`` to
    ``version`` with the match's new status and result, and what goes with it in the same
    transaction (a move row, the moves an undo removes, the clock, a resignation)."""

    match_id: str
    version: int
    status: str
    result: list[float] | None = None
    result_text: str | None = None
    move: StoredMove | None = None
    remove_from: int | None = None
    """An undo: every move from this ply on is deleted."""
    clock: ClockWrite | None = None
    resigned: int | None = None

    @property
    def finishes(self) -> bool:
        """Whether the change ends the match (its game-over hooks run with it)."""
        return self.status == "finished"
