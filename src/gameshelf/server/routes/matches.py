"""Matches: create, list, look at, join, records, replays and their game data."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request

from .. import frames, rated
from ..clock import TimeControl
from ..contract import (
    CreateMatchRequest,
    JoinRequest,
    JoinResponse,
    MatchData,
    MatchListItem,
    MatchRecord,
    MatchSummary,
    Replay,
    ReplayRequest,
    SeatSummary,
)
from ..deps import MatchIdPath, get_hub, limit_creates, limit_joins, limit_replays
from ..hub import Hub
from ..listing import list_details, named_result, roles_of, seat_summary
from ..live import seats_of_tokens
from ..names import normalise_name
from ..store import as_utc, utcnow

router = APIRouter(tags=["matches"])


HubDep = Annotated[Hub, Depends(get_hub)]


@router.post("/api/matches", status_code=201, dependencies=[Depends(limit_creates)])
async def create_match(body: CreateMatchRequest, hub: HubDep, request: Request) -> MatchSummary:
    """Create a match from a game string and seats (default: you against random bots)."""
    seats = None if body.seats is None else [s.model_dump() for s in body.seats]
    if body.rated:  # accounts only, only bots with a published rating, always a clock
        await rated.before_create(request, body.game, seats, body.seed)
        body.clock = body.clock or rated.RATED_DEFAULT_CLOCK
    control = None if body.clock is None else TimeControl.of_request(body.clock)
    if body.rated and control is not None:
        rated.check_rated_bank(control, hub.settings.rated_min_bank_seconds)
    match = await hub.lobby.create_match(body.game, seats, body.seed, time_control=control)
    if body.rated:
        await rated.after_create(request, match.id)
        hub.registry.mark_rated(match)  # nobody can have joined yet: no clock has started
    return frames.summary(match, hub.time.now())


@router.get("/api/matches")
async def list_matches(
    hub: HubDep,
    status: Literal["open", "running", "finished", "broken"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    idle_max: Annotated[float | None, Query(gt=0, le=10**9)] = None,
) -> list[MatchListItem]:
    """Matches, newest first: open (seats free), running, finished (or set-aside ``broken``).

    ``idle_max`` (seconds) leaves out open and running matches idle longer than that.
    """
    idle_before = None if idle_max is None else utcnow() - timedelta(seconds=idle_max)
    rows = await asyncio.to_thread(hub.store.list_matches, status, limit, idle_before)
    details = await asyncio.to_thread(list_details, hub.store, [row.id for row in rows])
    now = utcnow()
    items = []
    for row in rows:
        updated = as_utc(row.updated or row.created)
        seats = details[row.id]["seats"]
        text = row.result_text
        if text and row.result_text:  # the stored words name seats by role
            text = named_result(text, roles_of(row.game, len(seats)), seats)
        items.append(
            MatchListItem(
                id=row.id,
                game=row.game,
                status=row.status,  # type: ignore[arg-type]
                version=row.version,
                created=as_utc(row.created).isoformat(),
                updated=updated.isoformat(),
                idle_seconds=round((now - updated).total_seconds(), 1),
                result=row.result,
                result_text=text,
                seats=[SeatSummary(**seat_summary(seat)) for seat in seats],
                rated=details[row.id]["rated"],
                time_control=details[row.id]["time_control"],
            )
        )
    return items


@router.get("/api/matches/{match_id}")
async def get_match(match_id: MatchIdPath, hub: HubDep, request: Request) -> MatchSummary:
    """Public facts of one match (seats, status, result; the seed's commitment, and the
    seed itself once the game is over)."""
    match = await hub.sync.current(match_id)
    return frames.summary(match, hub.time.now())


@router.post("/api/matches/{match_id}/join", dependencies=[Depends(limit_joins)])
async def join(
    match_id: MatchIdPath, body: JoinRequest, hub: HubDep, request: Request
) -> JoinResponse:
    """Take a free seat; the answer holds the seat's secret token (keep it private)."""
    name = normalise_name(body.name)
    match = await hub.registry.get(match_id)
    # One join at a time per match: checked apart from the seat's link, two tabs of one
    # account both passed the one-seat check of a rated match and took two seats.
    async with match.joining:
        account = await rated.before_join(request, match_id, name)  # None: a guest
        name = name if account is None else account.name
        seat, token = await hub.round.join(match_id, body.seat, name)
        await rated.after_join(request, match_id, seat, account)
    return JoinResponse(match=match_id, seat=seat, token=token)


@router.get("/api/matches/{match_id}/record")
async def record(match_id: MatchIdPath, hub: HubDep) -> MatchRecord:
    """The game record of a finished match (JSON, replayable with `gameshelf replay`)."""
    match = await hub.sync.current(match_id)
    finished = await asyncio.to_thread(hub.store.finished_at, match_id)
    body = frames.record(match, finished).to_json()
    body["seed_commitment"] = match.commitment
    body["seed_salt"] = match.extras.seed_salt
    return MatchRecord(**body)


async def _replay(hub: Hub, match_id: str, tokens: list[str], all_seats: bool) -> Replay:
    match = await hub.sync.current(match_id)
    seats = seats_of_tokens(match, tokens)
    frames.check_replay(match, all_seats)
    plies = await asyncio.to_thread(frames.replay_frames, match, seats, all_seats)
    return Replay(match=match.id, game=match.display, status=match.status.value, frames=plies)


@router.get("/api/matches/{match_id}/replay", dependencies=[Depends(limit_replays)])
async def public_replay(match_id: MatchIdPath, hub: HubDep, all_seats: bool = False) -> Replay:
    """Every ply's public view (and, once the game is over, with ``all_seats=true``, every
    seat's view), computed by the engine: what a replay draws."""
    return await _replay(hub, match_id, [], all_seats)


@router.post("/api/matches/{match_id}/replay", dependencies=[Depends(limit_replays)])
async def seat_replay(match_id: MatchIdPath, body: ReplayRequest, hub: HubDep) -> Replay:
    """Like the GET, plus the views of the seats whose tokens are given (a player's own
    hidden cards in their own replay)."""
    return await _replay(hub, match_id, body.tokens, body.all_seats)


@router.get("/api/matches/{match_id}/data")
async def match_data(match_id: MatchIdPath, hub: HubDep) -> MatchData:
    """Game data the match's views refer to (AXIA: the card set it was created with)."""
    return frames.match_data(await hub.registry.get(match_id))
