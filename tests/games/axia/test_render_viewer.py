"""The terminal picture for a player shows only what that player's view holds."""

from __future__ import annotations

import random

import gameshelf


def test_a_players_picture_hides_the_others_face_down_scoring_cards() -> None:
    state = gameshelf.load("axia(players=2)").new_initial_state(3)
    rng = random.Random(1)
    for _ in range(12):
        chance = state.current_player() < 0
        state.apply_action(
            state.sample_chance(rng) if chance else rng.choice(state.legal_actions())
        )
    hidden = [state.game.cards.scoring[c].id for c in state.scoring_slots[1] if c >= 0]
    assert hidden, "player 2 has placed a Scoring card face down by now"
    mine = state.render(viewer=0)
    assert not any(card in mine for card in hidden)
    assert "??" in mine
    assert all(card in state.render() for card in hidden)  # the full picture still has them
