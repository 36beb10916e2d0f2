"""Rematch with seats swapped: every human must ask; the new match keeps the game string and
the clock, each player sits one place on, holding the new seat with the same token."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.hub import Hub

from .conftest import GENEROUS, RunningServer, database_url


def _flagged_match(lobby: Lobby, seats: list[dict[str, Any]], game: str = "cage") -> str:
    """A match on a 1.2-second clock, its humans seated (Ann first), left to flag."""
    body = {"game": game, "seats": seats, "clock": {"mode": "realtime", "minutes": 0.02}}
    match_id = str(lobby._call("POST", "/api/matches", json=body)["id"])
    return match_id


def _wait_finished(lobby: Lobby, match_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        summary = lobby.match(match_id)
        if summary["status"] == "finished":
            return summary
        time.sleep(0.05)
    raise AssertionError("the match did not finish")


def _rematch_frame(table: SeatClient, check: Any = lambda frame: True) -> dict[str, Any]:
    """The first rematch frame received (so far or next) that passes ``check``."""
    seen = 0
    while True:
        for message in table.received[seen:]:
            if message.get("type") == "rematch" and check(message):
                return message
        seen = len(table.received)
        table.receive(5.0)


def test_both_players_agree_and_swap_seats(server: RunningServer, lobby: Lobby) -> None:
    match_id = _flagged_match(lobby, [{"kind": "human"}, {"kind": "human"}])
    ann = lobby.join(match_id, 0, "Ann")["token"]
    bo = lobby.join(match_id, 1, "Bo")["token"]
    with (
        SeatClient(server.url, match_id, [ann]) as table_ann,
        SeatClient(server.url, match_id, [bo]) as table_bo,
    ):
        early = table_ann.request({"type": "rematch", "seat": 0})
        assert early["code"] == "match/not-finished"
        table_ann.wait_for(lambda s: s["status"] == "finished")
        first = table_ann.request({"type": "rematch", "seat": 0})
        assert (first["offers"], first["next"]) == ([0], None)
        assert _rematch_frame(table_bo)["offers"] == [0]  # Bo hears Ann's wish
        assert table_bo.request({"type": "rematch", "seat": 0})["code"] == "auth/bad-token"
        second = table_bo.request({"type": "rematch", "seat": 1})
        new_id = second["next"]
        assert new_id and new_id != match_id and second["seat_map"] == [1, 0]
        assert _rematch_frame(table_ann, lambda f: f["next"])["next"] == new_id
        again = table_ann.request({"type": "rematch", "seat": 0})
        assert again["next"] == new_id  # one rematch only, however often asked
        assert again["offers"] == [0, 1]  # every human asked: said without keeping the offers
        assert match_id not in _hub(server).rematches.offers  # done with once it exists
    rematch = lobby.match(new_id)
    assert rematch["status"] == "running" and rematch["game"] == "cage"
    assert [s["name"] for s in rematch["seats"]] == ["Bo", "Ann"]
    assert rematch["clock"]["initial_ms"] == 1200 and rematch["clock"]["running"] == 0
    with (
        SeatClient(server.url, new_id, [ann]) as table_ann,
        SeatClient(server.url, new_id, [bo]) as table_bo,
    ):
        assert table_ann.seats == [1] and table_bo.seats == [0]  # the same tokens, swapped
        table_bo.move(0, table_bo.state["seats"]["0"]["legal_moves"][0])
    with SeatClient(server.url, match_id, [ann]) as late:
        assert _rematch_frame(late)["next"] == new_id  # a returning player learns of it


def test_an_offer_can_be_withdrawn(server: RunningServer, lobby: Lobby) -> None:
    match_id = _flagged_match(lobby, [{"kind": "human"}, {"kind": "human"}])
    ann = lobby.join(match_id, 0)["token"]
    lobby.join(match_id, 1)
    _wait_finished(lobby, match_id)
    with SeatClient(server.url, match_id, [ann]) as table:
        assert table.request({"type": "rematch", "seat": 0})["offers"] == [0]
        assert _hub(server).rematches.offers[match_id] == {0}
        withdrawn = table.request({"type": "rematch", "seat": 0, "accept": False})
        assert (withdrawn["offers"], withdrawn["next"]) == ([], None)
        assert match_id not in _hub(server).rematches.offers  # no empty entry left behind


def _hub(server: RunningServer) -> Hub:
    hub: Hub = server.server.config.app.state.hub
    return hub


def test_offers_leave_memory_with_their_idle_match(tmp_path: Path) -> None:
    """Offers for a rematch nobody completed go when the finished match is evicted (they
    would otherwise stay for every such match, for as long as the process runs)."""
    server = RunningServer(
        database_url("sqlite", tmp_path), replace(GENEROUS, idle_evict_seconds=0.5)
    )
    lobby = Lobby(server.url)
    try:
        hub = _hub(server)
        match_id = _flagged_match(lobby, [{"kind": "human"}, {"kind": "human"}])
        ann = lobby.join(match_id, 0)["token"]
        lobby.join(match_id, 1)
        _wait_finished(lobby, match_id)
        with SeatClient(server.url, match_id, [ann]) as table:
            assert table.request({"type": "rematch", "seat": 0})["offers"] == [0]
            assert hub.rematches.offers == {match_id: {0}}
        solo = _flagged_match(lobby, [{"kind": "human"}, {"kind": "bot", "agent": "random"}])
        bea = lobby.join(solo, 0)["token"]
        _wait_finished(lobby, solo)
        with SeatClient(server.url, solo, [bea]) as table:
            new_id = table.request({"type": "rematch", "seat": 0})["next"]
        assert hub.rematches.known == {solo: new_id} and solo not in hub.rematches.offers
        deadline = time.monotonic() + 15
        while match_id in hub.registry.matches or solo in hub.registry.matches:
            assert time.monotonic() < deadline, "the idle matches stayed in memory"
            time.sleep(0.05)
        assert hub.rematches.offers == {} and hub.rematches.known == {}
        with SeatClient(server.url, solo, [bea]) as table:  # the rematch is in the database
            assert _rematch_frame(table)["next"] == new_id
        with SeatClient(server.url, match_id, [ann]) as table:  # back: Ann simply asks again
            assert table.request({"type": "rematch", "seat": 0})["offers"] == [0]
    finally:
        lobby.close()
        server.stop()


def test_against_a_bot_one_wish_is_enough_and_the_bot_moves_over(
    server: RunningServer, lobby: Lobby
) -> None:
    match_id = _flagged_match(lobby, [{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    ann = lobby.join(match_id, 0)["token"]
    _wait_finished(lobby, match_id)
    with SeatClient(server.url, match_id, [ann]) as table:
        new_id = table.request({"type": "rematch", "seat": 0})["next"]
    rematch = lobby.match(new_id)
    assert [s["kind"] for s in rematch["seats"]] == ["bot", "human"]
    assert rematch["seats"][0]["agent"] == "random"
    with SeatClient(server.url, new_id, [ann]) as table:
        assert table.seats == [1]
        state = table.wait_for_turn(1)  # the bot, now first, has moved
        assert state["plies"] >= 1


def _account(server: RunningServer, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=20.0)
    answer = client.post(
        "/api/account/register", json={"name": name, "password": "correct horse battery"}
    )
    assert answer.status_code == 201, answer.text
    return client


def _games_rated(client: httpx.Client, name: str) -> int:
    ratings = client.get(f"/api/players/{name}").json()["ratings"]
    return sum(r["games"] for r in ratings if r["game"] == "axiom" and r["players"] == 2)


def test_a_rated_match_flags_rates_and_its_rematch_is_rated(tmp_path: Path) -> None:
    quick = replace(GENEROUS, rated_min_bank_seconds=1.0, first_move_grace_seconds=0.5)
    server = RunningServer(database_url("sqlite", tmp_path), quick)
    try:
        _flag_then_abort(server)
    finally:
        server.stop()


def _flag_then_abort(server: RunningServer) -> None:
    alice, bob = _account(server, "Alice"), _account(server, "Bob")
    body = {
        "game": "axiom",
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "rated": True,
        "clock": {"mode": "realtime", "minutes": 0.02},
    }
    match_id = alice.post("/api/matches", json=body).json()["id"]
    tokens = [alice.post(f"/api/matches/{match_id}/join", json={}).json()["token"]]
    tokens.append(bob.post(f"/api/matches/{match_id}/join", json={}).json()["token"])
    with (
        SeatClient(server.url, match_id, [tokens[0]]) as table_a,
        SeatClient(server.url, match_id, [tokens[1]]) as table_b,
    ):
        table_a.move(0, table_a.state["seats"]["0"]["legal_moves"][0])
        table_b.wait_for_turn(1)
        table_b.move(1, table_b.state["seats"]["1"]["legal_moves"][0])
        table_a.wait_for(lambda s: s["status"] == "finished")  # Alice's bank runs out
        assert table_a.state["clock"]["flagged"] == 0
        assert _games_rated(alice, "Alice") == 1 and _games_rated(alice, "Bob") == 1
        table_a.request({"type": "rematch", "seat": 0})
        new_id = table_b.request({"type": "rematch", "seat": 1})["next"]
    players = alice.get(f"/api/matches/{new_id}/players").json()
    assert players["rated"] is True
    assert [s["account"] for s in players["seats"]] == ["Bob", "Alice"]
    rematch = alice.get(f"/api/matches/{new_id}").json()
    assert rematch["clock"]["running"] == 0 and rematch["status"] == "running"
    _wait_finished(Lobby(server.url), new_id)  # Bob, now first, never makes a first move
    assert "aborted" in alice.get(f"/api/matches/{new_id}").json()["result_text"]
    assert _games_rated(alice, "Alice") == 1 and _games_rated(alice, "Bob") == 1
