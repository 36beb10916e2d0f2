"""Players: the page of an account (games, ratings, games waiting for them) and who holds
which seat of a match."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Path
from fastapi.responses import FileResponse, HTMLResponse

from ..accounts import AccountStore
from ..callers import get_accounts
from ..contract import MatchPlayers, PlayerGame, PlayerPage, PlayerRating, SeatHolder
from ..deps import MatchIdPath, get_hub
from ..errors import ServerError
from ..hub import Hub
from ..ratings import game_of, ordinal
from ..store.players import player_rows
from .pages import index

router = APIRouter(tags=["players"])
GAMES_SHOWN = 100
NameParam = Annotated[str, Path(max_length=64)]


def outcome(result: list[float] | None, seat: int) -> str | None:
    """``win``, ``draw`` or ``loss`` of ``seat`` (the arena's rule: best and not all equal is a
    win, all equal a draw, anyone better a loss); None before the end."""
    if not result or seat >= len(result):
        return None
    mine = result[seat]
    if all(r == mine for r in result):
        return "draw"
    return "loss" if any(r > mine for r in result) else "win"


async def _to_move(hub: Hub, match_id: str) -> int | None:
    """The seat to move in a running match (None if it cannot be loaded)."""
    try:
        match = await hub.registry.get(match_id)
    except ServerError:
        return None
    if match.status != "running":
        return None
    player: int = match.state.current_player()
    return player


@router.get("/api/players/{name}")
async def player(
    name: NameParam,
    hub: Annotated[Hub, Depends(get_hub)],
    accounts: Annotated[AccountStore, Depends(get_accounts)],
) -> PlayerPage:
    """A player's page: ratings per game and player count, newest games first, and the
    running games where it is their turn."""
    account = await asyncio.to_thread(accounts.find, name)
    found = None
    if account is not None:
        found = await asyncio.to_thread(player_rows, accounts.store, account.id, GAMES_SHOWN)
    if found is None:
        raise ServerError("player/not-found", f"no player called {name[:64]!r}")
    display, created, ratings, held = found
    games = []
    for item in held:
        to_move = await _to_move(hub, item.match_id) if item.status == "running" else None
        games.append(
            PlayerGame(
                match=item.match_id,
                game=item.game,
                name=game_of(item.game),
                seat=item.seat,
                status=item.status,  # type: ignore[arg-type]
                outcome=outcome(item.result, item.seat) if item.status == "finished" else None,  # type: ignore[arg-type]
                result_text=item.result_text,
                date=item.created,
                rated=item.rated,
                your_turn=to_move == item.seat,
            )
        )
    return PlayerPage(
        name=display,
        created=created,
        ratings=[
            PlayerRating(
                game=r.game,
                players=r.players,
                mu=r.mu,
                sigma=r.sigma,
                rating=ordinal(r.mu, r.sigma),
                games=r.games,
            )
            for r in ratings
        ],
        games=games,
        your_turn=[g for g in games if g.your_turn],
    )


@router.get("/api/matches/{match_id}/players")
async def match_players(
    match_id: MatchIdPath,
    hub: Annotated[Hub, Depends(get_hub)],
    accounts: Annotated[AccountStore, Depends(get_accounts)],
) -> MatchPlayers:
    """Whether a match is rated and which of its seats accounts hold."""
    match = await hub.registry.get(match_id)
    holders, rated = await asyncio.to_thread(_holders, accounts, match_id)
    return MatchPlayers(
        match=match_id,
        rated=rated,
        seats=[SeatHolder(seat=s.seat, account=holders.get(s.seat)) for s in match.seats],
    )


def _holders(accounts: AccountStore, match_id: str) -> tuple[dict[int, str], bool]:
    holders = {seat: account.name for seat, account in accounts.seat_holders(match_id).items()}
    return holders, accounts.is_rated(match_id)


@router.get("/players/{name}", response_model=None, include_in_schema=False)
async def player_page(name: NameParam) -> FileResponse | HTMLResponse:
    """The player page is drawn by the browser table (its single page)."""
    return await index()
