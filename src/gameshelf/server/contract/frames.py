"""WebSocket frames: what a client sends, and what the server sends back."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .common import (
    TO_MOVE,
    LegalMove,
    RequestId,
    View,
)
from .responses import (
    ClockInfo,
    SeatSummary,
)


# --- WebSocket: client to server -------------------------------------------------------------
class _ClientFrame(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")
    id: RequestId | None = Field(default=None)


class HelloFrame(_ClientFrame):
    """The first frame: the tokens of the seats this connection holds (none: a spectator)."""

    type: Literal["hello"]
    tokens: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=8)


class MoveFrame(_ClientFrame):
    """Play ``move`` (notation) for ``seat`` on top of state ``version``."""

    type: Literal["move"]
    seat: int
    move: str = Field(max_length=256)
    version: int


class UndoFrame(_ClientFrame):
    """Take back ``seat``'s last move (and the bot replies after it)."""

    type: Literal["undo"]
    seat: int
    version: int


class ResignFrame(_ClientFrame):
    """``seat`` gives up now: a voluntary flag (the same result rule; rated: a loss)."""

    type: Literal["resign"]
    seat: int


class SyncFrame(_ClientFrame):
    """Send me the current state again."""

    type: Literal["sync"]


class PingFrame(_ClientFrame):
    """Liveness."""

    type: Literal["ping"]


class ChatFrame(_ClientFrame):
    """Say ``text`` in the match's chat, as ``seat`` (default: the lowest seat held)."""

    type: Literal["chat"]
    text: str = Field(max_length=2000)
    seat: int | None = None


class MuteFrame(_ClientFrame):
    """Stop hearing these seats' chat on this connection (the list replaces the last one)."""

    type: Literal["mute"]
    seats: list[int] = Field(max_length=8)


class RematchOfferFrame(_ClientFrame):
    """``seat`` asks for a rematch of the finished match (``accept`` false withdraws it)."""

    type: Literal["rematch"]
    seat: int
    accept: bool = True


ClientFrame = Annotated[
    HelloFrame
    | MoveFrame
    | UndoFrame
    | ResignFrame
    | SyncFrame
    | PingFrame
    | ChatFrame
    | MuteFrame
    | RematchOfferFrame,
    Field(discriminator="type"),
]


# --- WebSocket: server to client -------------------------------------------------------------
class WelcomeFrame(BaseModel):
    """The answer to a hello: the seats this connection proved it holds."""

    type: Literal["welcome"]
    match: str
    seats: list[int]


class SeatState(BaseModel):
    """What one held seat sees."""

    view: View
    legal_moves: list[str] = Field(description="filled only for the seat to move")
    legal: list[LegalMove] = Field(
        default_factory=list,
        description="the same moves as structures, in the same order (filled only for the seat "
        "to move); a table chooses on their parts and sends back their notation",
    )
    can_undo: bool


class LastMove(BaseModel):
    """The change that led to this state (no notation in hidden-information games)."""

    player: int
    move: str | None = None


class StateFrame(BaseModel):
    """The match as this connection may see it, after every change."""

    type: Literal["state"]
    match: str
    game: str
    version: int
    status: Literal["open", "running", "finished", "broken"]
    to_move: int = Field(description=TO_MOVE)
    plies: int
    decisions: int = Field(default=0, description="the players' moves among the plies (no chance)")
    public: View
    seats: dict[str, SeatState]
    result: list[float] | None
    result_text: str | None
    last_move: LastMove | None = None
    moves: list[str] | None = Field(default=None, description="absent with hidden information")
    ack: RequestId | None = None
    clock: ClockInfo | None = None
    players: list[SeatSummary] | None = Field(
        default=None, description="every seat as everyone may see it (names, bots, taken)"
    )


class PongFrame(BaseModel):
    """The answer to a ping."""

    type: Literal["pong"]
    ack: RequestId | None


class ErrorFrame(BaseModel):
    """A refused frame: nothing changed; ``id`` names the request when it had one."""

    type: Literal["error"]
    code: str
    message: str
    id: RequestId | None = None


class ChatMessage(BaseModel):
    """One chat message: only what a player typed, with their seat and name."""

    seat: int
    name: str | None
    text: str
    at: str


class ChatMessagesFrame(BaseModel):
    """Chat: the history on arrival, then each new message (never any game data)."""

    type: Literal["chat"]
    match: str
    messages: list[ChatMessage]
    ack: RequestId | None = None


class MutedFrame(BaseModel):
    """The seats this connection no longer hears."""

    type: Literal["muted"]
    seats: list[int]
    ack: RequestId | None = None


class RematchFrame(BaseModel):
    """Rematch offers of a finished match, and the new match once every human agreed.

    In the new match the holder of seat ``i`` sits at ``seat_map[i]``, with the same token.
    """

    type: Literal["rematch"]
    match: str
    offers: list[int]
    next: str | None
    seat_map: list[int]
    ack: RequestId | None = None


ServerFrame = Annotated[
    WelcomeFrame
    | StateFrame
    | PongFrame
    | ErrorFrame
    | ChatMessagesFrame
    | MutedFrame
    | RematchFrame,
    Field(discriminator="type"),
]

CLIENT_FRAMES: TypeAdapter[Any] = TypeAdapter(ClientFrame)
SERVER_FRAMES: TypeAdapter[Any] = TypeAdapter(ServerFrame)


def frame_schemas() -> dict[str, Any]:
    """JSON Schemas of the WebSocket frames, keyed for an OpenAPI ``components/schemas``."""
    schemas: dict[str, Any] = {}
    for name, adapter in (("ClientFrame", CLIENT_FRAMES), ("ServerFrame", SERVER_FRAMES)):
        schema = adapter.json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(schema.pop("$defs", {}))
        schemas[name] = schema
    return schemas


# --- structured legal moves -------------------------------------------------------------------
