"""Three server processes on one PostgreSQL database: cross-process play, the move race across
processes, and failover after ``kill -9`` with every acknowledged move kept. SQLite refuses a
second process."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from gameshelf.server.client import Lobby, SeatClient

from .conftest import database_url
from .helpers import Process

HUMAN = {"kind": "human"}


def _eventually(check: Callable[[], bool], seconds: float = 10.0) -> None:
    """Other processes hear of a change through NOTIFY, within milliseconds."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the change never reached that process"
        time.sleep(0.05)


def _play(table: SeatClient, seat: int) -> dict[str, object]:
    state = table.wait_for_turn(seat)
    return table.move(seat, state["seats"][str(seat)]["legal_moves"][0])


def test_players_on_different_processes_play_one_game(three: list[Process]) -> None:
    lobby = Lobby(three[0].url)
    match = lobby.create("cage", [HUMAN, HUMAN])
    tokens = [lobby.join(match["id"])["token"] for _ in range(2)]
    with (
        SeatClient(three[1].url, match["id"], [tokens[0]]) as first,
        SeatClient(three[2].url, match["id"], [tokens[1]]) as second,
    ):
        for ply in range(6):
            table, seat = (first, 0) if ply % 2 == 0 else (second, 1)
            _play(table, seat)
            other = second if table is first else first
            seen = other.wait_for(lambda s, p=ply: s["plies"] == p + 1)
            assert seen["moves"] == table.state["moves"]
    _eventually(lambda: lobby.match(match["id"])["plies"] == 6)  # a third process hears too
    lobby.close()


def _race(tabs: list[SeatClient], frame: dict[str, object]) -> list[dict[str, object]]:
    """Send ``frame`` from every tab at the same instant; their answers."""
    barrier = threading.Barrier(len(tabs))
    replies: list[dict[str, object]] = [{} for _ in tabs]

    def send(index: int) -> None:
        barrier.wait()
        replies[index] = tabs[index].request(frame)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(tabs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return replies


def test_a_move_race_across_processes_is_won_exactly_once(three: list[Process]) -> None:
    lobby = Lobby(three[0].url)
    match = lobby.create("cage(max_plies=400,repetition_draw=0)", [HUMAN, HUMAN])
    tokens = [lobby.join(match["id"])["token"] for _ in range(2)]
    tabs = [SeatClient(three[i].url, match["id"], tokens) for i in (1, 2)]
    accepted = 0
    try:
        while accepted < 8 and tabs[0].state["status"] == "running":
            state = tabs[0].state
            version = state["version"]
            for tab in tabs[1:]:
                tab.wait_for(lambda s, v=version: s["version"] == v)
            seat = state["to_move"]
            move = state["seats"][str(seat)]["legal_moves"][0]
            replies = _race(tabs, {"type": "move", "seat": seat, "move": move, "version": version})
            kinds = sorted(str(r.get("type")) for r in replies)
            assert kinds == ["error", "state"], replies
            error = next(r for r in replies if r.get("type") == "error")
            # the loser is refused: stale, or over if the winning move ended the game
            assert error["code"] in ("state/stale-version", "move/game-over")
            accepted += 1
            for tab in tabs:
                tab.wait_for(lambda s, v=version: s["version"] == v + 1)
    finally:
        for tab in tabs:
            tab.close()
    assert accepted >= 4  # races fought before the game ended
    _eventually(lambda: lobby.match(match["id"])["plies"] == accepted)
    lobby.close()


def test_failover_after_kill_9_keeps_every_acknowledged_move(three: list[Process]) -> None:
    lobby = Lobby(three[0].url)
    match = lobby.create("cage", [HUMAN, {"kind": "bot", "agent": "greedy"}])
    token = lobby.join(match["id"])["token"]
    acknowledged: list[str] = []
    with SeatClient(three[0].url, match["id"], [token]) as table:
        for _ in range(2):  # the creating process owns the match and its bot replies
            reply = _play(table, 0)
            acknowledged.append(str(reply["moves"][-1]))  # type: ignore[index]
        table.wait_for_turn(0)
    three[0].kill()
    started = time.monotonic()
    survivor = Lobby(three[1].url)
    with SeatClient(three[1].url, match["id"], [token]) as table:
        assert table.state["plies"] >= 4
        while True:
            state = table.wait_for_turn(0)
            if state["status"] == "finished":
                break
            reply = _play(table, 0)
            acknowledged.append(str(reply["moves"][-1]))  # type: ignore[index]
            if len(acknowledged) == 3:
                table.wait_for(lambda s: s["plies"] >= 6 or s["status"] == "finished")
                assert time.monotonic() - started < 15, "no process took the bot over"
    record = survivor.record(match["id"])
    human_moves = [m["move"] for m in record["moves"] if m["player"] == 0]
    assert human_moves == acknowledged
    survivor.close()
    lobby.close()


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = database_url("sqlite", tmp_path)
    first = Process(url, tmp_path / "a.log")
    try:
        first.wait_ready()
        second = Process(url, tmp_path / "b.log")
        assert second.popen.wait(60) != 0
        second.log.close()
        assert "another gameshelf server is already using" in (tmp_path / "b.log").read_text()
    finally:
        first.stop()


def test_the_owner_drives_its_bot_after_it_evicted_the_match(tmp_path: Path) -> None:
    if not os.environ.get("GAMESHELF_TEST_POSTGRES_URL"):
        pytest.fail("the cluster tests need PostgreSQL: export GAMESHELF_TEST_POSTGRES_URL")
    url = database_url("postgresql", tmp_path)
    quick = ("--idle-evict-seconds", "0.5")
    owner = Process(url, tmp_path / "owner.log", quick)
    owner.wait_ready()
    other = Process(url, tmp_path / "other.log", quick)
    other.wait_ready()
    try:
        lobby = Lobby(owner.url)
        match = lobby.create("cage", [HUMAN, {"kind": "bot", "agent": "random"}])
        token = lobby.join(match["id"])["token"]
        _eventually(lambda: httpx.get(f"{owner.url}/healthz").json()["matches_in_memory"] == 0)
        assert httpx.get(f"{owner.url}/healthz").json()["matches_owned"] == 1
        with SeatClient(other.url, match["id"], [token]) as table:
            _play(table, 0)
            reply = table.wait_for(lambda s: s["plies"] >= 2 or s["status"] == "finished")
            assert reply["plies"] >= 2  # the bot answered, driven by its evicting owner
        lobby.close()
    finally:
        owner.stop()
        other.stop()
