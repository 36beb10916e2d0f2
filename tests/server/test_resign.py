"""Resign (docs/server.md, "Resign"): a voluntary flag of the resigning seat, clocked match or
not — the flag's result rule, its game-over hooks (a rated match rates once, as openskill
says, also across a restart), and coded refusals that change nothing. SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.store import RatingChangeRow, Store
from gameshelf.server.timing import FakeTime

from .conftest import DATABASES, RunningServer, database_url
from .helpers import ROOMY
from .helpers import expected_ratings as _expected
from .helpers import rating_of as _rating
from .helpers import register as _register

HUMAN = {"kind": "human"}


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningServer]:
    """The suite's server, with room for many log-ins from one address."""
    running = RunningServer(database_url(request.param, tmp_path), ROOMY, clock=FakeTime())
    yield running
    running.stop()


def _create(lobby: Lobby, game: str, humans: int, clock: dict[str, Any] | None = None) -> str:
    body: dict[str, Any] = {"game": game, "seats": [HUMAN] * humans}
    if clock is not None:
        body["clock"] = clock
    return str(lobby._call("POST", "/api/matches", json=body)["id"])


def _resign(table: SeatClient, seat: int) -> dict[str, Any]:
    return table.request({"type": "resign", "seat": seat})


def test_two_players_the_resigner_loses_and_the_other_wins(server: RunningServer) -> None:
    lobby = Lobby(server.url)
    match = _create(lobby, "cage", 2)
    tokens = [lobby.join(match, seat)["token"] for seat in range(2)]
    with (
        SeatClient(server.url, match, [tokens[0]]) as first,
        SeatClient(server.url, match, [tokens[1]]) as second,
    ):
        first.move(0, first.state["seats"]["0"]["legal_moves"][0])
        version = first.state["version"]
        reply = _resign(first, 0)  # not its turn: a resignation needs none
        assert reply["type"] == "state" and reply["status"] == "finished", reply
        assert reply["version"] == version + 1
        assert reply["result"] == [-1.0, 1.0]
        assert reply["result_text"] == "player 1 resigned; player 2 wins"
        assert reply["seats"]["0"]["legal_moves"] == []
        seen = second.wait_for(lambda s: s["status"] == "finished")  # the other hears it
        assert seen["result"] == [-1.0, 1.0]
    summary = lobby.match(match)
    assert summary["status"] == "finished" and summary["result"] == [-1.0, 1.0]
    assert "resigned" in summary["result_text"] and summary.get("clock") is None
    listed = [m for m in lobby._call("GET", "/api/matches") if m["id"] == match]
    assert listed[0]["result_text"] == "player 1 resigned; player 2 wins"
    record = lobby._call("GET", f"/api/matches/{match}/record")
    assert record["result"] is None and len(record["moves"]) == 1  # as a flagged match's
    lobby.close()


def test_nobody_is_to_move_once_a_resignation_ended_the_match(server: RunningServer) -> None:
    """The board goes on after a resignation (the engine still names a player); the frames,
    the summary and the replay's last ply say -4, as docs/server.md does for a finished match."""
    lobby = Lobby(server.url)
    match = _create(lobby, "cage", 2)
    tokens = [lobby.join(match, seat)["token"] for seat in range(2)]
    with (
        SeatClient(server.url, match, [tokens[0]]) as first,
        SeatClient(server.url, match, [tokens[1]]) as second,
    ):
        first.move(0, first.state["seats"]["0"]["legal_moves"][0])
        assert first.state["to_move"] == 1
        reply = _resign(first, 0)
        assert (reply["status"], reply["to_move"]) == ("finished", -4), reply
        assert second.wait_for(lambda s: s["status"] == "finished")["to_move"] == -4
    with SeatClient(server.url, match, []) as late:  # a new connection's first state too
        assert late.state["to_move"] == -4
    assert lobby.match(match)["to_move"] == -4
    for replay in (
        lobby._call("GET", f"/api/matches/{match}/replay"),
        lobby._call("GET", f"/api/matches/{match}/replay?all_seats=true"),
    ):
        assert [f["to_move"] for f in replay["frames"]] == [0, -4]  # the plies before: as played
    lobby.close()


def test_three_players_the_resigner_is_placed_last(server: RunningServer) -> None:
    lobby = Lobby(server.url)
    match = _create(lobby, "cage(players=3)", 3)
    tokens = [lobby.join(match, seat)["token"] for seat in range(3)]
    with SeatClient(server.url, match, tokens) as table:
        reply = _resign(table, 1)
    assert reply["result"] == [1.0, -1.0, 1.0]
    assert reply["result_text"] == (
        "player 2 resigned and is placed last; shared win: player 1, player 3"
    )
    assert lobby.match(match)["result"] == [1.0, -1.0, 1.0]
    lobby.close()


def test_a_resigned_clock_stops_and_never_flags(server: RunningServer) -> None:
    lobby = Lobby(server.url)
    match = _create(lobby, "cage", 2, {"mode": "realtime", "minutes": 0.03})  # 1.8 s each
    tokens = [lobby.join(match, seat)["token"] for seat in range(2)]
    with SeatClient(server.url, match, tokens) as table:
        reply = _resign(table, 1)
    assert reply["result"] == [1.0, -1.0] and reply["clock"]["flagged"] is None
    assert reply["clock"]["running"] is None and reply["clock"]["deadline"] is None
    clock = server.hub.time
    assert isinstance(clock, FakeTime)
    clock.advance(2.5)  # past seat 0's deadline: the steward must leave the match alone
    server.call(server.hub.steward.pass_once())
    summary = lobby.match(match)
    assert summary["version"] == reply["version"] and summary["clock"]["flagged"] is None
    assert summary["result_text"] == "player 2 resigned; player 1 wins"
    lobby.close()


def test_refusals_change_nothing(server: RunningServer) -> None:
    lobby = Lobby(server.url)
    waiting = _create(lobby, "cage", 2)
    early = lobby.join(waiting, 0)["token"]
    with SeatClient(server.url, waiting, [early]) as table:
        assert _resign(table, 0)["code"] == "match/not-started"
    assert lobby.match(waiting)["status"] == "open"

    match = _create(lobby, "cage", 2)
    tokens = [lobby.join(match, seat)["token"] for seat in range(2)]
    before = lobby.match(match)
    with SeatClient(server.url, match, []) as spectator:
        refused = _resign(spectator, 0)
        assert refused["type"] == "error" and refused["code"] == "resign/not-allowed"
    with SeatClient(server.url, match, [tokens[0]]) as table:
        assert _resign(table, 1)["code"] == "auth/bad-token"  # a seat it does not hold
        assert _resign(table, 7)["code"] == "auth/bad-token"
        bad = table.request({"type": "resign"})  # no seat named
        assert bad["code"] == "request/invalid"
    with pytest.raises(Exception, match="bad-token"):  # a token of no seat: no connection
        SeatClient(server.url, match, ["not-a-token"])
    assert lobby.match(match) == before  # nothing changed, the version included

    with SeatClient(server.url, match, tokens) as table:
        assert _resign(table, 0)["status"] == "finished"
        finished = lobby.match(match)
        again = _resign(table, 1)  # the game is over: the loser's opponent cannot resign too
        assert again["type"] == "error" and again["code"] == "move/game-over"
        assert _resign(table, 0)["code"] == "move/game-over"
    assert lobby.match(match) == finished and finished["result"] == [-1.0, 1.0]
    lobby.close()


def _rating_changes(url: str) -> int:
    store = Store(url)
    try:
        with store.session() as session:
            return int(session.scalar(select(func.count()).select_from(RatingChangeRow)) or 0)
    finally:
        store.close()


def test_a_rated_resign_is_a_loss_rated_once_also_after_a_restart(
    server: RunningServer,
) -> None:
    alice, bob = _register(server, "Alice"), _register(server, "Bob")
    body = {"game": "axiom", "seats": [HUMAN, HUMAN], "rated": True}
    match = alice.post("/api/matches", json=body).json()["id"]
    tokens = [alice.post(f"/api/matches/{match}/join", json={}).json()["token"]]
    tokens.append(bob.post(f"/api/matches/{match}/join", json={}).json()["token"])
    with SeatClient(server.url, match, tokens) as table:
        for seat in (0, 1):  # both have moved: a resignation before that would abort
            table.move(seat, table.state["seats"][str(seat)]["legal_moves"][0])
        assert table.state["to_move"] == 0  # Bob resigns on Alice's turn
        reply = _resign(table, 1)
        assert reply["result"] == [1.0, -1.0] and reply["status"] == "finished"
        assert _resign(table, 1)["code"] == "move/game-over"  # a second one counts nothing
    expected = _expected([(25.0, 25.0 / 3.0)] * 2, [1.0, -1.0])
    assert _rating(alice, "Alice", "axiom", 2) == pytest.approx(expected[0])
    assert _rating(alice, "Bob", "axiom", 2) == pytest.approx(expected[1])
    assert _rating(alice, "Bob", "axiom", 2)[0] < 25.0 < _rating(alice, "Alice", "axiom", 2)[0]
    assert _rating_changes(server.database_url) == 2
    ratings = {n: _rating(alice, n, "axiom", 2) for n in ("Alice", "Bob")}
    server.stop()

    again = RunningServer(server.database_url, ROOMY)
    try:
        client = httpx.Client(base_url=again.url, timeout=20.0)
        summary = client.get(f"/api/matches/{match}").json()
        assert summary["status"] == "finished" and summary["result"] == [1.0, -1.0]
        assert summary["result_text"] == reply["result_text"]
        assert "resigned" in reply["result_text"]
        with SeatClient(again.url, match, [tokens[0]]) as table:
            assert table.state["result"] == [1.0, -1.0]
            assert _resign(table, 0)["code"] == "move/game-over"
        for name, rating in ratings.items():
            assert _rating(client, name, "axiom", 2) == rating
            page = client.get(f"/api/players/{name}").json()
            assert page["ratings"][0]["games"] == 1
        assert _rating_changes(again.database_url) == 2
        client.close()
    finally:
        again.stop()
