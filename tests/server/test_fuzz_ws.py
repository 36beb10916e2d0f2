"""Hostile WebSocket input: wrong types, huge payloads, stale versions, wrong seats, replays.

Hypothesis drives one connection that holds seat 0 of a live match. Every answer must be a
state (for a message that was legal) or a coded error, a rejected message must leave the match
exactly as it was, and the server must keep serving.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameshelf.server.client import Lobby, SeatClient

from .conftest import RunningServer

KNOWN_CODES = {
    "request/invalid",
    "request/too-large",
    "request/rate-limited",
    "auth/bad-token",
    "state/stale-version",
    "move/invalid",
    "move/illegal",
    "move/not-your-turn",
    "move/game-over",
    "undo/not-allowed",
    "match/not-started",
}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False),
    st.text(max_size=40),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
moves = st.one_of(
    st.sampled_from(["W0", "R3", "O0", "T1+", "T1-", "F", "G7", "T9+", "", "f"]),
    st.text(max_size=12),
)
messages = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["move", "undo", "sync", "ping"]),
            "seat": st.one_of(st.integers(-2, 3), values),
            "move": st.one_of(moves, values),
            "version": st.one_of(st.integers(-1, 40), values),
        }
    ),
    st.dictionaries(st.text(max_size=10), values, max_size=5),
    st.lists(values, max_size=3),
    values,
)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    batch=st.lists(
        st.one_of(messages.map(json.dumps), st.text(max_size=60), st.just("x" * 20_000)),
        min_size=1,
        max_size=6,
    )
)
def _fuzz(batch: list[str], table: SeatClient, lobby: Lobby, match_id: str) -> None:
    for text in batch:
        before = lobby.match(match_id)
        table.socket.send(text)
        reply = _answer(table)
        after = lobby.match(match_id)
        if reply["type"] == "error":
            assert reply["code"] in KNOWN_CODES, reply
            assert after == before, f"rejected {text[:80]!r} changed the match"
        else:
            assert reply["type"] in {"state", "pong"}, reply
            assert after["version"] in (before["version"], before["version"] + 1)


def _answer(table: SeatClient) -> dict[str, Any]:
    """The reply to the last message (skipping nothing: no one else moves in this match)."""
    return table.receive(timeout=10)


def test_hostile_messages_are_refused_cleanly(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create(
        "cage(max_plies=2000,repetition_draw=0)", [{"kind": "human"}, {"kind": "human"}], seed=5
    )
    token = lobby.join(match["id"])["token"]
    other = lobby.join(match["id"])["token"]
    with SeatClient(server.url, match["id"], [token]) as table:
        _fuzz(table=table, lobby=lobby, match_id=match["id"])
        assert table.request({"type": "ping"})["type"] == "pong"
    # The seat token still works, the other seat's token was never needed or revealed.
    with SeatClient(server.url, match["id"], [other]) as second:
        assert second.seats == [1]
        assert token not in json.dumps(second.received)
