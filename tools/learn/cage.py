"""Learn the two-player Cage evaluation's weights from self-play, and measure them.

    .venv/bin/python -m tools.learn.cage train [--games 600] [--nodes 3000] [--opening 4]
        [--jobs 2] [--out src/gameshelf/agents/data/cage_weights.json] [--play-weights FILE|hand]
    .venv/bin/python -m tools.learn.cage duel [--weights FILE] [--against FILE|hand]
        [--games 200] [--nodes 12000] [--opening 4] [--jobs 2]

``train`` plays the self-play games of the Cage alpha-beta (``--play-weights``: the
hand-written evaluation by default, or a weights file to iterate from; ``--nodes`` a move, each
game opened by ``--opening`` seeded random plies), fits the weights and writes them with how
they were made: about 9 minutes on two cores at the defaults. ``duel`` plays the weights
against others (default: the hand-written evaluation) on equal node budgets from the same
random openings, each opening once with each side first: about 18 minutes for 200 games at the
defaults (6 games took 32 s).

* **Positions:** self-play games of the Cage alpha-beta on a fixed node budget, each opened by
  a few seeded random plies (so that the games differ); every position whose mover cannot
  complete a line by a drop (the search scores those as won, not by the weights) gives its
  terms (:func:`~gameshelf.agents.cage.search.position_terms`) and the game's result for its
  mover: 1, 0.5 for a draw, 0.
* **Fit:** a logistic regression of that result on the terms (Newton's method with a little
  ridge). The evaluation is ``100 * tanh(v / 2)`` of the weighted terms ``v``, the fit's
  winning chance on the search's scale, so the fitted weights are exactly what it computes.
* **Duel:** weights against others (or the hand-written evaluation) on the same node budget,
  from the same random openings with the seats swapped, so neither side gets the better
  openings.

NumPy is needed for the fit only (``pip install 'gameshelf[rl]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gameshelf.agents.cage.learned import LEARNED_PATH, TERMS, CageWeights, load_weights
from gameshelf.agents.cage.search import CageAlphaBetaAgent, position_terms
from gameshelf.games.cage import CageState

from .command import Learner, learner_main
from .common import newton_logistic, random_opening

Row = tuple[tuple[int, ...], float]
"""A position's terms and the game's result for its mover."""

DUEL_SEEDS = 10_000
"""Duel openings are seeded from here on, apart from the self-play games' openings."""


def _opening(seed: int, plies: int) -> CageState | None:
    """The empty cage with ``plies`` random plies of ``seed`` played (``None`` when they end
    the game)."""
    state = random_opening("cage", seed, plies)
    assert state is None or isinstance(state, CageState)
    return state


def _result(returns: list[float], player: int) -> float:
    value = returns[player]
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def self_play(
    index: int, nodes: int, opening: int, weights: CageWeights | None = None
) -> list[Row]:
    """One self-play game (opening ``index``; ``weights`` None: the hand-written evaluation):
    each judged position's terms and the result for its mover."""
    state = _opening(index, opening)
    if state is None:
        return []
    agents = [
        CageAlphaBetaAgent(state.game, seed=2 * index + seat, node_budget=nodes, weights=weights)
        for seat in (0, 1)
    ]
    seen: list[tuple[tuple[int, ...], int]] = []
    while not state.is_terminal():
        terms = position_terms(state)
        if terms is not None:
            seen.append((tuple(terms), state.player))
        state.apply_action(agents[state.player].step(state))
    returns = state.returns()
    return [(terms, _result(returns, mover)) for terms, mover in seen]


def self_play_job(job: tuple[int, int, int, CageWeights | None]) -> list[Row]:
    """:func:`self_play` of ``(index, nodes, opening, weights)`` (for a process pool)."""
    return self_play(*job)


@dataclass(frozen=True)
class Fit:
    """Fitted weights and how well they predict the results."""

    weights: CageWeights
    positions: int
    cross_entropy: float
    constant_cross_entropy: float
    """Of the best constant chance (the results' mean), for comparison."""


def fit(rows: Sequence[Row], ridge: float = 1e-3) -> Fit:
    """Logistic regression of each row's result on its terms."""
    import numpy as np

    if len(rows) < 10 * len(TERMS):
        raise ValueError(f"{len(rows)} positions are too few to fit {len(TERMS)} weights")
    x = np.array([terms for terms, _ in rows], dtype=float)
    y = np.array([result for _, result in rows], dtype=float)

    def cross_entropy(logits: Any) -> float:
        p = np.clip(1 / (1 + np.exp(-logits)), 1e-12, 1 - 1e-12)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    mean = float(np.clip(y.mean(), 1e-6, 1 - 1e-6))
    constant = cross_entropy(np.full(len(y), np.log(mean / (1 - mean))))
    beta = newton_logistic(x, y, np.zeros(len(TERMS)), ridge)
    weights = CageWeights(*(round(float(value), 4) for value in beta))
    return Fit(weights, len(y), cross_entropy(x @ beta), constant)


def duel(job: tuple[int, int, int, CageWeights | None, CageWeights | None]) -> float:
    """Opening ``index // 2`` played by ``a`` against ``b`` (``None``: the hand-written
    evaluation), ``a`` first on even indices and second on odd ones: ``a``'s result."""
    index, nodes, opening, a, b = job
    state = _opening(DUEL_SEEDS + index // 2, opening)
    if state is None:
        return 0.5
    seat_a = (index + state.player) % 2
    agents = [
        CageAlphaBetaAgent(
            state.game, seed=index, node_budget=nodes, weights=a if seat == seat_a else b
        )
        for seat in (0, 1)
    ]
    while not state.is_terminal():
        state.apply_action(agents[state.player].step(state))
    return _result(state.returns(), seat_a)


def record(result: Fit) -> tuple[dict[str, Any], dict[str, Any]]:
    """The weights file's weights (logistic units) and the fit's own facts."""
    weights = dict(zip(TERMS, result.weights.vector(), strict=True))
    return weights, {"constant_cross_entropy": round(result.constant_cross_entropy, 4)}


# "hand" is the hand-written evaluator, which has no weights: None.
CAGE = Learner(self_play_job, fit, record, duel, load_weights, None, LEARNED_PATH, 600, 3000, 12000)
"""The two-player Cage's learning, as the ``train`` and ``duel`` commands run it."""

if __name__ == "__main__":
    # Run as the module tools.learn.cage, not as __main__: the process pool's workers find
    # the game functions by their module's name.
    from tools.learn import cage

    raise SystemExit(learner_main(__doc__ or "", cage.CAGE))
