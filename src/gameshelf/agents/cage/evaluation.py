"""The Cage's evaluator and transposition key, for the searches of every level."""

from __future__ import annotations

from collections.abc import Hashable

from gameshelf.games.cage import CageState
from gameshelf.games.cage.geometry import LINES

from ..evaluators import relative, scale

#: Weight of a line holding k cubies of one colour and nothing else (k = 0, 1, 2).
CAGE_LINE_WEIGHTS = (0.0, 1.0, 6.0)


def cage_scores(state: CageState) -> list[float]:
    """Per player: weighted count of lines that only their single colour occupies so far."""
    board = state.board
    owner = state.game.owner
    scores = [0.0] * state.game.spec.num_players
    for a, b, c in LINES:
        values = {board[a], board[b], board[c]}
        values.discard(0)
        if len(values) != 1:
            continue
        colour = values.pop()
        filled = (board[a] != 0) + (board[b] != 0) + (board[c] != 0)
        if filled < 3:
            scores[owner[colour - 1]] += CAGE_LINE_WEIGHTS[filled]
    return scores


def cage_evaluator(state: CageState) -> list[float]:
    """Cage: who has more open one-colour lines with two (and one) cubies in them."""
    return scale(state.game, relative(cage_scores(state), 8.0))


def cage_key(state: CageState) -> Hashable:
    """Transposition key of a Cage state: what the repetition rule compares (board, player to
    move, what the no-reverse rule forbids next) and the ply. A twisting cycle brings a board
    back some plies later, with another history and other distances to every win; without the
    ply such positions shared one entry, and a depth-6 search proved a win that the exact
    solver refutes (tests/agents/test_cage_search.py)."""
    return (state.position_key(), state.ply)
