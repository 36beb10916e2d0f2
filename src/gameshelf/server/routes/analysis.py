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

Both run in the bot pool under the pool's think-time cap (``--bot-move-seconds``) and share
the bots-only matches' background slots, so they cannot crowd out live games; both count
against the per-address replay rate. Each analysis is computed once and kept in memory (a
finished match never changes); concurrent requests for it wait for the same computation.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from ..bots import analyse_match, hint_move
from ..contract import AnalysedMove, AnalysedPly, AnalysisRequest, Hint, MatchAnalysis
from ..deps import MatchIdPath, get_hub, limit_replays
from ..errors import ServerError
from ..hub import Hub, Runtime

log = logging.getLogger("gameshelf.server")
router = APIRouter(tags=["analysis"])
HubDep = Annotated[Hub, Depends(get_hub)]

SECONDS_PER_DECISION = 0.5
"""Search time per decision of an analysis (never more than the pool's think-time cap)."""
TOTAL_SECONDS = 30.0
"""Search time of one whole analysis: long games get less per decision (at least 0.05 s)."""
HINT_SECONDS = 1.0
"""Search time of a hint (never more than the pool's think-time cap)."""
CACHE_SIZE = 128
"""Analyses kept in memory (least recently used dropped first)."""
TOP = 3
"""Best moves kept per decision."""


class AnalysisCache:
    """Finished analyses by (match, seat), and the ones being computed."""

    def __init__(self) -> None:
        self.done: OrderedDict[tuple[str, int | None], MatchAnalysis] = OrderedDict()
        self.running: dict[tuple[str, int | None], asyncio.Task[MatchAnalysis]] = {}

    def get(self, key: tuple[str, int | None]) -> MatchAnalysis | None:
        """A finished analysis, marked as recently used."""
        found = self.done.get(key)
        if found is not None:
            self.done.move_to_end(key)
        return found

    def put(self, key: tuple[str, int | None], analysis: MatchAnalysis) -> None:
        """Keep an analysis, dropping the least recently used past :data:`CACHE_SIZE`."""
        self.done[key] = analysis
        self.done.move_to_end(key)
        while len(self.done) > CACHE_SIZE:
            self.done.popitem(last=False)


def _cache(request: Request) -> AnalysisCache:
    cache: AnalysisCache | None = getattr(request.app.state, "analysis_cache", None)
    if cache is None:
        cache = AnalysisCache()
        request.app.state.analysis_cache = cache
    return cache


def _seconds(hub: Hub, wanted: float) -> float:
    return max(0.05, min(wanted, hub.settings.bot_move_seconds))


async def _analysis(request: Request, hub: Hub, match_id: str, seat: int | None) -> MatchAnalysis:
    runtime = await hub.current(match_id)
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
    key = (runtime.id, seat if hidden else None)
    cache = _cache(request)
    analysis = cache.get(key)
    if analysis is None:
        task = cache.running.get(key)
        if task is None:
            task = asyncio.create_task(_compute(hub, runtime, key[1]))
            cache.running[key] = task
            task.add_done_callback(lambda _: cache.running.pop(key, None))
        analysis = await asyncio.shield(task)
        cache.put(key, analysis)
    if seat is not None and not hidden:
        plies = [p for p in analysis.plies if p.mover == seat]
        analysis = analysis.model_copy(update={"seat": seat, "plies": plies})
    return analysis


async def _compute(hub: Hub, runtime: Runtime, seat: int | None) -> MatchAnalysis:
    """Run the analysis in the bot pool (in a background slot)."""
    history = list(runtime.state.history())
    decisions = sum(1 for mover in runtime.movers if mover >= 0 and seat in (None, mover))
    per = _seconds(hub, min(SECONDS_PER_DECISION, TOTAL_SECONDS / max(1, decisions)))
    game_blob = pickle.dumps(runtime.game)
    loop = asyncio.get_running_loop()
    async with hub.background_slots:
        try:
            rows: list[dict[str, Any]] = await loop.run_in_executor(
                hub.executor, analyse_match, game_blob, runtime.seed, history, per, seat, TOP
            )
        except Exception:  # a failed worker must not surface as a bare 500 (nor be cached)
            log.exception("analysis of match %s failed", runtime.id)
            raise ServerError(
                "server/unavailable", "the analysis failed; try again later"
            ) from None
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
    runtime = await hub.current(match_id)
    (seat,) = hub.seats_of_tokens(runtime, [body.token])
    return await _analysis(request, hub, match_id, seat)


def hint_refusal(runtime: Runtime, seat: int) -> str | None:
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
async def hint(match_id: MatchIdPath, body: AnalysisRequest, hub: HubDep) -> Hint:
    """The best move for the token's seat: on its turn, in a game against bots only."""
    runtime = await hub.current(match_id)
    (seat,) = hub.seats_of_tokens(runtime, [body.token])
    async with runtime.lock:
        refusal = hint_refusal(runtime, seat)
        if refusal is not None:
            code = "move/not-your-turn" if refusal.endswith("your turn") else "hint/not-allowed"
            raise ServerError(code, refusal)
        snapshot = pickle.dumps(runtime.state)
        ply = len(runtime.state.history())
    loop = asyncio.get_running_loop()
    try:
        best = await loop.run_in_executor(
            hub.executor, hint_move, snapshot, runtime.seed + ply, _seconds(hub, HINT_SECONDS)
        )
    except Exception:
        log.exception("hint in match %s failed", runtime.id)
        raise ServerError("server/unavailable", "no hint now; try again later") from None
    return Hint(match=runtime.id, seat=seat, ply=ply, best=AnalysedMove(**best))
