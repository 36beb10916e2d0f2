"""What the server says about a match, as contract models: each connection's state frame,
the lobby's summary, replay frames and the game record. Every one reads the match and its
:class:`~gameshelf.server.match.Ending`; the engine's views are shown as they are, with the
match's public game string (a pinned card set's internal name stays inside the server).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from gameshelf.core.game import TERMINAL
from gameshelf.core.record import GameRecord, RecordedMove
from gameshelf.core.registry import facts_of

from .contract import (
    ClockInfo,
    GameFactsInfo,
    LastMove,
    MatchData,
    MatchSummary,
    ReplayFrame,
    SeatState,
    SeatSummary,
    StateFrame,
    WelcomeFrame,
)
from .errors import ServerError
from .listing import named_result, seat_summary
from .match import Match, Status
from .moves_view import legal_details
from .outbox import Client

Ack = tuple[Client, str | int | None] | None
"""The connection whose request a change answers, and the request's id."""


def view_of(match: Match, seat: int | None, state: Any = None) -> dict[str, Any]:
    """The engine's view for ``seat`` (None: the public one) of ``state`` (default: now)."""
    view: dict[str, Any] = (match.state if state is None else state).view(seat)
    return {**view, "game": match.display} if "game" in view else view


def named(match: Match, text: str) -> str:
    """Result words with the players' names put before their roles."""
    roles = [match.state.describe_player(p) for p in range(len(match.seats))]
    return named_result(text, roles, match.seats)


def _result_fields(match: Match, now: datetime) -> dict[str, Any]:
    """The result, its words and the clock, as frames and summaries carry them."""
    ending = match.ending
    fields: dict[str, Any] = {
        "result": None if ending is None else ending.result,
        "result_text": None if ending is None else named(match, ending.text),
    }
    if match.clock is not None:
        fields["clock"] = ClockInfo(**match.clock.frame(now))
    return fields


class ChangeFrames:
    """The state frames of one change: what every connection sees (the public view, the
    seats, the result) and each held seat's part (its view, its legal moves) are each worked
    out once, however many connections are told."""

    def __init__(self, match: Match, last: tuple[int, str] | None, now: datetime) -> None:
        self.match = match
        self.shared = _shared_fields(match, last, now)
        self.held: dict[int, SeatState] = {}

    def seat(self, seat: int) -> SeatState:
        """What a connection holding ``seat`` sees of it."""
        known = self.held.get(seat)
        if known is None:
            match = self.match
            mine = match.to_move == seat and match.status == Status.RUNNING
            legal = legal_details(match.state) if mine else []
            known = SeatState(
                view=view_of(match, seat),
                legal_moves=[move.move for move in legal],
                legal=legal,
                can_undo=match.undo_refusal(seat) is None,
            )
            self.held[seat] = known
        return known

    def frame(self, seats: set[int]) -> StateFrame:
        """The frame for a connection holding ``seats``."""
        held = {str(seat): self.seat(seat) for seat in sorted(seats)}
        return StateFrame(**self.shared, seats=held)


def _shared_fields(match: Match, last: tuple[int, str] | None, now: datetime) -> dict[str, Any]:
    """A state frame's fields that are the same for every connection."""
    hidden = match.game.spec.hidden_information
    fields: dict[str, Any] = {
        "type": "state",
        "match": match.id,
        "game": match.display,
        "version": match.version,
        "status": match.status.value,
        "to_move": match.to_move,
        "plies": len(match.movers),
        "decisions": match.decisions,
        "public": view_of(match, None),
        "players": [SeatSummary(**seat_summary(s)) for s in match.seats],
        **_result_fields(match, now),
    }
    if last is not None:
        player, notation = last
        fields["last_move"] = (
            LastMove(player=player) if hidden else LastMove(player=player, move=notation)
        )
    if not hidden:
        fields["moves"] = list(match.notations)
    return fields


def state_frame(
    match: Match, seats: set[int], last: tuple[int, str] | None, now: datetime
) -> StateFrame:
    """The match as a connection holding ``seats`` may see it."""
    return ChangeFrames(match, last, now).frame(seats)


def broadcast(match: Match, last: tuple[int, str] | None, now: datetime, ack: Ack = None) -> None:
    """Queue each client its own view; a client too slow to keep up is dropped, not awaited."""
    frames = ChangeFrames(match, last, now)
    for client in list(match.clients):
        frame = frames.frame(client.seats)
        if ack is not None and ack[0] is client and ack[1] is not None:
            frame.ack = ack[1]
        if not client.send(frame):
            match.clients.discard(client)


def welcome(match: Match, client: Client) -> WelcomeFrame:
    """The answer to a hello: the seats the connection proved."""
    return WelcomeFrame(type="welcome", match=match.id, seats=sorted(client.seats))


def summary(match: Match, now: datetime) -> MatchSummary:
    """Public facts of a match for the lobby (the seed only once the game is over)."""
    finished = match.status == Status.FINISHED
    return MatchSummary(
        id=match.id,
        game=match.display,
        name=match.game.spec.name,
        status=match.status.value,
        version=match.version,
        plies=len(match.movers),
        to_move=match.to_move,
        created=match.created.isoformat(),
        seats=[SeatSummary(**seat_summary(s)) for s in match.seats],
        card_set=match.extras.data_name,
        seed_commitment=match.commitment,
        seed=match.seed if finished else None,
        seed_salt=match.extras.seed_salt if finished else None,
        rated=match.rated,
        facts=GameFactsInfo.of(facts_of(match.game)),
        **_result_fields(match, now),
    )


def check_replay(match: Match, all_seats: bool) -> None:
    """Refuse a replay that would show what the asker may not see yet."""
    if all_seats and match.status != Status.FINISHED:
        raise ServerError(
            "match/not-finished", "every seat's view is shown only once the game is over"
        )


def replay_frames(match: Match, seats: set[int], all_seats: bool) -> list[ReplayFrame]:
    """Each ply's views, from the start: the public view, plus each seat in ``seats`` (or
    every seat with ``all_seats``). Blocking: call it through ``asyncio.to_thread``."""
    hidden = match.game.spec.hidden_information
    shown = range(len(match.seats)) if all_seats else sorted(seats)
    finished = match.status == Status.FINISHED
    moves_public = not hidden or finished
    history = list(match.state.history())
    frames = []
    for ply, state in enumerate(match.game.replay_plies(history, match.seed)):
        views = {"public": view_of(match, None, state)}
        for seat in shown:
            views[str(seat)] = view_of(match, seat, state)
        frames.append(
            ReplayFrame(
                ply=ply,
                player=match.movers[ply - 1] if ply else None,
                move=match.notations[ply - 1] if ply and moves_public else None,
                # the last ply of a finished match: nobody is to move (a flag or resignation
                # ended the match there, whatever the board says)
                to_move=TERMINAL if finished and ply == len(history) else state.current_player(),
                views=views,
                legal=[] if hidden else legal_details(state),
            )
        )
    return frames


def match_data(match: Match) -> MatchData:
    """Game data the match's views refer to: its card set's name and content (AXIA)."""
    extras = match.extras
    if extras.data_content is None:
        return MatchData(card_set=None, cards=None)
    return MatchData(card_set=extras.data_name, cards=json.loads(extras.data_content))


def record(match: Match, finished: datetime | None = None) -> GameRecord:
    """The game record of a finished match (``finished``: when it ended, as stored)."""
    if match.status != Status.FINISHED:
        raise ServerError("match/not-finished", "records of unfinished matches stay private")
    moves = [
        RecordedMove(player, notation, action)
        for player, notation, action in zip(
            match.movers, match.notations, match.state.history(), strict=True
        )
    ]
    names = [s.name or (f"bot: {s.agent}" if s.agent else f"seat {s.seat}") for s in match.seats]
    return GameRecord(
        game=match.display,
        seed=match.seed,
        players=names,
        moves=moves,
        # a flagged game's board never ended: no engine result (the summary has the flag's)
        result=match.state.returns() if match.state.is_terminal() else None,
        started=match.created.isoformat(),
        finished=None if finished is None else finished.isoformat(),
    )
