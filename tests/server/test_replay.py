"""Replays drawn from the engine's views, ply by ply, each viewer from their own side."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import httpx

import gameshelf
from gameshelf.server.client import Lobby

from .conftest import RunningServer

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "agent": "random"}


def test_a_cage_replay_is_every_view_the_engine_gives(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage(players=2,stock=12:12)", [RANDOM, RANDOM], seed=5)
    while lobby.match(match["id"])["status"] != "finished":
        time.sleep(0.1)
    replay = httpx.get(f"{server.url}/api/matches/{match['id']}/replay").json()
    record = lobby.record(match["id"])
    # when it ended, as stored (it was always null): after it started, and not in the future
    finished = datetime.fromisoformat(record["finished"])
    assert datetime.fromisoformat(record["started"]) <= finished <= datetime.now(UTC)
    state = gameshelf.load(record["game"]).new_initial_state(record["seed"])
    assert len(replay["frames"]) == len(record["moves"]) + 1
    for frame, move in zip(replay["frames"], [None, *record["moves"]], strict=True):
        if move is not None:
            state.apply_action(move["action"])
            assert frame["move"] == move["move"] and frame["player"] == move["player"]
        assert frame["views"]["public"] == state.view(None)


def test_an_axia_replay_shows_each_player_only_their_own_cards_until_the_end(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("axia(players=2)", [HUMAN, RANDOM], seed=3)
    token = lobby.join(match["id"])["token"]
    url = f"{server.url}/api/matches/{match['id']}/replay"
    public = httpx.get(url).json()
    assert set(public["frames"][-1]["views"]) == {"public"}
    assert all(frame["move"] is None for frame in public["frames"][1:])  # hidden until the end
    mine = httpx.post(url, json={"tokens": [token]}).json()
    assert set(mine["frames"][-1]["views"]) == {"public", "0"}
    refused = httpx.get(url, params={"all_seats": "true"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "match/not-finished"
    forged = httpx.post(url, json={"tokens": ["not-a-token"]})
    assert forged.json()["error"]["code"] == "auth/bad-token"
    data = httpx.get(f"{server.url}/api/matches/{match['id']}/data").json()
    assert data["card_set"] == "standard" and len(data["cards"]["territory"]) > 0


def test_finished_matches_keep_their_result_in_words_out_of_memory(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("axia(players=1)", [RANDOM], seed=2)
    while lobby.match(match["id"])["status"] != "finished":
        time.sleep(0.1)
    server.server.config.app.state.hub.registry.matches.clear()  # as after an eviction
    listed = lobby.matches("finished")[0]
    assert listed["id"] == match["id"] and listed["result_text"].startswith("solo score ")
