"""Hidden information: no view shows another player's hand, items, pending placement or a deck."""

from __future__ import annotations

import json
import random

import pytest

from gameshelf.core import load
from gameshelf.games.axia.rules import AxiaState


def _strings(data: object) -> set[str]:
    """Every string (keys and values) inside JSON data."""
    text = json.dumps(data)
    return set(json.loads(json.dumps(list(_walk(json.loads(text))))))


def _walk(data: object):  # type: ignore[no-untyped-def]
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _walk(value)
    elif isinstance(data, list):
        for value in data:
            yield from _walk(value)


def _secret_ids(state: AxiaState, viewer: int | None) -> set[str]:
    """Card ids the viewer must not see: others' hands, items, offers, pending, both decks."""
    cards = state.game.cards
    secret = {cards.territory[c].id for c in state.territory_deck}
    secret |= {cards.items[i].id for i in state.item_deck}
    for q in range(state.game.players):
        if q == viewer:
            continue
        secret |= {cards.territory[c].id for c in state.hands[q]}
        secret |= {cards.items[i].id for i in state.items[q]}
        secret |= {cards.scoring[c].id for c in state.scoring_offers[q]}
        if state.placements[q] >= 0:
            secret.add(cards.territory[state.placements[q] // 9].id)
    return secret


def _scramble(state: AxiaState, q: int, rng: random.Random) -> AxiaState:
    """A copy where player ``q``'s hidden cards (and the decks) are different."""
    other = state.clone()
    pool = other.territory_deck + other.hands[q]
    rng.shuffle(pool)
    k = len(other.hands[q])
    if len(pool) >= k:
        other.hands[q] = sorted(pool[:k])
        other.territory_deck = sorted(pool[k:])
    items = other.item_deck + other.items[q]
    rng.shuffle(items)
    k = len(other.items[q])
    other.items[q] = items[:k]
    other.item_deck = sorted(items[k:])
    if other.placements[q] >= 0:
        cell = other.placements[q] % 9
        other.placements[q] = (other.placements[q] // 9 + 1) % 60 * 9 + cell
    return other


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_views_never_leak_hidden_cards(players: int) -> None:
    game = load(f"axia(players={players},explore_regions=true)")
    for seed in range(3):
        rng = random.Random(seed * 10 + players)
        state = game.new_initial_state()
        assert isinstance(state, AxiaState)
        checked = 0
        while not state.is_terminal():
            for viewer in [None, *range(players)]:
                seen = _strings(state.view(viewer))
                leaked = seen & _secret_ids(state, viewer)
                assert not leaked, (viewer, leaked, state.position())
                checked += 1
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_do_not_depend_on_other_players_hidden_cards(players: int) -> None:
    game = load(f"axia(players={players})")
    rng = random.Random(players)
    state = game.new_initial_state()
    assert isinstance(state, AxiaState)
    compared = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            for viewer in range(players):
                for q in range(players):
                    if q == viewer:
                        continue
                    other = _scramble(state, q, rng)
                    assert other.view(viewer) == state.view(viewer)
                    compared += 1
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(state.sample_chance(rng))
    assert compared > 100


def test_spectator_sees_no_private_section() -> None:
    game = load("axia(players=2)")
    rng = random.Random(1)
    state = game.new_initial_state()
    for _ in range(200):
        if state.is_terminal():
            break
        view = state.view(None)
        assert "legal_moves" not in view
        for player in view["players"]:
            assert not {"hand", "items", "pending", "offer"} & set(player)
        state.apply_action(
            state.sample_chance(rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
