"""AXIA's heuristic: the fast form (engine totals, no itemised sheet) gives exactly the value
defined on the itemised score sheet, in every phase of seeded random games."""

from __future__ import annotations

import random

from gameshelf.agents.axia.policies import heuristic
from gameshelf.core.registry import load
from gameshelf.games.axia.board import SLOT_LINES
from gameshelf.games.axia.rules import AxiaState


def sheet_heuristic(state: AxiaState, player: int) -> float:
    """The heuristic as first defined: read off the itemised score sheet."""
    sheet = state.score_sheet(player)
    value = float(sheet["total"])
    spc, marks = state.card_spaces[player], state.marks[player]
    for row in sheet["scoring_cards"]:
        if row["active"]:
            continue
        slot = ("R1", "R2", "R3", "C1", "C2", "C3").index(row["slot"])
        card = state.game.cards.scoring[state.scoring_slots[player][slot]]
        crit = card.row if slot < 3 else card.column
        progress = max(
            sum(1 for s in line if spc[s] >= 0 and marks[s]) / 6 for line in SLOT_LINES[slot]
        )
        value += crit.points * row["count"] * (0.15 + 0.75 * progress * progress)
    value += 0.6 * sum(1 for s in range(36) if marks[s] == 1)
    return value


def random_states(game_string: str, seed: int, every: int = 7) -> list[AxiaState]:
    """Every ``every``-th state of one seeded random game, and its end."""
    state = load(game_string).new_initial_state(seed)
    assert isinstance(state, AxiaState)
    rng = random.Random(seed)
    out = []
    ply = 0
    while not state.is_terminal():
        if ply % every == 0:
            out.append(state.clone())
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        ply += 1
    out.append(state)
    return out


def test_heuristic_equals_the_score_sheet_definition() -> None:
    states = random_states("axia(players=3)", 11) + random_states("axia(players=1)", 12)
    scored = 0
    for state in states:
        for p in range(state.game.players):
            assert heuristic(state, p) == sheet_heuristic(state, p)
            scored += state.score_sheet(p)["total"] > 0
    assert scored > 10  # positions with points on the sheet were compared, not only empty ones


def test_heuristic_counts_potential_beyond_the_score() -> None:
    """An inactive Scoring card adds potential, so the heuristic exceeds the bare score
    somewhere in a game."""
    states = random_states("axia(players=3)", 5)
    assert any(
        heuristic(s, p) > s.score_sheet(p)["total"] for s in states for p in range(s.game.players)
    )
