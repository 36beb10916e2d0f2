"""Races: simultaneous moves on the same state — exactly one wins, the other is stale."""

from __future__ import annotations

import threading
from typing import Any

from gameshelf.server.client import Lobby, SeatClient

from .conftest import RunningServer


def _race(clients: list[SeatClient], seat: int, moves: list[str], version: int) -> list[Any]:
    """Send one move from each client at the same instant; return their answers."""
    replies: list[Any] = [None] * len(clients)
    barrier = threading.Barrier(len(clients))

    def send(index: int) -> None:
        barrier.wait()
        replies[index] = clients[index].request(
            {"type": "move", "seat": seat, "move": moves[index], "version": version}
        )

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    return replies


def test_simultaneous_moves_for_one_state_apply_exactly_once(
    lobby: Lobby, server: RunningServer
) -> None:
    match = lobby.create("cage(max_plies=60)", [{"kind": "human"}, {"kind": "human"}], seed=1)
    tokens = [lobby.join(match["id"])["token"], lobby.join(match["id"])["token"]]
    # Two connections per seat (say, two browser tabs): they race on every single move.
    tabs = {
        seat: [SeatClient(server.url, match["id"], [tokens[seat]]) for _ in range(2)]
        for seat in (0, 1)
    }
    try:
        for _ in range(20):
            seat = tabs[0][0].state["to_move"]
            if tabs[0][0].state["status"] != "running":
                break
            racers = tabs[seat]
            for tab in racers:
                tab.request({"type": "sync"})
            version = racers[0].state["version"]
            legal = racers[0].state["seats"][str(seat)]["legal_moves"]
            replies = _race(racers, seat, [legal[0], legal[-1]], version)
            kinds = sorted(reply["type"] for reply in replies)
            assert kinds == ["error", "state"], replies
            error = next(reply for reply in replies if reply["type"] == "error")
            # The loser is told its version is stale, or — if the winner's move ended the
            # game — that the game is over; either way it was not applied.
            assert error["code"] in ("state/stale-version", "move/game-over")
            summary = lobby.match(match["id"])
            assert summary["version"] == version + 1  # applied once, never twice
            for tab in tabs[0] + tabs[1]:
                tab.request({"type": "sync"})
        assert lobby.match(match["id"])["plies"] >= 1
    finally:
        for tab in tabs[0] + tabs[1]:
            tab.close()
