"""Per-game evaluators: estimated returns of a non-terminal state, one value per player.

An evaluator maps a state to a list of values in the game's utility range (the same scale as
``state.returns()``). Search agents take one as an injected dependency; :func:`evaluator_for`
picks the default for a game. Evaluators of hidden-information games are only ever called on
states a bot built from its own view (see :mod:`gameshelf.agents.determinize`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from gameshelf.core.game import Game, State

Evaluator = Callable[[State], list[float]]
KeyFn = Callable[[State], Hashable]

#: Weight of a line holding k cubies of one colour and nothing else (k = 0, 1, 2).
CAGE_LINE_WEIGHTS = (0.0, 1.0, 6.0)


def scale(game: Game, values: list[float]) -> list[float]:
    """Map values in [-1, 1] to the game's utility range."""
    low, high = game.spec.min_utility, game.spec.max_utility
    return [low + (v + 1.0) * (high - low) / 2.0 for v in values]


def relative(scores: list[float], temperature: float) -> list[float]:
    """Per player, ``tanh`` of the lead over the best other player (values in [-1, 1])."""
    if len(scores) == 1:
        return [math.tanh(scores[0] / temperature)]
    out = []
    for p, score in enumerate(scores):
        best_other = max(s for q, s in enumerate(scores) if q != p)
        out.append(math.tanh((score - best_other) / temperature))
    return out


def cage_scores(state: State) -> list[float]:
    """Per player: weighted count of lines that only their single colour occupies so far."""
    from gameshelf.games.cage.geometry import LINES

    game = state.game
    board: list[int] = state.board  # type: ignore[attr-defined]
    owner: tuple[int, ...] = game.owner  # type: ignore[attr-defined]
    scores = [0.0] * game.spec.num_players
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


def cage_evaluator(state: State) -> list[float]:
    """Cage: who has more open one-colour lines with two (and one) cubies in them."""
    return scale(state.game, relative(cage_scores(state), 8.0))


def axiom_evaluator(state: State) -> list[float]:
    """Axiom: cube material, plus a small bonus for the side to move's mobility."""
    cubes: dict[object, int] = state.cubes  # type: ignore[attr-defined]
    material = [0.0, 0.0]
    for value in cubes.values():
        material[value >> 6] += 1.0
    mover = state.current_player()
    if 0 <= mover < 2:
        material[mover] += 0.02 * len(state.legal_actions())
    return scale(state.game, relative(material, 3.0))


def _axia_values(state: State, values: list[float]) -> list[float]:
    """Solo: the value itself; else each player's lead turned into a winning chance."""
    if len(values) == 1:
        return [min(values[0], state.game.spec.max_utility)]
    return [(v + 1.0) / 2.0 for v in relative(values, 10.0)]


def axia_evaluator(state: State) -> list[float]:
    """AXIA: each sheet's score plus the potential of its Scoring cards (lines nearly ready to
    activate), wounds and kept items — the AXIA engine's look-ahead heuristic."""
    from gameshelf.games.axia.calibration import heuristic

    n = state.game.spec.num_players
    return _axia_values(state, [heuristic(state, p) for p in range(n)])  # type: ignore[arg-type]


def axia_score_evaluator(state: State) -> list[float]:
    """AXIA: the score sheets as they stand (what a naive greedy player looks at)."""
    n = state.game.spec.num_players
    totals = [float(state.score_sheet(p)["total"]) for p in range(n)]  # type: ignore[attr-defined]
    return _axia_values(state, totals)


def greedy_evaluator_for(game: Game) -> Evaluator:
    """What ``greedy`` maximises: the game's evaluator, except in AXIA the bare score (the
    rulebook's naive greedy player, as in the AXIA calibration harness)."""
    if game.spec.name == "axia":
        return axia_score_evaluator
    return evaluator_for(game)


def zero_evaluator(state: State) -> list[float]:
    """No knowledge: the middle of the utility range for everyone."""
    return scale(state.game, [0.0] * state.game.spec.num_players)


def evaluator_for(game: Game) -> Evaluator:
    """The default evaluator of ``game`` (a neutral one for games without a heuristic)."""
    return {
        "cage": cage_evaluator,
        "axiom": axiom_evaluator,
        "axia": axia_evaluator,
    }.get(game.spec.name, zero_evaluator)


def cage_key(state: State) -> Hashable:
    """Transposition key of a Cage state: board, player to move and the last move."""
    return (tuple(state.board), state.current_player(), state.last)  # type: ignore[attr-defined]


def axiom_key(state: State) -> Hashable:
    """Transposition key of an Axiom state: cubes, sceptres and the side to move."""
    cubes = state.cubes  # type: ignore[attr-defined]
    return (frozenset(cubes.items()), tuple(sorted(state.sceptres)), state.current_player())  # type: ignore[attr-defined]


def position_key(state: State) -> Hashable:
    """Fallback transposition key: the full position string."""
    return state.position()


def key_for(game: Game) -> KeyFn:
    """The transposition key function for ``game``."""
    return {"cage": cage_key, "axiom": axiom_key}.get(game.spec.name, position_key)
