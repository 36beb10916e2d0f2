"""The waiting list: the running games in which the asker is to move (docs/server.md).

A guest's browser sends the seat tokens it holds (they never go in a URL); a logged-in player's
seats are found by account as well.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Request

from ..callers import current_account
from ..contract import WaitingGame, WaitingRequest
from ..deps import get_hub
from ..errors import ServerError
from ..hub import Hub
from ..listing import occupant
from ..store import hash_token
from ..store.players import running_seats_of_account, running_seats_of_tokens

router = APIRouter(tags=["matches"])


@router.post("/api/waiting")
async def waiting(
    body: WaitingRequest, request: Request, hub: Annotated[Hub, Depends(get_hub)]
) -> list[WaitingGame]:
    """Running games whose move is yours, by the seat tokens you hold (and your account, when
    logged in), the nearest deadline first."""
    hashes = {(seat.match, hash_token(seat.token)) for seat in body.seats}
    account_seats = await _account_seats(hub, request)
    held = await asyncio.to_thread(running_seats_of_tokens, hub.store, hashes)
    games: list[WaitingGame] = []
    for match_id, seat in sorted(held | account_seats):
        try:
            match = await hub.registry.get(match_id)
        except ServerError:
            continue
        state = match.state
        if match.status != "running" or state.is_terminal() or state.current_player() != seat:
            continue
        clock = match.clock
        deadline = None if clock is None else clock.deadline()
        games.append(
            WaitingGame(
                match=match.id,
                game=match.display,
                seat=seat,
                plies=len(match.movers),
                decisions=match.decisions,
                clock=None if clock is None else clock.control.mode,
                deadline=None if deadline is None else deadline.isoformat(),
                opponents=[
                    occupant(other) or f"player {other.seat + 1}"
                    for other in match.seats
                    if other.seat != seat
                ],
            )
        )
    games.sort(key=lambda g: (g.deadline is None, g.deadline or "", g.match))
    return games


async def _account_seats(hub: Hub, request: Request) -> set[tuple[str, int]]:
    """The seats of running matches held by the logged-in account (none for a guest)."""
    account = await current_account(request)
    if account is None:
        return set()
    return await asyncio.to_thread(running_seats_of_account, hub.store, account.id)
