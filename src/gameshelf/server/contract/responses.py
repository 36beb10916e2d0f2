"""HTTP answers: errors, health, games and agents, summaries, records, replays, analysis."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from gameshelf.core.registry import GameFacts

from .common import (
    STRICT,
    TO_MOVE,
    LegalMove,
    View,
)


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
