"""AXIA over the real protocol: no message carries another seat's hand, items, offer, pending
placement or any deck order — to seated players or to a spectator."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from gameshelf.core.record import parse_record, replay
from gameshelf.games.axia.rules import AxiaState
from gameshelf.server.client import Lobby, SeatClient

from .conftest import RunningServer
from .helpers import play_to_end

PRIVATE_KEYS = {"hand", "items", "offer", "pending"}


def _player_entries(message: dict[str, Any]) -> list[tuple[int | None, int, dict[str, Any]]]:
    """(viewer, player index, entry) for every player entry of every view in a message."""
    entries = [(None, i, p) for i, p in enumerate(message["public"]["players"])]
    for seat, part in message["seats"].items():
        entries += [(int(seat), i, p) for i, p in enumerate(part["view"]["players"])]
    return entries


def _deck_orders(state: AxiaState) -> list[str]:
    """JSON fragments of every deck's order (three cards in a row), which must never travel."""
    cards = state.game.cards
    fragments = []
    for deck, pool in (
        (state.territory_deck, cards.territory),
        (state.item_deck, cards.items),
        (state.scoring_deck, cards.scoring),
    ):
        ids = [pool[i].id for i in deck]
        fragments += [json.dumps(ids[k : k + 3])[1:-1] for k in range(0, max(0, len(ids) - 2))]
    return fragments


def _check_messages(received: list[dict[str, Any]], held: set[int], states: list[Any]) -> int:
    checked = 0
    for message in received:
        if message.get("type") != "state":
            continue
        assert {int(s) for s in message["seats"]} == held
        for viewer, player, entry in _player_entries(message):
            if viewer != player:
                assert not PRIVATE_KEYS & set(entry), (viewer, player, sorted(entry))
        text = json.dumps(message)
        state = states[message["plies"]]
        for fragment in _deck_orders(state):
            assert fragment not in text
        for seat in range(len(state.hands)):
            if seat in held:
                continue
            # Card ids are unique, and a card in a hand is nowhere face up.
            for card in state.hands[seat]:
                assert f'"{state.game.cards.territory[card].id}"' not in text
            for item in state.items[seat]:
                assert f'"{state.game.cards.items[item].id}"' not in text
        checked += 1
    return checked


@pytest.mark.parametrize("players", [2, 3])
def test_every_seat_and_a_spectator_see_only_their_own(
    lobby: Lobby, server: RunningServer, players: int
) -> None:
    match = lobby.create(f"axia(players={players})", [{"kind": "human"}] * players)
    tokens = [lobby.join(match["id"])["token"] for _ in range(players)]
    clients = [SeatClient(server.url, match["id"], [token]) for token in tokens]
    watcher = SeatClient(server.url, match["id"])
    threads = [
        threading.Thread(target=play_to_end, args=(client, seat))
        for seat, client in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    watcher.wait_for(lambda s: s["status"] == "finished")
    for client in clients:
        client.wait_for(lambda s: s["status"] == "finished")
    states = replay(parse_record(lobby.record(match["id"])))
    assert all(isinstance(state, AxiaState) for state in states)
    for seat, client in enumerate(clients):
        assert _check_messages(client.received, {seat}, states) > 10
        client.close()
    assert _check_messages(watcher.received, set(), states) > 10
    watcher.close()


def test_bots_in_every_seat_and_a_spectator(lobby: Lobby, server: RunningServer) -> None:
    match = lobby.create("axia(players=4)", [{"kind": "bot", "agent": "random"}] * 4, seed=9)
    with SeatClient(server.url, match["id"]) as watcher:
        watcher.wait_for(lambda s: s["status"] == "finished")
        states = replay(parse_record(lobby.record(match["id"])))
        assert _check_messages(watcher.received, set(), states) >= 1
