"""What people read about a match beyond its row: its seats by name, whether it is rated, its
time control, and result words that name the players instead of their seats.

The engine words a result by role ("black wins (capture)", "player 2 wins"); the server knows
who sat there, so every result text it sends goes through :func:`named_result` once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import select

from gameshelf.core.registry import load

from .store import ClockRow, RatedMatchRow, SeatInfo, SeatRow, Store


def occupant(seat: SeatInfo) -> str | None:
    """Who sits in ``seat`` in words: the player's name, ``bot NAME``, or None (free or unnamed)."""
    if seat.kind == "bot":
        return f"bot {seat.agent}" if seat.agent else "bot"
    return seat.name or None


def seat_summary(seat: SeatInfo) -> dict[str, Any]:
    """A seat as everyone may see it (``contract.SeatSummary``)."""
    return {
        "seat": seat.seat,
        "kind": seat.kind,
        "agent": seat.agent,
        "name": seat.name,
        "label": f"bot: {seat.agent}" if seat.kind == "bot" else (seat.name or None),
        "taken": seat.taken,
    }


def named_result(text: str, roles: Sequence[str], seats: Sequence[SeatInfo]) -> str:
    """``text`` with each occupied seat's name put before its role: ``black wins (capture)``
    becomes ``paula (black) wins (capture)``. ``roles[i]`` is the engine's word for seat i."""
    names = {}
    for role, seat in zip(roles, seats, strict=False):
        who = occupant(seat)
        if who is not None and who != role:
            names[role] = who
    if not names:
        return text
    # One pass, longest role first, so a name put in is never looked at again.
    alternatives = "|".join(re.escape(role) for role in sorted(names, key=len, reverse=True))
    return re.sub(rf"\b({alternatives})\b", lambda m: f"{names[m.group(1)]} ({m.group(1)})", text)


@lru_cache(maxsize=32)
def _roles(registered: str, count: int) -> tuple[str, ...]:
    state = load(registered).new_initial_state()
    return tuple(state.describe_player(player) for player in range(count))


def roles_of(game_string: str, count: int) -> tuple[str, ...]:
    """The engine's words for seats ``0..count-1`` of a game string's game (its registered
    name decides them; the options never do)."""
    return _roles(game_string.split("(", 1)[0].strip().lower(), count)


def list_details(store: Store, match_ids: list[str]) -> dict[str, dict[str, Any]]:
    """For each match: its seats (``SeatInfo``), ``rated`` and ``time_control`` (or None), read
    in three queries whatever the list's length (blocking: call it from a worker thread)."""
    details: dict[str, dict[str, Any]] = {
        match: {"seats": [], "rated": False, "time_control": None} for match in match_ids
    }
    if not match_ids:
        return details
    with store.session() as session:
        seat_rows = session.scalars(
            select(SeatRow).where(SeatRow.match_id.in_(match_ids)).order_by(SeatRow.seat)
        )
        for row in seat_rows:
            details[row.match_id]["seats"].append(
                SeatInfo(row.seat, row.kind, row.agent, row.name, row.token_hash)
            )
        rated = session.scalars(
            select(RatedMatchRow.match_id).where(RatedMatchRow.match_id.in_(match_ids))
        )
        for match in rated:
            details[match]["rated"] = True
        for clock in session.scalars(select(ClockRow).where(ClockRow.match_id.in_(match_ids))):
            details[clock.match_id]["time_control"] = {
                "mode": clock.mode,
                "initial_ms": clock.initial_ms,
                "increment_ms": clock.increment_ms,
                "per_move_ms": clock.per_move_ms,
            }
    return details
