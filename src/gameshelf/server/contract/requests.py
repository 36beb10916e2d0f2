"""HTTP request bodies: create, join, replay, waiting games."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator
from pydantic_core import PydanticCustomError

from .common import (
    STRICT,
    MatchId,
)


# --- HTTP requests ---------------------------------------------------------------------------
class SeatRequest(BaseModel):
    """A seat of a new match: a human (joins later) or a bot by name."""

    model_config = STRICT
    kind: Literal["human", "bot"]
    agent: str | None = Field(default=None, max_length=32)
    think_seconds: float | None = Field(
        default=None,
        description="a bot's time per move in seconds (default: its level's own), at most the "
        "server's bot think-time limit; refused with agent/bad-think-time outside 0.01..limit",
    )


MIN_MINUTES = 1 / 60
"""The shortest real-time bank: one second (a bank that rounds to 0 ms flags its first mover
the moment the game starts)."""
MIN_INCREMENT_SECONDS = 0.1
"""The smallest increment other than none: a tenth of a second (less is nothing to a person,
and under a millisecond it would be stored as no increment at all)."""
MIN_DAYS = 1 / 24
"""The shortest correspondence time per move: one hour."""


class TimeControlRequest(BaseModel):
    """A match's clock: real-time (``minutes`` each plus ``increment_seconds`` a move) or
    correspondence (``days`` per move). Only human seats have clocks."""

    model_config = STRICT
    mode: Literal["realtime", "correspondence"]
    minutes: float = Field(
        default=5.0,
        le=180,
        json_schema_extra={"minimum": MIN_MINUTES},
        description="each seat's bank: 1/60 (one second) to 180",
    )
    increment_seconds: float = Field(
        default=0.0,
        ge=0,
        le=60,
        description="added after each move: 0 (none), or 0.1 to 60",
    )
    days: float = Field(
        default=3.0,
        le=30,
        json_schema_extra={"minimum": MIN_DAYS},
        description="time per move: 1/24 (one hour) to 30",
    )

    @field_validator("minutes")
    @classmethod
    def _bank_at_least_one_second(cls, value: float) -> float:
        if not value >= MIN_MINUTES:
            raise PydanticCustomError(
                "clock_too_short",
                "Input should be at least 1/60 (one second): a shorter clock would flag its "
                "first mover as soon as the game starts",
            )
        return value

    @field_validator("increment_seconds")
    @classmethod
    def _increment_none_or_noticeable(cls, value: float) -> float:
        if 0 < value < MIN_INCREMENT_SECONDS:
            raise PydanticCustomError(
                "clock_too_short",
                "Input should be 0 (no increment) or at least 0.1 (a tenth of a second)",
            )
        return value

    @field_validator("days")
    @classmethod
    def _move_at_least_one_hour(cls, value: float) -> float:
        if not value >= MIN_DAYS:
            raise PydanticCustomError(
                "clock_too_short",
                "Input should be at least 1/24 (one hour per move): a shorter one would flag "
                "its first mover as soon as the game starts",
            )
        return value


class CreateMatchRequest(BaseModel):
    """A new match: a game string, its seats and an optional seed.

    A seed may be given only where nobody else can be hurt by it (no chance, or one human
    seat); otherwise the server draws a secret one and publishes its commitment.
    """

    model_config = STRICT
    game: str = Field(
        max_length=512,
        description="a game string: the name of a game of GET /api/games, with its options "
        "in parentheses if any (NAME or NAME(key=value,...))",
    )
    seats: list[SeatRequest] | None = Field(default=None, max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    rated: bool = Field(
        default=False,
        description="rated: only accounts may join its human seats (you must be logged in)",
    )
    clock: TimeControlRequest | None = Field(default=None, description="none: no clock")


class JoinRequest(BaseModel):
    """Join a match: a seat number (the first free one if omitted) and a display name."""

    model_config = STRICT
    seat: int | None = Field(default=None, ge=0, lt=8)
    name: str | None = Field(default=None, max_length=64)


class ReplayRequest(BaseModel):
    """Seat tokens whose views a replay should include, and whether to show every seat."""

    model_config = STRICT
    tokens: list[str] = Field(default_factory=list, max_length=8)
    all_seats: bool = False


class HeldSeat(BaseModel):
    """A seat this browser holds: the match and the seat's secret token."""

    model_config = STRICT
    match: MatchId
    token: str = Field(max_length=64)


class WaitingRequest(BaseModel):
    """The seats a browser holds, to learn in which games it is to move."""

    model_config = STRICT
    seats: list[HeldSeat] = Field(default_factory=list, max_length=200)
