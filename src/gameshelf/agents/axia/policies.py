"""AXIA's heuristic and its two reference policies for the solo calibration.

The rules page asks that the reconstructed point values put the strongest bot in the *Slayer*
band (111-150) and that every bot level's and a naive greedy player's averages be recorded (the
greedy player's band is not a target). These reference policies sit beside the project's bots
(the maintainers' tool ``tools/axia_calibration.py`` measures both): ``greedy`` takes the move
with the best immediate score (ties at random); ``planner`` scores moves with the look-ahead
:func:`heuristic` (Scoring cards weighted by how close their lines are to activation, wounds,
items kept), which the AXIA evaluator of :mod:`gameshelf.agents.evaluators` uses too.
They live with the agents, not in the rules package: they judge positions, the rules only play
them. Run ``python -m gameshelf.agents.axia.policies``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from statistics import mean, pstdev

from gameshelf.core.registry import load
from gameshelf.games.axia.board import SLOT_LINES
from gameshelf.games.axia.rules import AxiaState
from gameshelf.games.axia.scoring import criterion_count, score_totals, slot_active, solo_rank

Policy = Callable[[AxiaState, random.Random], int]


def _best(state: AxiaState, rng: random.Random, value: Callable[[AxiaState, int], float]) -> int:
    player = state.current_player()
    best: list[int] = []
    top = float("-inf")
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        score = value(child, player)
        if score > top + 1e-9:
            top, best = score, [action]
        elif abs(score - top) <= 1e-9:
            best.append(action)
    return rng.choice(best)


def immediate_score(state: AxiaState, player: int) -> float:
    """The player's score if the game ended now."""
    return float(state.score_sheet(player)["total"])


def heuristic(state: AxiaState, player: int) -> float:
    """Score now, plus Scoring-card potential weighted by the progress of their best line.

    The score comes from the engine's :func:`~gameshelf.games.axia.scoring.score_totals` (the
    total without the itemised sheet: search asks for it at every playout's end); an inactive
    card adds ``points × count × (0.15 + 0.75 × progress²)``, the progress being the best linked
    line's share of wounded or defeated spaces, and each wounded space 0.6."""
    g = state.game
    spc, marks, slots = state.card_spaces[player], state.marks[player], state.scoring_slots[player]
    value = float(score_totals(g.cards, g.tables, spc, marks, slots, state.items[player])[0])
    for slot in range(6):
        if slots[slot] < 0 or slot_active(slot, spc, marks):
            continue
        card = g.cards.scoring[slots[slot]]
        crit = card.row if slot < 3 else card.column
        count = criterion_count(g.tables, crit, slot, spc, marks)
        progress = max(
            sum(1 for s in line if spc[s] >= 0 and marks[s]) / 6 for line in SLOT_LINES[slot]
        )
        value += crit.points * count * (0.15 + 0.75 * progress * progress)
    value += 0.6 * sum(1 for s in range(36) if marks[s] == 1)
    return value


def greedy(state: AxiaState, rng: random.Random) -> int:
    """Best immediate score, ties at random."""
    return _best(state, rng, immediate_score)


def planner(state: AxiaState, rng: random.Random) -> int:
    """Best :func:`heuristic` value after the move."""
    return _best(state, rng, heuristic)


def play_solo(policy: Policy, seed: int, game_string: str = "axia(players=1)") -> int:
    """Final score of one solo game played by ``policy`` (chance drawn from ``seed``)."""
    state = load(game_string).new_initial_state()
    assert isinstance(state, AxiaState)
    chance_rng = random.Random(seed)
    rng = random.Random(seed + 1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(chance_rng))
        else:
            state.apply_action(policy(state, rng))
    return int(state.score_sheet(0)["total"])


def measure(policy: Policy, games: int, seed: int = 0) -> tuple[float, float]:
    """Mean and standard deviation of ``games`` solo scores."""
    scores = [play_solo(policy, seed + i) for i in range(games)]
    return mean(scores), pstdev(scores)


def main(argv: list[str] | None = None) -> None:
    """Print the solo averages of the random, greedy and planner policies."""
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 40

    def uniform(state: AxiaState, rng: random.Random) -> int:
        return rng.choice(state.legal_actions())

    for name, policy in (("random", uniform), ("greedy", greedy), ("planner", planner)):
        avg, sd = measure(policy, games)
        print(f"{name:8} {games} games: mean {avg:6.1f} sd {sd:5.1f} ({solo_rank(round(avg))})")


if __name__ == "__main__":
    main()
