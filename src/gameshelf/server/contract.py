"""The wire contract: every HTTP body and every WebSocket frame, as pydantic models.

One source for both sides: the routes declare these as request and response models (so
``/openapi.json`` describes every answer), the WebSocket handler validates incoming frames
against :data:`ClientFrame`, and ``scripts/gen-contract.sh`` writes ``web/src/generated/`` from
them (the OpenAPI document, with the WebSocket frames added as components, and the TypeScript
types made from it by ``openapi-typescript``); a test fails when the generated files are stale.

Views (``view``, ``public``) are the engines' own structured views, documented per game; the
contract types them as JSON objects.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator
from pydantic_core import PydanticCustomError

from gameshelf.core.registry import GameFacts

STRICT = ConfigDict(strict=True, extra="forbid")
RequestId = Annotated[str | int, Field(description="the client's request id, echoed back")]
View = dict[str, Any]
MATCH_ID_PATTERN = "^[0-9a-f]{16}$"
"""The shape of every match id the server hands out (``secrets.token_hex(8)``)."""
MatchId = Annotated[
    str, Field(pattern=MATCH_ID_PATTERN, description="a match id: 16 lowercase hex digits")
]


def is_match_id(text: str) -> bool:
    """Whether ``text`` has the shape of a match id: anything else names no match, and is
    refused before it reaches a lock or the database (PostgreSQL refuses a NUL in text)."""
    return re.fullmatch(MATCH_ID_PATTERN, text) is not None


TO_MOVE = (
    "the seat to move, -1 while chance is to act; -4 once the match is finished, whatever "
    "ended it (the board, a flag or a resignation)"
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
    game: str = Field(max_length=512, examples=["cage(players=2)"])
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


# --- HTTP responses --------------------------------------------------------------------------
class ErrorDetail(BaseModel):
    """A refusal: a stable code (docs/server.md) and a sentence for people."""

    code: str
    message: str


class ErrorResponse(BaseModel):
    """The body of every refused HTTP request."""

    error: ErrorDetail


class Health(BaseModel):
    """Liveness."""

    status: Literal["ok"]
    version: str
    matches_in_memory: int
    matches_owned: int | None = Field(
        description="matches whose bots this process drives (several processes); else null"
    )


class OptionInfo(BaseModel):
    """One option of a game."""

    name: str
    default: str
    allowed: str
    doc: str
    choices: list[str] | None


class NotationExampleInfo(BaseModel):
    """One move in a game's notation and what it does."""

    text: str
    meaning: str


class RulesSectionInfo(BaseModel):
    """One titled part of a game's rules summary."""

    title: str
    items: list[str]


class GameFactsInfo(BaseModel):
    """What people are told about a configured game, from its registry entry: the title,
    the seats' names, notation examples and a rules summary for the game's options."""

    title: str
    seats: list[str] = Field(description="each seat's name, by seat index")
    notation: list[NotationExampleInfo]
    rules: list[RulesSectionInfo]

    @classmethod
    def of(cls, facts: GameFacts) -> GameFactsInfo:
        """The wire form of the registry's facts."""
        return cls(
            title=facts.title,
            seats=list(facts.seats),
            notation=[NotationExampleInfo(text=n.text, meaning=n.meaning) for n in facts.notation],
            rules=[RulesSectionInfo(title=r.title, items=list(r.items)) for r in facts.rules],
        )


class GameInfo(BaseModel):
    """A game and its options, with its facts at the default options."""

    name: str
    title: str
    summary: str
    options: list[OptionInfo]
    facts: GameFactsInfo


class AgentInfo(BaseModel):
    """A bot that can take a seat."""

    name: str
    strength: int = Field(description="higher plays better; the list is sorted by it")
    summary: str
    level: bool = Field(
        default=False,
        description="one of the named levels a player picks from (random to expert); the "
        "others are variants and trials for research",
    )


class SeatSummary(BaseModel):
    """A seat as everyone may see it."""

    seat: int
    kind: Literal["human", "bot"]
    agent: str | None
    name: str | None
    label: str | None = Field(description="what to show: the name, or 'bot: NAME' for bots")
    taken: bool


class TimeControlInfo(BaseModel):
    """A match's time control: a real-time bank and increment, or a time for each move."""

    mode: Literal["realtime", "correspondence"]
    initial_ms: int
    increment_ms: int
    per_move_ms: int = Field(description="correspondence: the time for each move")


class ClockInfo(TimeControlInfo):
    """A match's clock as the server has it at ``server_time``: each seat's time left (null
    for bots, whose turns cost no time) and whose runs; a client counts down from there."""

    remaining_ms: list[int | None]
    running: int | None = Field(description="the seat whose time is running, if any")
    server_time: str
    deadline: str | None = Field(description="when the running seat's time runs out")
    flagged: int | None = Field(description="the seat that ran out of time")


class MatchSummary(BaseModel):
    """Public facts of a match."""

    id: str
    game: str
    name: str = Field(description="the registered game: axia, axiom or cage")
    status: Literal["open", "running", "finished", "broken"]
    version: int
    plies: int
    to_move: int = Field(description=TO_MOVE)
    created: str
    seats: list[SeatSummary]
    result: list[float] | None
    result_text: str | None
    card_set: str | None
    seed_commitment: str | None = Field(description="SHA-256 of '<seed_salt>:<seed>'")
    seed: int | None = Field(description="revealed once the game is over")
    seed_salt: str | None = Field(description="revealed once the game is over")
    clock: ClockInfo | None = None
    rated: bool = Field(default=False, description="created as a rated match (accounts only)")
    facts: GameFactsInfo = Field(description="the game's facts at this match's options")


class MatchListItem(BaseModel):
    """A match in the lobby's lists."""

    id: str
    game: str
    status: Literal["open", "running", "finished", "broken"]
    version: int
    created: str
    updated: str
    idle_seconds: float
    result: list[float] | None
    result_text: str | None
    seats: list[SeatSummary] = Field(default_factory=list)
    rated: bool = False
    time_control: TimeControlInfo | None = Field(default=None, description="none: no clock")


class WaitingGame(BaseModel):
    """A running game whose move is the asker's: what the lobby's waiting list shows."""

    match: str
    game: str
    seat: int
    plies: int
    decisions: int = Field(default=0, description="the players' moves among the plies (no chance)")
    clock: Literal["realtime", "correspondence"] | None
    deadline: str | None = Field(description="when the seat's time for this move runs out")
    opponents: list[str] = Field(
        default_factory=list, description="the other seats, by name ('bot: NAME' for bots)"
    )


class JoinResponse(BaseModel):
    """A seat taken: its secret token is shown this once."""

    match: str
    seat: int
    token: str


class RecordMove(BaseModel):
    """One move of a record (``player`` -1 for chance)."""

    player: int
    move: str
    action: int


class MatchRecord(BaseModel):
    """A finished match's record (replays with ``gameshelf replay``), with the seed's proof."""

    format: str
    version: int
    game: str
    seed: int | None
    players: list[str]
    initial_position: str | None
    moves: list[RecordMove]
    result: list[float] | None
    started: str
    finished: str | None
    seed_commitment: str | None
    seed_salt: str | None


class ReplayFrame(BaseModel):
    """One ply of a replay: who moved, the move (when public) and the views after it."""

    ply: int
    player: int | None
    move: str | None
    to_move: int = Field(
        description="the seat to move after this ply, -1 chance; -4 at the last ply of a "
        "finished match (a flag or resignation included)"
    )
    views: dict[str, View] = Field(description="'public' and one entry per shown seat")
    legal: list[LegalMove] = Field(
        default_factory=list,
        description="the legal moves at this ply as structures, where nothing is hidden (what "
        "a board points at when it shows this ply's best move); empty at the end",
    )


class Replay(BaseModel):
    """Every ply of a match as the engine shows it."""

    match: str
    game: str
    status: str
    frames: list[ReplayFrame]


class MatchData(BaseModel):
    """Game data a match's views refer to (AXIA: its card set)."""

    card_set: str | None
    cards: dict[str, Any] | None


# --- analysis board (docs/analysis.md) ------------------------------------------------------
class AnalysisRequest(BaseModel):
    """A seat token: the analysis of that seat (AXIA: from that seat's view only)."""

    model_config = STRICT
    token: str = Field(max_length=64)


class AnalysedMove(BaseModel):
    """One analysed move: its value for the player to move (0 loss .. 1 win; with 3–4 players
    the expected share of first place), the proven result if any, and its principal line."""

    move: str
    action: int
    value: float = Field(ge=0.0, le=1.0)
    solved: Literal["win", "draw", "loss"] | None
    pv: list[str]


class AnalysedPly(BaseModel):
    """The analysis of the decision at replay frame ``ply`` (the position before move
    ``ply + 1``): the best moves, the move played, its value and how much it lost."""

    ply: int
    mover: int
    played: str
    played_value: float | None
    loss: float | None
    label: Literal["inaccuracy", "mistake", "blunder"] | None
    best: list[AnalysedMove]


class MatchAnalysis(BaseModel):
    """A finished match's analysis: every decision (AXIA: only ``seat``'s, from its view)."""

    match: str
    game: str
    seat: int | None
    seconds_per_ply: float
    plies: list[AnalysedPly]


class Hint(BaseModel):
    """The best move for the asking seat, now (games against bots only)."""

    match: str
    seat: int
    ply: int
    best: AnalysedMove


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
class LegalMove(BaseModel):
    """One legal move: its notation (what a ``MoveFrame`` sends back) and the parts a table
    chooses it by, as the game describes them (each game's shape is in the generated types:
    ``AxiomMove``, ``CageMove``, ``AxiaMove``; a game that describes nothing gives the notation
    alone)."""

    model_config = ConfigDict(extra="allow")
    move: str = Field(description="the move's notation")


SeatState.model_rebuild()
ReplayFrame.model_rebuild()
