"""Kill the real server process mid-game, start it again: every accepted move is still there."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from gameshelf.core.record import parse_record, replay
from gameshelf.server.client import Lobby, SeatClient

from .conftest import DATABASES, database_url
from .helpers import ServerProcess


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_mid_game_then_restart_resumes_exactly(database: str, tmp_path: Path) -> None:
    with ServerProcess(database_url(database, tmp_path), tmp_path / "server.log") as server:
        base = server.base
        lobby = Lobby(base)
        # A human against the greedy bot (bots run in the real process pool), and a bot-only
        # match that the restarted server must carry on by itself.
        match = lobby.create(
            "cage", [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}], seed=4
        )
        token = lobby.join(match["id"])["token"]
        with SeatClient(base, match["id"], [token]) as table:
            for move in ("R0", "W1", "Y2"):
                state = table.wait_for(lambda s: s["to_move"] == 0 or s["status"] == "finished")
                if state["status"] == "finished":
                    break
                table.move(
                    0,
                    move
                    if move in state["seats"]["0"]["legal_moves"]
                    else state["seats"]["0"]["legal_moves"][0],
                )
            acknowledged = table.wait_for(lambda s: s["to_move"] == 0 or s["status"] == "finished")
        server.crash_and_restart()
        lobby = Lobby(base)
        assert lobby.match(match["id"])["version"] == acknowledged["version"]
        with SeatClient(base, match["id"], [token]) as table:
            assert table.state["moves"] == acknowledged["moves"]
            assert table.state["version"] == acknowledged["version"]
            assert (
                table.state["seats"]["0"]["legal_moves"]
                == acknowledged["seats"]["0"]["legal_moves"]
            )
            if table.state["status"] == "running":
                table.move(0, table.state["seats"]["0"]["legal_moves"][0])
                assert table.state["version"] == acknowledged["version"] + 1


@pytest.mark.parametrize("database", DATABASES)
def test_a_bot_only_match_carries_on_after_a_restart(database: str, tmp_path: Path) -> None:
    with ServerProcess(database_url(database, tmp_path), tmp_path / "server.log") as server:
        base = server.base
        lobby = Lobby(base)
        match = lobby.create(
            "cage(max_plies=400,repetition_draw=0,continue_after_last_drop=true)",
            [{"kind": "bot", "agent": "random"}] * 2,
            seed=11,
        )
        time.sleep(0.3)
        server.crash_and_restart()
        lobby = Lobby(base)
        deadline = time.monotonic() + 60
        while lobby.match(match["id"])["status"] != "finished":
            assert time.monotonic() < deadline, "the resumed match never finished"
            time.sleep(0.2)
        record = parse_record(lobby.record(match["id"]))
        states = replay(record)  # every move was kept, in order, and replays to the result
        assert states[-1].is_terminal() and states[-1].returns() == record.result


@pytest.mark.parametrize("database", DATABASES)
def test_kill_9_during_a_busy_run_loses_no_acknowledged_move(database: str, tmp_path: Path) -> None:
    acknowledged: dict[str, list[str]] = {}
    tokens: dict[str, list[str]] = {}
    with ServerProcess(database_url(database, tmp_path), tmp_path / "server.log") as server:
        base = server.base
        lobby = Lobby(base)
        for index in range(8):
            match = lobby.create(
                "cage(max_plies=2000,repetition_draw=0,continue_after_last_drop=true)",
                [{"kind": "human"}, {"kind": "human"}],
                seed=index,
            )
            tokens[match["id"]] = [
                lobby.join(match["id"])["token"],
                lobby.join(match["id"])["token"],
            ]
            acknowledged[match["id"]] = []
        stop = threading.Event()

        def play(match_id: str) -> None:
            rng = random.Random(match_id)
            try:
                with SeatClient(base, match_id, tokens[match_id], timeout=5) as table:
                    while not stop.is_set() and table.state["status"] == "running":
                        seat = table.state["to_move"]
                        moves = table.state["seats"][str(seat)]["legal_moves"]
                        reply = table.move(seat, rng.choice(moves))
                        acknowledged[match_id] = list(reply["moves"])
            except Exception:  # the server was killed under us: expected
                return

        threads = [threading.Thread(target=play, args=(m,)) for m in acknowledged]
        for thread in threads:
            thread.start()
        time.sleep(2.0)
        server.kill9()
        stop.set()
        for thread in threads:
            thread.join(timeout=20)
        assert sum(len(moves) for moves in acknowledged.values()) > 50  # it really was busy

        server.restart()
        lobby = Lobby(base)
        for match_id, acked in acknowledged.items():
            with SeatClient(base, match_id, tokens[match_id]) as table:
                stored = table.state["moves"]
                # Every acknowledged move is there, in order; at most the one move in flight
                # when the process died was committed without its acknowledgement arriving.
                assert stored[: len(acked)] == acked
                assert len(stored) - len(acked) in (0, 1)
                if table.state["status"] == "running":
                    seat = table.state["to_move"]
                    table.move(seat, table.state["seats"][str(seat)]["legal_moves"][0])
