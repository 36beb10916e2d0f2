"""The analysis board on the server: a finished match's analysis, and a hint against bots.

* ``GET /api/matches/{id}/analysis[?seat=S]`` — every decision of a **finished** match: the best
  moves with values and principal variations, the move played and what it lost. Perfect-
  information games are analysed once for the whole game (``seat`` only filters). AXIA is
  analysed per seat, each from that seat's own view (IS-MCTS never reads another seat's cards),
  so ``seat`` is required there; since every seat's view is public once the game is over (see
  the replay's ``all_seats``), a spectator may ask for any seat.
* ``POST /api/matches/{id}/analysis`` with ``{"token": ...}`` — the same for the token's seat.
* ``POST /api/matches/{id}/hint`` with ``{"token": ...}`` — the best move for that seat, now:
  only on its turn, only in a running match where every other seat is a bot.

Both are requests to the work scheduler (:mod:`gameshelf.server.work`): background priority
below every bot's reply to a person, charged in seconds of search to the caller's address (and
account, when logged in), refused when that budget or the scheduler's queue is spent, dropped or
stopped in their worker when the caller hangs up, and kept once computed: an analysis for as
long as the scheduler's cache holds it (a finished match never changes), a hint for the same
position and search time. Both also count against the per-address replay rate.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from ..bots import analyse_match, hint_move
from ..callers import current_account
from ..contract import AnalysedMove, AnalysedPly, AnalysisRequest, Hint, MatchAnalysis
from ..deps import MatchIdPath, client_address, get_hub, limit_replays
from ..errors import ServerError
from ..hub import Hub
from ..live import seats_of_tokens
from ..match import Match
from ..work import Kind, scheduler_for

log = logging.getLogger("gameshelf.server")
router = APIRouter(tags=["analysis"])
HubDep = Annotated[Hub, Depends(get_hub)]

SECONDS_PER_DECISION = 0.5
"""Search time per decision of an analysis (never more than the pool's think-time cap)."""
TOTAL_SECONDS = 30.0
"""Search time of one whole analysis: long games get less per decision (at least 0.05 s)."""
HINT_SECONDS = 1.0
"""Search time of a hint (never more than the pool's think-time cap)."""
TOP = 3
"""Best moves kept per decision."""


def _seconds(hub: Hub, wanted: float) -> float:
    return max(0.05, min(wanted, hub.settings.bot_move_seconds))


async def owners(request: Request) -> tuple[str, ...]:
    """Whose search budget a request spends: its address, and its account when logged in
    (so neither many addresses on one account nor many accounts on one address get more)."""
    address = f"address:{client_address(request)}"
    account = await current_account(request)
    return (address,) if account is None else (address, f"account:{account.id}")


async def hung_up(request: Request) -> None:
    """Return once the HTTP client has gone (the request's body is already read by then)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _request(
    request: Request,
    hub: Hub,
    kind: Kind,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    seconds: float,
    key: tuple[Any, ...],
    failure: str,
) -> Any:
    """Run a hint's or an analysis's search through the work scheduler for this request;
    refusals pass through, a failed worker becomes ``server/unavailable`` (nothing kept)."""
    try:
        return await scheduler_for(hub).run(
            kind,
            fn,
            *args,
            seconds=seconds,
            owners=await owners(request),
            key=key,
            cancel_when=hung_up(request),
        )
    except ServerError:
        raise
    except Exception:  # a failed worker must not surface as a bare 500
        log.exception("%s failed (%s)", kind, key[1])
        raise ServerError("server/unavailable", failure) from None


async def _analysis(request: Request, hub: Hub, match_id: str, seat: int | None) -> MatchAnalysis:
    runtime = await hub.sync.current(match_id)
    if runtime.status != "finished":
        raise ServerError(
            "match/not-finished", "a match is analysed once it is over (ask for a hint meanwhile)"
        )
    players = len(runtime.seats)
    if seat is not None and not 0 <= seat < players:
        raise ServerError(
            "request/invalid", f"seat must be between 0 and {players - 1}, not {seat}"
        )
    hidden = runtime.game.spec.hidden_information
    if hidden and seat is None:
        raise ServerError(
            "request/invalid",
            "hidden cards: this game is analysed one seat at a time, from that seat's view; "
            "add ?seat=N (or POST a seat token)",
        )
    analysed = seat if hidden else None  # perfect information: once for every seat
    analysis = await _compute(request, hub, runtime, analysed)
    if seat is not None and not hidden:
        plies = [p for p in analysis.plies if p.mover == seat]
        analysis = analysis.model_copy(update={"seat": seat, "plies": plies})
    return analysis


async def _compute(request: Request, hub: Hub, runtime: Match, seat: int | None) -> MatchAnalysis:
    """The analysis of the whole match (or of ``seat``'s decisions), computed once."""
    history = list(runtime.state.history())
    decisions = sum(1 for mover in runtime.movers if mover >= 0 and seat in (None, mover))
    per = _seconds(hub, min(SECONDS_PER_DECISION, TOTAL_SECONDS / max(1, decisions)))
    args = (pickle.dumps(runtime.game), runtime.seed, history, per, seat, TOP)
    key = ("analysis", runtime.id, seat, per)
    failure = "the analysis failed; try again later"
    rows: list[dict[str, Any]] = await _request(
        request, hub, "analysis", analyse_match, args, per * max(1, decisions), key, failure
    )
    return MatchAnalysis(
        match=runtime.id,
        game=runtime.display,
        seat=seat,
        seconds_per_ply=round(per, 3),
        plies=[AnalysedPly(**row) for row in rows],
    )


@router.get("/api/matches/{match_id}/analysis", dependencies=[Depends(limit_replays)])
async def match_analysis(
    match_id: MatchIdPath,
    request: Request,
    hub: HubDep,
    seat: Annotated[int | None, Query(ge=0, le=7)] = None,
) -> MatchAnalysis:
    """The analysis of a finished match (required ``seat`` for hidden-card games)."""
    return await _analysis(request, hub, match_id, seat)


@router.post("/api/matches/{match_id}/analysis", dependencies=[Depends(limit_replays)])
async def seat_analysis(
    match_id: MatchIdPath, body: AnalysisRequest, request: Request, hub: HubDep
) -> MatchAnalysis:
    """The analysis of a finished match for the seat of the given token."""
    runtime = await hub.sync.current(match_id)
    (seat,) = seats_of_tokens(runtime, [body.token])
    return await _analysis(request, hub, match_id, seat)


def hint_refusal(runtime: Match, seat: int) -> str | None:
    """Why seat ``seat`` may not have a hint now (``None``: it may)."""
    if runtime.rated and runtime.status != "finished":
        return "no hints in a rated match while it runs"
    others = [s for s in runtime.seats if s.seat != seat]
    if not others or any(s.kind != "bot" for s in others):
        return "hints are given only in games against bots (every other seat a bot)"
    if runtime.status != "running" or runtime.state.is_terminal():
        return "hints are given only while the game is running"
    if runtime.state.current_player() != seat:
        return "a hint is given only on your turn"
    return None


@router.post("/api/matches/{match_id}/hint", dependencies=[Depends(limit_replays)])
async def hint(match_id: MatchIdPath, body: AnalysisRequest, request: Request, hub: HubDep) -> Hint:
    """The best move for the token's seat: on its turn, in a game against bots only."""
    runtime = await hub.sync.current(match_id)
    (seat,) = seats_of_tokens(runtime, [body.token])
    async with runtime.lock:
        refusal = hint_refusal(runtime, seat)
        if refusal is not None:
            code = "move/not-your-turn" if refusal.endswith("your turn") else "hint/not-allowed"
            raise ServerError(code, refusal)
        snapshot = pickle.dumps(runtime.state)
        ply = len(runtime.state.history())
    seconds = _seconds(hub, HINT_SECONDS)
    # the same position at the same search time is the same question, whoever asks it
    key = ("hint", hashlib.sha256(snapshot).hexdigest(), seconds)
    args = (snapshot, runtime.seed + ply, seconds)
    failure = "no hint now; try again later"
    best = await _request(request, hub, "hint", hint_move, args, seconds, key, failure)
    return Hint(match=runtime.id, seat=seat, ply=ply, best=AnalysedMove(**best))
