"""Live play over the real WebSocket protocol: full games, hot-seat, errors, undo, restarts."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import gameshelf
from gameshelf.core.record import parse_record, replay
from gameshelf.server.client import Lobby, SeatClient, ServerReplyError

from .conftest import RunningServer
from .helpers import my_turn, play_to_end

HUMAN = {"kind": "human"}


def bot(agent: str = "random") -> dict[str, str]:
    return {"kind": "bot", "agent": agent}


@pytest.mark.parametrize("game", sorted(gameshelf.available_games()))
def test_a_scripted_client_plays_a_complete_game_against_a_bot(
    lobby: Lobby, server: RunningServer, game: str
) -> None:
    players = gameshelf.load(game).spec.num_players
    match = lobby.create(game, [HUMAN] + [bot()] * (players - 1), seed=3)
    seat = lobby.join(match["id"], name="scripted")
    with SeatClient(server.url, match["id"], [seat["token"]]) as table:
        final = play_to_end(table, seed=1)
    assert final["result"] is not None and final["result_text"]
    summary = lobby.match(match["id"])
    assert summary["status"] == "finished" and summary["result"] == final["result"]
    record = parse_record(lobby.record(match["id"]))
    states = replay(record)  # the downloaded record replays to the same result
    assert states[-1].returns() == final["result"]


def test_two_scripted_clients_play_each_other(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage", [HUMAN, HUMAN], seed=8)
    ann, bob = lobby.join(match["id"], name="ann"), lobby.join(match["id"], name="bob")
    rng = random.Random(4)
    with (
        SeatClient(server.url, match["id"], [ann["token"]]) as a,
        SeatClient(server.url, match["id"], [bob["token"]]) as b,
    ):
        clients = {0: a, 1: b}
        plies = 0
        while True:
            mover = clients[plies % 2]
            state = mover.wait_for(my_turn(mover.seats))
            if state["status"] == "finished":
                break
            mover.move(
                state["to_move"], rng.choice(state["seats"][str(state["to_move"])]["legal_moves"])
            )
            plies += 1
        other = clients[(plies + 1) % 2].wait_for(lambda s: s["status"] == "finished")
    assert other["version"] == state["version"] and other["moves"] == state["moves"]
    assert len(state["moves"]) == plies
    assert lobby.match(match["id"])["result"] == state["result"]


def test_one_client_holds_several_seats_hot_seat(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage(players=3)", [HUMAN, HUMAN, bot("greedy")], seed=2)
    tokens = [lobby.join(match["id"])["token"], lobby.join(match["id"])["token"]]
    with SeatClient(server.url, match["id"], tokens) as table:
        assert table.seats == [0, 1]
        assert set(table.state["seats"]) == {"0", "1"}
        final = play_to_end(table, seed=5)
    assert final["status"] == "finished"


@pytest.fixture
def duel(lobby: Lobby, server: RunningServer) -> tuple[SeatClient, SeatClient, str]:
    match = lobby.create("cage", [HUMAN, HUMAN], seed=1)
    ann, bob = lobby.join(match["id"]), lobby.join(match["id"])
    a = SeatClient(server.url, match["id"], [ann["token"]])
    b = SeatClient(server.url, match["id"], [bob["token"]])
    return a, b, match["id"]


def error_of(table: SeatClient, message: dict[str, Any]) -> str:
    reply = table.request(message)
    assert reply["type"] == "error", reply
    return str(reply["code"])


def test_rejected_messages_get_codes_and_change_nothing(
    duel: tuple[SeatClient, SeatClient, str], lobby: Lobby
) -> None:
    a, b, match_id = duel
    version = a.state["version"]
    assert (
        error_of(b, {"type": "move", "seat": 1, "move": "O0", "version": version})
        == "move/not-your-turn"
    )
    assert (
        error_of(a, {"type": "move", "seat": 1, "move": "O0", "version": version})
        == "auth/bad-token"
    )
    assert (
        error_of(a, {"type": "move", "seat": 0, "move": "X9", "version": version}) == "move/invalid"
    )
    assert (
        error_of(a, {"type": "move", "seat": 0, "move": "O0", "version": version}) == "move/illegal"
    )
    assert (
        error_of(a, {"type": "move", "seat": 0, "move": "W0", "version": version + 7})
        == "state/stale-version"
    )
    assert (
        error_of(a, {"type": "move", "seat": "0", "move": "W0", "version": version})
        == "request/invalid"
    )
    assert error_of(a, {"type": "teleport"}) == "request/invalid"
    a.send({"type": "move"} | {"move": "W0" * 10_000, "seat": 0, "version": version})
    assert a.receive()["code"] == "request/too-large"
    a.socket.send("not json")
    assert a.receive()["code"] == "request/invalid"
    a.socket.send(b"\x00\x01binary")
    assert "binary frames" in a.receive()["message"]
    assert lobby.match(match_id)["version"] == version  # nothing changed
    assert a.request({"type": "ping"})["type"] == "pong"
    a.move(0, "W0")  # and the connection still serves moves
    assert a.state["version"] == version + 1
    a.close()
    b.close()


def test_a_bad_token_is_refused_at_hello(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage", [HUMAN, HUMAN])
    with pytest.raises(ServerReplyError) as caught:
        SeatClient(server.url, match["id"], ["forged-token"])
    assert caught.value.code == "auth/bad-token"
    with pytest.raises(ServerReplyError) as caught:
        SeatClient(server.url, "ffffffffffffffff", [])
    assert caught.value.code == "match/not-found"


def test_moves_wait_until_every_seat_is_taken(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage", [HUMAN, HUMAN])
    token = lobby.join(match["id"])["token"]
    with SeatClient(server.url, match["id"], [token]) as table:
        assert (
            error_of(table, {"type": "move", "seat": 0, "move": "W0", "version": 0})
            == "match/not-started"
        )
        lobby.join(match["id"])
        state = table.wait_for(lambda s: s["status"] == "running")
        assert state["seats"]["0"]["legal_moves"][:2] == ["W0", "W1"]


def test_spectators_see_the_public_view_and_cannot_move(
    duel: tuple[SeatClient, SeatClient, str], server: RunningServer
) -> None:
    a, b, match_id = duel
    with SeatClient(server.url, match_id) as watcher:
        assert watcher.seats == [] and watcher.state["seats"] == {}
        a.move(0, "R3")
        seen = watcher.wait_for(lambda s: s["version"] == 1)
        assert seen["last_move"] == {"player": 0, "move": "R3"} and seen["moves"] == ["R3"]
        assert (
            error_of(watcher, {"type": "move", "seat": 1, "move": "O0", "version": 1})
            == "auth/bad-token"
        )
    a.close()
    b.close()


def test_undo_follows_table_etiquette(
    duel: tuple[SeatClient, SeatClient, str], lobby: Lobby
) -> None:
    a, b, match_id = duel
    a.move(0, "R3")
    assert error_of(b, {"type": "undo", "seat": 1, "version": 1}) == "undo/not-allowed"
    undone = a.request({"type": "undo", "seat": 0, "version": 1})
    assert undone["type"] == "state" and undone["plies"] == 0 and undone["version"] == 2
    assert undone["to_move"] == 0 and undone["moves"] == []
    a.move(0, "W0")
    b.wait_for(lambda s: s["version"] == 3)
    b.move(1, "O0")
    a.wait_for(lambda s: s["version"] == 4)
    # Ann's move is no longer the last one: Bob has moved since.
    assert error_of(a, {"type": "undo", "seat": 0, "version": 4}) == "undo/not-allowed"
    assert lobby.match(match_id)["plies"] == 2
    a.close()
    b.close()


def test_stale_versions_after_an_undo_are_refused(duel: tuple[SeatClient, SeatClient, str]) -> None:
    a, b, _ = duel
    a.move(0, "R3")
    a.request({"type": "undo", "seat": 0, "version": 1})
    b.wait_for(lambda s: s["version"] == 2)
    # A move built on the state before the undo is stale even though the plies match.
    assert (
        error_of(a, {"type": "move", "seat": 0, "move": "W0", "version": 0})
        == "state/stale-version"
    )
    a.close()
    b.close()


def test_hidden_information_never_reaches_another_seat(lobby: Lobby, server: RunningServer) -> None:
    hidden = [g for g in gameshelf.available_games() if gameshelf.load(g).spec.hidden_information]
    assert "axia" in hidden
    for game in hidden:
        players = gameshelf.load(game).spec.num_players
        match = lobby.create(game, [HUMAN] + [bot()] * (players - 1), seed=6)
        token = lobby.join(match["id"])["token"]
        with (
            SeatClient(server.url, match["id"], [token]) as table,
            SeatClient(server.url, match["id"]) as watcher,
        ):
            play_to_end(table, seed=2)
            watcher.wait_for(lambda s: s["status"] == "finished")
        record = parse_record(lobby.record(match["id"]))
        states = replay(record)
        for client, seats in ((table, {0}), (watcher, set())):
            for message in client.received:
                if message.get("type") != "state":
                    continue
                assert set(message["seats"]) == {str(s) for s in seats}
                assert "moves" not in message
                assert "move" not in message.get("last_move", {})
                text = json.dumps(message)
                state = states[message["plies"]]
                assert state.position() not in text  # the full state never travels
                # Each seat gets exactly its engine view, spectators the public one.
                assert message["public"] == json.loads(json.dumps(state.view(None)))
                for seat in seats:
                    assert message["seats"][str(seat)]["view"] == json.loads(
                        json.dumps(state.view(seat))
                    )


def test_the_readme_network_example_runs(server: RunningServer) -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Play over the network", 1)[1]
    code = section.split("```text\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(code.replace("http://localhost:8000", server.url), "README.md", "exec"), namespace)
    assert namespace["table"].state["plies"] >= 1
