"""The HTTP lobby: games, matches, seats, records and coded errors."""

from __future__ import annotations

import httpx
import pytest

from gameshelf.server.client import Lobby, ServerReplyError

from .conftest import RunningServer

HUMAN = {"kind": "human"}


def test_games_and_agents_are_listed(lobby: Lobby, server: RunningServer) -> None:
    games = {g["name"]: g for g in lobby.games()}
    assert "cage" in games
    options = {o["name"]: o for o in games["cage"]["options"]}
    assert options["simultaneous"]["choices"] == ["draw", "mover_priority", "shared"]
    agents = [a["name"] for a in httpx.get(f"{server.url}/api/agents").json()]
    assert "random" in agents and "greedy" in agents
    assert httpx.get(f"{server.url}/openapi.json").json()["info"]["title"] == "gameshelf"


def test_the_card_option_is_listed_as_the_server_takes_it(
    lobby: Lobby, server: RunningServer
) -> None:
    """The engine's default for AXIA's cards is no value (it then plays the shipped set); the
    listing says what that is on the network, ``standard``, and that paths are not taken."""
    axia = {g["name"]: g for g in lobby.games()}["axia"]
    cards = {o["name"]: o for o in axia["options"]}["cards"]
    sets = httpx.get(f"{server.url}/api/card-sets").json()
    assert cards["default"] == "standard" == sets[0]
    assert (
        cards["allowed"]
        == "a card set of this server: standard (GET /api/card-sets; no file paths)"
    )
    assert "path" not in cards["doc"]
    plain = lobby.create("axia", [HUMAN, {"kind": "bot", "agent": "random"}])
    assert plain["card_set"] == cards["default"]  # what the default means, in a match


def test_create_join_and_list_matches(lobby: Lobby) -> None:
    match = lobby.create("cage(players=3)", [HUMAN, HUMAN, {"kind": "bot", "agent": "random"}])
    assert match["status"] == "open" and match["game"] == "cage(players=3)"
    first = lobby.join(match["id"], name="ann")
    assert first["seat"] == 0 and len(first["token"]) >= 24
    assert lobby.match(match["id"])["seats"][0] == {
        "seat": 0,
        "kind": "human",
        "agent": None,
        "name": "ann",
        "label": "ann",
        "taken": True,
    }
    assert match["id"] in [m["id"] for m in lobby.matches("open")]
    second = lobby.join(match["id"], seat=1)
    assert second["seat"] == 1 and second["token"] != first["token"]
    assert lobby.match(match["id"])["status"] == "running"
    assert match["id"] in [m["id"] for m in lobby.matches("running")]
    assert "token" not in str(lobby.match(match["id"]))  # tokens are never shown again


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"game": "chess"}, "game/unknown", "unknown game 'chess'"),
        ({"game": "cage(players=9)"}, "game/invalid-option", "players"),
        ({"game": "cage", "seats": [HUMAN]}, "request/invalid", "2 seats"),
        (
            {"game": "cage", "seats": [HUMAN, {"kind": "bot", "agent": "oracle"}]},
            "agent/unknown",
            "unknown bot 'oracle'",
        ),
        ({"game": "cage", "seats": [HUMAN, {"kind": "alien"}]}, "request/invalid", "kind"),
        ({"seats": []}, "request/invalid", "game"),
        ({"game": "cage", "seed": -1}, "request/invalid", "seed"),
    ],
)
def test_bad_match_requests_get_coded_errors(
    server: RunningServer, body: dict[str, object], code: str, words: str
) -> None:
    response = httpx.post(f"{server.url}/api/matches", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and words in error["message"]
    assert httpx.get(f"{server.url}/api/matches").json() == []  # nothing was created


def test_join_errors(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("cage", [HUMAN, {"kind": "bot", "agent": "random"}])
    with pytest.raises(ServerReplyError) as caught:
        lobby.join("0123456789abcdef")
    assert caught.value.code == "match/not-found"
    before = lobby.match(match["id"])
    with pytest.raises(ServerReplyError) as caught:
        lobby.join(match["id"], seat=1)
    assert caught.value.code == "match/seat-taken"  # the bot's seat: not free, not "taken"
    assert caught.value.message.startswith(f"seat 1 of match {match['id']} is a bot's seat")
    assert str(caught.value) == (
        f"match/seat-taken: seat 1 of match {match['id']} is a bot's seat (bot: random); only "
        "human seats can be joined (free: 0)"
    )
    assert lobby.match(match["id"]) == before  # nothing changed
    with pytest.raises(ServerReplyError) as caught:
        lobby.join(match["id"], seat=5)
    assert caught.value.code == "request/invalid"
    lobby.join(match["id"])
    with pytest.raises(ServerReplyError) as caught:
        lobby.join(match["id"])
    assert caught.value.code == "match/full"
    with pytest.raises(ServerReplyError) as caught:
        lobby.join(match["id"], seat=0)
    assert str(caught.value) == f"match/seat-taken: seat 0 of match {match['id']} is taken"
    with pytest.raises(ServerReplyError) as caught:
        lobby.join(match["id"], seat=1)
    assert "is a bot's seat (bot: random)" in str(caught.value)
    assert str(caught.value).endswith("(free: none)")
    response = httpx.post(f"{server.url}/api/matches/{match['id']}/join", content=b"{bad json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "request/invalid"


def test_records_of_unfinished_matches_stay_private(lobby: Lobby) -> None:
    match = lobby.create("cage")
    with pytest.raises(ServerReplyError) as caught:
        lobby.record(match["id"])
    assert caught.value.code == "match/not-finished"
