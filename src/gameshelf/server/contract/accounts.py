"""Accounts and players: credentials, claims, ratings and players' pages."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .common import (
    STRICT,
    MatchId,
)


# --- accounts and players (docs/server.md, "Accounts, players and ratings") -----------------
class Credentials(BaseModel):
    """A name and password, to register or to log in."""

    model_config = STRICT
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


class AccountInfo(BaseModel):
    """Who this browser is logged in as (``name`` null: a guest)."""

    name: str | None


class SeatProof(BaseModel):
    """A seat a guest's browser holds: the match and the seat's secret token."""

    model_config = STRICT
    match: MatchId
    token: str = Field(max_length=64)


class ClaimRequest(BaseModel):
    """Guest seats to attach to the logged-in account (each proved by its token)."""

    model_config = STRICT
    seats: list[SeatProof] = Field(max_length=200)


class ClaimedSeat(BaseModel):
    """A seat now held by the account."""

    match: str
    seat: int


class ClaimResponse(BaseModel):
    """The seats the claim attached (all those asked for: a claim is all or nothing)."""

    claimed: list[ClaimedSeat]


class PlayerRating(BaseModel):
    """A person's openskill rating for one game and player count."""

    game: str
    players: int
    mu: float
    sigma: float
    rating: float = Field(description="mu - 3 sigma, the number shown")
    games: int = Field(description="rated matches counted")


class PlayerGame(BaseModel):
    """A match one of a player's seats is in."""

    match: str
    game: str
    name: str = Field(description="the registered game: axia, axiom or cage")
    seat: int
    status: Literal["open", "running", "finished", "broken"]
    outcome: Literal["win", "draw", "loss"] | None = Field(description="once finished")
    result_text: str | None
    date: str = Field(description="when the match was created")
    rated: bool
    your_turn: bool = Field(description="running, and this seat is to move")


class PlayerPage(BaseModel):
    """A player's page: ratings per game and player count, games, and games waiting for them."""

    name: str
    created: str
    ratings: list[PlayerRating]
    games: list[PlayerGame] = Field(description="newest first, at most 100")
    your_turn: list[PlayerGame] = Field(description="running games where this player is to move")


class SeatHolder(BaseModel):
    """A seat and the account holding it (null: a guest's or a bot's)."""

    seat: int
    account: str | None


class MatchPlayers(BaseModel):
    """Whether a match is rated and which seats accounts hold."""

    match: str
    rated: bool
    seats: list[SeatHolder]
