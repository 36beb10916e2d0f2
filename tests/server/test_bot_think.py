"""A bot seat's time per move: accepted within the server's limit, kept in the seat's
name (``hard@0.3``), used by the worker, and refused with a coded error out of range."""

from __future__ import annotations

import pickle
from typing import Any

import httpx
import pytest

import gameshelf
from gameshelf.agents import make_agent
from gameshelf.server import bots
from gameshelf.server.bots import choose_bot_action
from gameshelf.server.settings import ServerSettings

from .conftest import GENEROUS, RunningServer, database_url


def create(url: str, bot: dict[str, Any]) -> httpx.Response:
    seats = [{"kind": "human"}, {"kind": "bot", **bot}]
    return httpx.post(f"{url}/api/matches", json={"game": "cage", "seats": seats})


def test_a_bot_seat_thinks_the_time_it_was_given(server: RunningServer) -> None:
    made = create(server.url, {"agent": "hard", "think_seconds": 0.3})
    assert made.status_code == 201, made.text
    seats = made.json()["seats"]
    assert seats[1]["agent"] == "hard@0.3"
    again = create(server.url, {"agent": seats[1]["agent"]})  # a rematch names the seat so
    assert again.status_code == 201 and again.json()["seats"][1]["agent"] == "hard@0.3"
    plain = create(server.url, {"agent": "hard"})
    assert plain.json()["seats"][1]["agent"] == "hard"


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ({"agent": "hard", "think_seconds": 0.0}, "between 0.01 and 1.5 seconds a move, got 0"),
        ({"agent": "hard", "think_seconds": 9.0}, "between 0.01 and 1.5 seconds a move, got 9"),
        ({"agent": "hard@2"}, "between 0.01 and 1.5 seconds a move, got 2"),
        ({"agent": "hard@soon"}, "must be a number of seconds, got 'soon'"),
    ],
)
def test_a_think_time_out_of_range_is_refused(
    tmp_path: Any, bot: dict[str, Any], message: str
) -> None:
    settings = ServerSettings(**{**GENEROUS.__dict__, "bot_move_seconds": 1.5})
    running = RunningServer(database_url("sqlite", tmp_path), settings)
    try:
        refused = create(running.url, bot)
        listed = httpx.get(f"{running.url}/api/matches").json()
    finally:
        running.stop()
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "agent/bad-think-time"
    assert message in error["message"] and error["message"].startswith("seat 1: ")
    assert listed == []  # nothing was created


def test_the_worker_gives_the_bot_its_seat_time_within_the_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[Any] = []

    def recording(name: str, game: Any, seed: int | None = None) -> Any:
        agent = make_agent(name, game, seed)
        built.append(agent)
        return agent

    monkeypatch.setattr(bots, "make_agent", recording)
    state = gameshelf.load("cage").new_initial_state()
    snapshot = pickle.dumps(state)
    assert choose_bot_action(snapshot, "hard@0.05", 1, 5.0) in state.legal_actions()
    assert built[-1].time_limit == 0.05
    choose_bot_action(snapshot, "hard@0.4", 1, 0.1)
    assert built[-1].time_limit == 0.1  # the server's cap wins
    choose_bot_action(snapshot, "medium", 1, 5.0)
    assert built[-1].time_limit == 0.25  # the level's own
