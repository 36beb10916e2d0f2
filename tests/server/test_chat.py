"""Chat per match: players write, everyone seated reads; stored with the match; length and
rate limits; spectators neither write nor (by default) read; mutes; no game data in chat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gameshelf.server.chat import clean_text
from gameshelf.server.client import Lobby, SeatClient
from gameshelf.server.errors import ServerError
from gameshelf.server.settings import ServerSettings

from .conftest import GENEROUS, RunningServer, database_url


def _chat_frames(table: SeatClient, count: int) -> list[dict[str, Any]]:
    """Receive until ``count`` chat frames have arrived since the connection opened."""
    while sum(m.get("type") == "chat" for m in table.received) < count:
        table.receive(5.0)
    return [m for m in table.received if m.get("type") == "chat"]


def _two_seats(lobby: Lobby, game: str = "cage") -> tuple[str, list[str]]:
    match = lobby.create(game, [{"kind": "human"}, {"kind": "human"}])
    tokens = [
        lobby.join(match["id"], seat, name)["token"] for seat, name in ((0, "Ann"), (1, "Bo"))
    ]
    return match["id"], tokens


def test_players_chat_and_the_chat_is_stored_with_the_match(
    server: RunningServer, lobby: Lobby
) -> None:
    match_id, tokens = _two_seats(lobby)
    with (
        SeatClient(server.url, match_id, [tokens[0]]) as ann,
        SeatClient(server.url, match_id, [tokens[1]]) as bo,
    ):
        reply = ann.request({"type": "chat", "text": "  good luck <b>&amp;</b>  "})
        assert reply["type"] == "chat"
        assert reply["messages"][0]["text"] == "good luck <b>&amp;</b>"  # text, kept verbatim
        heard = _chat_frames(bo, 1)[-1]["messages"][0]
        assert (heard["seat"], heard["name"], heard["text"]) == (
            0,
            "Ann",
            reply["messages"][0]["text"],
        )
        assert set(heard) == {"seat", "name", "text", "at"}  # no game data rides along
    with SeatClient(server.url, match_id, [tokens[1]]) as later:
        history = _chat_frames(later, 1)[0]["messages"]
        assert [m["text"] for m in history] == ["good luck <b>&amp;</b>"]


def test_bad_messages_are_refused_and_nothing_is_stored(
    server: RunningServer, lobby: Lobby
) -> None:
    match_id, tokens = _two_seats(lobby)
    with SeatClient(server.url, match_id, [tokens[0]]) as ann:
        too_long = ann.request({"type": "chat", "text": "x" * 301})
        assert too_long["code"] == "chat/invalid" and "300" in too_long["message"]
        assert ann.request({"type": "chat", "text": "   "})["code"] == "chat/invalid"
        bidi = ann.request({"type": "chat", "text": "hi\u202e"})
        assert bidi["code"] == "chat/invalid" and "U+202E" in bidi["message"]
        other = ann.request({"type": "chat", "text": "hi", "seat": 1})
        assert other["code"] == "auth/bad-token"
    with SeatClient(server.url, match_id, [tokens[0]]) as again:
        assert again.request({"type": "ping"})["type"] == "pong"
        assert not [m for m in again.received if m.get("type") == "chat"]  # nothing stored


@pytest.mark.parametrize("text", ["\u3164\u3164", "\u2800", "\u0301", " \ufe0f\u034f "])
def test_a_message_that_shows_nothing_is_empty(
    server: RunningServer, lobby: Lobby, text: str
) -> None:
    """Hangul fillers, the blank Braille pattern or marks with nothing to sit on draw an empty
    bubble: refused as empty, nothing stored. An emoji with its variation selector still goes."""
    match_id, tokens = _two_seats(lobby)
    with SeatClient(server.url, match_id, [tokens[0]]) as ann:
        refused = ann.request({"type": "chat", "text": text})
        assert refused["code"] == "chat/invalid" and "empty" in refused["message"]
    with SeatClient(server.url, match_id, [tokens[0]]) as again:
        assert again.request({"type": "ping"})["type"] == "pong"
        assert not [m for m in again.received if m.get("type") == "chat"]  # nothing stored
        heart = again.request({"type": "chat", "text": "gg \u2764\ufe0f"})
        assert heart["messages"][0]["text"] == "gg \u2764\ufe0f"


@pytest.mark.parametrize(
    "text",
    [
        "gg \U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: three emoji, two joiners
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # the rainbow flag
        "\u0915\u094d\u200d\u0937",  # a Devanagari half form
    ],
)
def test_joiners_that_build_emoji_and_scripts_are_kept(text: str) -> None:
    assert clean_text(text, 300) == text


@pytest.mark.parametrize(
    "text", ["\u200dhi", "hi\u200d", "a \u200d b", "a\u200d\u200db", "a\u200d\u202eb"]
)
def test_a_joiner_that_joins_nothing_is_refused(text: str) -> None:
    with pytest.raises(ServerError, match=r"U\+20(0D|2E) is not allowed"):
        clean_text(text, 300)


def test_joined_fillers_are_still_an_empty_message() -> None:
    with pytest.raises(ServerError, match="cannot be empty"):
        clean_text("\u3164\u200d\u3164", 300)


def test_spectators_neither_write_nor_read_by_default(server: RunningServer, lobby: Lobby) -> None:
    match_id, tokens = _two_seats(lobby)
    with (
        SeatClient(server.url, match_id, []) as watcher,
        SeatClient(server.url, match_id, [tokens[0]]) as ann,
    ):
        assert watcher.request({"type": "chat", "text": "hello"})["code"] == "chat/not-allowed"
        ann.request({"type": "chat", "text": "secret plan"})
        assert watcher.request({"type": "ping"})["type"] == "pong"
        assert not [m for m in watcher.received if m.get("type") == "chat"]


def test_spectators_read_where_the_operator_allows_it(tmp_path: Path) -> None:
    settings = ServerSettings(**{**GENEROUS.__dict__, "chat_spectators": 1})
    server = RunningServer(database_url("sqlite", tmp_path), settings)
    lobby = Lobby(server.url)
    try:
        match_id, tokens = _two_seats(lobby)
        with (
            SeatClient(server.url, match_id, []) as watcher,
            SeatClient(server.url, match_id, [tokens[0]]) as ann,
        ):
            ann.request({"type": "chat", "text": "hello all"})
            assert _chat_frames(watcher, 1)[-1]["messages"][0]["text"] == "hello all"
            assert watcher.request({"type": "chat", "text": "me too"})["code"] == "chat/not-allowed"
    finally:
        lobby.close()
        server.stop()


def test_chat_is_rate_limited_per_seat(tmp_path: Path) -> None:
    settings = ServerSettings(**{**GENEROUS.__dict__, "chat_per_minute": 1.0})
    server = RunningServer(database_url("sqlite", tmp_path), settings)
    lobby = Lobby(server.url)
    try:
        match_id, tokens = _two_seats(lobby)
        with SeatClient(server.url, match_id, [tokens[0]]) as ann:
            codes = []
            for index in range(4):
                ann._next_id += 1
                ann.send({"type": "chat", "text": f"m{index}", "id": ann._next_id})
                while (reply := ann.receive()).get("ack") != ann._next_id and reply.get(
                    "id"
                ) != ann._next_id:
                    pass
                codes.append(reply.get("code", "sent"))
            assert codes == ["sent", "sent", "sent", "request/rate-limited"]
    finally:
        lobby.close()
        server.stop()


def test_a_player_mutes_another_seat(server: RunningServer, lobby: Lobby) -> None:
    match_id, tokens = _two_seats(lobby)
    with (
        SeatClient(server.url, match_id, [tokens[0]]) as ann,
        SeatClient(server.url, match_id, [tokens[1]]) as bo,
    ):
        muted = bo.request({"type": "mute", "seats": [0, 1]})
        assert muted == {"type": "muted", "seats": [0], "ack": muted["ack"]}  # not itself
        ann.request({"type": "chat", "text": "you will not hear this"})
        assert bo.request({"type": "ping"})["type"] == "pong"
        assert not [m for m in bo.received if m.get("type") == "chat"]
        assert bo.request({"type": "mute", "seats": [5]})["code"] == "request/invalid"
        bo.request({"type": "mute", "seats": []})
        ann.request({"type": "chat", "text": "now you do"})
        assert _chat_frames(bo, 1)[-1]["messages"][0]["text"] == "now you do"


@pytest.mark.parametrize("game", ["axia(players=2)"])
def test_hidden_information_games_chat_carries_no_views(
    server: RunningServer, lobby: Lobby, game: str
) -> None:
    match_id, tokens = _two_seats(lobby, game)
    with (
        SeatClient(server.url, match_id, [tokens[0]]) as ann,
        SeatClient(server.url, match_id, [tokens[1]]) as bo,
    ):
        ann.request({"type": "chat", "text": "gl"})
        frame = _chat_frames(bo, 1)[-1]
        assert set(frame) == {"type", "match", "messages"}
        assert "view" not in str(frame) and "hand" not in str(frame)
