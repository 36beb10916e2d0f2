"""A match as one aggregate: its status, its board, its clock and its ending, changed only by
:meth:`Match.plan` (what a change leads to) and :meth:`Match.install` (take it on).

Every change is a value (:data:`Change`): a move (a player's, a bot's or chance's), an undo, a
flag or a resignation. Planning checks it against the match and builds the next state, the
next clock, the :class:`Ending` if it ends the match and the one :class:`PendingChange` that
stores all of it; nothing changes until :mod:`.round` has stored it. An ending has one shape
whoever ends the match: the engine's board, a flag, a resignation, or the abort rule of rated
play; frames, summaries and the store read it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from gameshelf.core.game import CHANCE, TERMINAL, Game, State

from .clock import Clock, Turn
from .errors import ServerError
from .store import (
    ClockWrite,
    MatchExtras,
    PendingChange,
    SeatInfo,
    StoredMove,
    token_matches,
)
from .vetting import seed_commitment

if TYPE_CHECKING:
    from .outbox import Client


class Status(StrEnum):
    """Where a match is in its life."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    BROKEN = "broken"


Reason = Literal["board", "flag", "resign", "abort"]


@dataclass(frozen=True)
class Ending:
    """How a match ended: the result on the game's scale (None: aborted, nothing settles),
    why, the words (naming seats by role; frames put the players' names in) and the seat
    that flagged or resigned."""

    result: list[float] | None
    reason: Reason
    text: str
    seat: int | None = None


@dataclass(frozen=True)
class Move:
    """A move by ``seat`` (``CHANCE`` for a chance outcome), as an action id."""

    seat: int
    action: int


@dataclass(frozen=True)
class Undo:
    """``seat`` takes back its last move and the bot replies after it."""

    seat: int


@dataclass(frozen=True)
class Flag:
    """``seat`` ran out of time."""

    seat: int


@dataclass(frozen=True)
class Resign:
    """``seat`` gives up."""

    seat: int


Change = Move | Undo | Flag | Resign


@dataclass(frozen=True)
class Step:
    """What a change leads to, before it is stored."""

    state: State
    plies: int
    """How many of the current plies stay (an undo keeps fewer)."""
    appended: tuple[int, str] | None
    """The new ply's mover and notation (a move)."""
    status: Status
    clock: Clock | None
    ending: Ending | None
    pending: PendingChange


@dataclass(eq=False)
class Match:
    """A match in memory, rebuilt from the store on first use."""

    id: str
    game: Game
    seed: int
    seats: list[SeatInfo]
    state: State
    movers: list[int]
    notations: list[str]
    version: int
    status: Status
    created: datetime
    display: str = ""
    extras: MatchExtras = field(default_factory=MatchExtras)
    clock: Clock | None = None
    ending: Ending | None = None
    first_move_grace_ms: int | None = None
    """A rated match's grace window for each seat's first move (``None``: not rated)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    joining: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by a whole join request, account checks included (routes/matches.py)."""
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    search: asyncio.Future[Any] | None = None  # the bot search in the pool, while one runs
    touched: float = 0.0

    def __post_init__(self) -> None:
        self.display = self.display or self.game.game_string

    # --- facts ------------------------------------------------------------------------------
    @property
    def rated(self) -> bool:
        """Whether the match was created rated (no hints, no undo; the abort rule holds)."""
        return self.first_move_grace_ms is not None

    @property
    def aborted(self) -> bool:
        """Whether the abort rule ended the match (it settles nothing)."""
        return self.ending is not None and self.ending.reason == "abort"

    @property
    def bots_only(self) -> bool:
        """Whether no seat is human (a bot-vs-bot match)."""
        return all(seat.kind == "bot" for seat in self.seats)

    @property
    def humans(self) -> tuple[bool, ...]:
        """For each seat, whether a human sits there."""
        return tuple(seat.kind == "human" for seat in self.seats)

    @property
    def commitment(self) -> str | None:
        """The published SHA-256 commitment to the seed (``None`` for matches made before)."""
        salt = self.extras.seed_salt
        return None if salt is None else seed_commitment(salt, self.seed)

    @property
    def to_move(self) -> int:
        """The seat to move as frames show it: ``TERMINAL`` once the match is finished, also
        when a flag or a resignation ended it on a board that itself goes on."""
        if self.status == Status.FINISHED:
            return TERMINAL
        player: int = self.state.current_player()
        return player

    @property
    def decisions(self) -> int:
        """The players' moves played so far (the plies less chance's: deals, rolls)."""
        return sum(1 for mover in self.movers if mover >= 0)

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token this is, or None."""
        for seat in self.seats:
            if token_matches(token, seat.token_hash):
                return seat.seat
        return None

    def all_humans_moved(self, movers: list[int]) -> bool:
        """Whether every human seat has made a move among ``movers``."""
        return all(s.seat in movers for s in self.seats if s.kind == "human")

    # --- turns and clocks -------------------------------------------------------------------
    def turn_in(self, state: State, status: Status, movers: list[int]) -> Turn | None:
        """Whose time runs in ``state``: a human to move in a running match, with the grace
        window of a rated real-time match's first move of that seat."""
        if status != Status.RUNNING or state.is_terminal():
            return None
        player: int = state.current_player()
        if not 0 <= player < len(self.seats) or self.seats[player].kind != "human":
            return None
        realtime = self.clock is not None and self.clock.control.mode == "realtime"
        first = player not in movers
        grace = self.first_move_grace_ms if realtime and first else None
        return Turn(player, grace)

    def started_clock(self, now: datetime) -> Clock | None:
        """The clock as the match starts at ``now`` (None: no clock, or already started)."""
        if self.clock is None or self.clock.turn_started is not None:
            return None
        return self.clock.start(now, self.turn_in(self.state, Status.RUNNING, self.movers))

    def overdue(self, now: datetime) -> int | None:
        """The running seat if its time has run out at ``now``."""
        if self.clock is None or self.status != Status.RUNNING:
            return None
        return self.clock.out_of_time(now)

    # --- endings ----------------------------------------------------------------------------
    def board_ending(self, state: State) -> Ending:
        """The engine's ending of a finished board."""
        return Ending(list(state.returns()), "board", state.result_text())

    def seat_ending(self, seat: int, resigned: bool, movers: list[int]) -> Ending:
        """The ending when ``seat`` runs out of time or resigns.

        Two players: the other one wins. Three or four: the seat is placed last and the game
        ends there, the others sharing the win (the rulebooks have no timeouts; docs/server.md
        says why). Solo: the game ends as a loss, the game's least result. A rated match
        that ends so before every human has moved is aborted and settles nothing.
        """
        how = "resigned" if resigned else "ran out of time"
        who = self.state.describe_player(seat)
        if self.rated and not self.all_humans_moved(movers):
            words = f"aborted: {who} {how} before every player had made a first move"
            return Ending(None, "abort", words + "; nothing is rated", seat)
        count = len(self.seats)
        result = [1.0] * count
        result[seat] = self.game.spec.min_utility
        others = [self.state.describe_player(p) for p in range(count) if p != seat]
        if not others:
            text = f"{who} {how}"
        elif len(others) == 1:
            text = f"{who} {how}; {others[0]} wins"
        else:
            text = f"{who} {how} and is placed last; shared win: " + ", ".join(others)
        return Ending(result, "resign" if resigned else "flag", text, seat)

    # --- changes ----------------------------------------------------------------------------
    def check_turn(self, seat: int, version: int) -> None:
        """Refuse a move by ``seat`` at ``version`` that may not be played now."""
        if self.status == Status.OPEN:
            raise ServerError("match/not-started", "the match waits for players to join")
        if self.state.is_terminal() or self.status == Status.FINISHED:
            raise ServerError("move/game-over", "the game is over")
        self.check_version(version)
        if self.state.current_player() != seat:
            turn = self.state.describe_player(self.state.current_player())
            raise ServerError("move/not-your-turn", f"seat {seat} cannot move: it is {turn}'s turn")

    def check_version(self, version: int) -> None:
        """Refuse a change sent against another version than the match's."""
        if version != self.version:
            raise ServerError(
                "state/stale-version",
                f"version {version} is stale; the match is at {self.version}",
            )

    def check_running(self) -> None:
        """Refuse an ending change (a resignation) before the start or after the end."""
        if self.status == Status.OPEN:
            raise ServerError("match/not-started", "the match waits for players to join")
        if self.status != Status.RUNNING or self.state.is_terminal():
            raise ServerError("move/game-over", "the game is over")

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not undo now (``None``: it may)."""
        if self.game.spec.hidden_information:
            return "moves in games with hidden information commit or reveal cards: no undo"
        if self.state.is_terminal() or self.status == Status.FINISHED:
            return "the game is over"
        if self.rated:
            return "a rated match has no take-backs"
        if self.clock is not None:
            return "clocked matches have no take-backs"
        index = self.undo_point(seat)
        if index < 0:
            return "you have no move to take back"
        for mover in self.movers[index + 1 :]:
            if mover == CHANCE or self.seats[mover].kind != "bot":
                return "only your own last move can be taken back, before another player moves"
        return None

    def undo_point(self, seat: int) -> int:
        """The ply count after undoing ``seat``'s last move and the bot replies after it."""
        index = len(self.movers) - 1
        while index >= 0 and self.movers[index] != seat:
            index -= 1
        return index

    def plan(self, change: Change, now: datetime) -> Step:
        """What ``change`` leads to at ``now`` (checked by the caller; nothing changes here).
        An undo replays the game: call it off the event loop."""
        if isinstance(change, Move):
            return self._plan_move(change, now)
        if isinstance(change, Undo):
            return self._plan_undo(change)
        return self._plan_end(change, now)

    def _plan_move(self, move: Move, now: datetime) -> Step:
        after = self.state.clone()
        notation = self.state.action_to_string(move.action)
        after.apply_action(move.action)
        movers = [*self.movers, move.seat]
        ending = self.board_ending(after) if after.is_terminal() else None
        status = Status.FINISHED if ending is not None else Status.RUNNING
        clock = self.clock
        if clock is not None:
            clock = clock.after_move(move.seat, now, self.turn_in(after, status, movers))
        pending = PendingChange(
            self.id,
            self.version + 1,
            status,
            None if ending is None else ending.result,
            None if ending is None else ending.text,
            move=StoredMove(len(self.movers), move.seat, move.action, notation),
            clock=None if clock is None else ClockWrite(clock, clock.deadline()),
        )
        appended = (move.seat, notation)
        return Step(after, len(self.movers), appended, status, clock, ending, pending)

    def _plan_undo(self, undo: Undo) -> Step:
        keep = self.undo_point(undo.seat)
        state = self.game.replay(self.state.history()[:keep], self.seed)
        pending = PendingChange(self.id, self.version + 1, Status.RUNNING, remove_from=keep)
        return Step(state, keep, None, Status.RUNNING, self.clock, None, pending)

    def _plan_end(self, change: Flag | Resign, now: datetime) -> Step:
        resigned = isinstance(change, Resign)
        ending = self.seat_ending(change.seat, resigned, self.movers)
        clock = self.clock
        if clock is not None:
            clock = clock.stopped(now) if resigned else clock.flagged_seat(change.seat)
        pending = PendingChange(
            self.id,
            self.version + 1,
            Status.FINISHED,
            ending.result,
            ending.text,
            clock=None if clock is None else ClockWrite(clock, None),
            resigned=change.seat if resigned else None,
        )
        return Step(self.state, len(self.movers), None, Status.FINISHED, clock, ending, pending)

    def install(self, step: Step) -> None:
        """Take on a stored step."""
        self.state = step.state
        del self.movers[step.plies :]
        del self.notations[step.plies :]
        if step.appended is not None:
            self.movers.append(step.appended[0])
            self.notations.append(step.appended[1])
        self.version = step.pending.version
        self.status = step.status
        self.clock = step.clock
        self.ending = step.ending

    def restore_ending(self, resigned: int | None) -> None:
        """After a load: the ending of a finished match from its board, its clock's flag or
        its resignation (``resigned``), by the same rules as when it ended."""
        self.ending = None
        if self.status != Status.FINISHED:
            return
        flagged = None if self.clock is None else self.clock.flagged
        if resigned is not None:
            self.ending = self.seat_ending(resigned, True, self.movers)
        elif flagged is not None:
            self.ending = self.seat_ending(flagged, False, self.movers)
        elif self.state.is_terminal():
            self.ending = self.board_ending(self.state)

    def tell_clock(self) -> None:
        """After a load: tell the clock whose turn runs (it is not stored)."""
        if self.clock is not None and self.clock.turn_started is not None:
            self.clock = replace(
                self.clock, turn=self.turn_in(self.state, self.status, self.movers)
            )
