"""Learn the Axiom evaluation's weights from self-play, and measure them.

    .venv/bin/python -m tools.learn.axiom train [--games 1200] [--nodes 1500] [--opening 4]
        [--jobs 2] [--out src/gameshelf/agents/data/axiom_weights.json] [--play-weights FILE|hand]
    .venv/bin/python -m tools.learn.axiom duel [--weights FILE] [--against FILE|hand]
        [--games 200] [--nodes 2000] [--opening 4] [--jobs 2]

``train`` plays the self-play games (``--play-weights``: hand-written by default, or a weights
file to iterate from; ``--nodes`` a move, each opened by ``--opening`` seeded random plies),
fits the weights and writes them with how they were made: about 28 minutes on two cores at the
defaults. ``duel`` plays the weights against other weights (default: the hand-written ones) on
equal node budgets from the same random openings, each opening once with each side: about 6
minutes for 200 games.

* **Positions:** self-play games of the Axiom search on a fixed node budget, each opened by a
  few seeded random plies (so that the games differ); every position whose mover cannot capture
  at once (a capture ends the game, the evaluation never sees it) gives the terms of
  :func:`~gameshelf.agents.axiom.learned.eval_terms` and the game's result for its mover: 1, 0.5
  for a draw, 0.
* **Fit:** a logistic regression of that result on the terms (Newton's method with a little
  ridge), the weights scaled so that a cube is worth 100 as in the hand-written evaluation.
  The evaluation is linear in its terms, so the fitted weights are exactly what the search
  computes with.
* **Duel:** the learned weights against others on the same node budget (the same nodes cost
  the same time: both compute the same terms), from the same random openings with the seats
  swapped, so neither side gets the better openings.

NumPy is needed for the fit only (``pip install 'gameshelf[rl]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gameshelf.agents.axiom.learned import (
    DEFAULT_WEIGHTS,
    LEARNED_PATH,
    TERMS,
    Weights,
    board_of,
    eval_terms,
    load_weights,
    moves_of,
    summarise,
)
from gameshelf.agents.axiom.search import AxiomSearchAgent

from .command import Learner, learner_main
from .common import newton_logistic, random_opening

Row = tuple[tuple[int, ...], float]
"""A position's terms and the game's result for its mover."""


def _opening(seed: int, plies: int) -> Any:
    """The start with ``plies`` random plies of ``seed`` played (``None`` when they end the
    game)."""
    return random_opening("axiom", seed, plies)


DUEL_SEEDS = 10_000
"""Duel openings are seeded from here on, apart from the self-play games' openings."""


def position_terms(state: Any) -> tuple[int, ...] | None:
    """The terms of ``state`` for its mover, or ``None`` when the mover can capture."""
    me = state.to_move
    mine = list(state.legal_actions())
    theirs = moves_of(state, 1 - me)
    board = board_of(state)
    sides = summarise(board, me, mine), summarise(board, 1 - me, theirs)
    if sides[0].captures:
        return None
    return eval_terms(state, mine, theirs, sides)


def self_play(
    index: int, nodes: int, opening: int, weights: Weights = DEFAULT_WEIGHTS
) -> list[Row]:
    """One self-play game (opening ``index``): each judged position's terms and result."""
    state = _opening(index, opening)
    if state is None:
        return []
    game = state.game
    agents = [
        AxiomSearchAgent(game, seed=2 * index + seat, node_budget=nodes, weights=weights)
        for seat in (0, 1)
    ]
    seen: list[tuple[tuple[int, ...], int]] = []
    while not state.is_terminal():
        terms = position_terms(state)
        if terms is not None:
            seen.append((terms, state.to_move))
        state.apply_action(agents[state.to_move].step(state))
    winner = state.winner()
    return [(terms, _result(winner, mover)) for terms, mover in seen]


def _result(winner: int | None, player: int) -> float:
    if winner is None or winner < 0:
        return 0.5
    return 1.0 if winner == player else 0.0


@dataclass(frozen=True)
class Fit:
    """Fitted weights and how well they (and the hand-written ones) predict the results."""

    weights: Weights
    positions: int
    cross_entropy: float
    default_cross_entropy: float
    """Of the hand-written weights at their best scale (for comparison)."""
    scale: float
    """Centi-cubes per logistic unit of the fitted weights."""


def fit(rows: Sequence[Row], ridge: float = 1e-3) -> Fit:
    """Logistic regression of each row's result on its terms; weights with a cube at 100."""
    import numpy as np

    if not rows:
        raise ValueError("no positions to fit")
    x = np.array([terms for terms, _ in rows], dtype=float)
    x[:, TERMS.index("cube_mobility")] /= 4  # the weight is per four cube moves
    y = np.array([result for _, result in rows], dtype=float)

    def cross_entropy(beta: Any) -> float:
        p = np.clip(1 / (1 + np.exp(-(x @ beta))), 1e-12, 1 - 1e-12)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    default = np.array([getattr(DEFAULT_WEIGHTS, t) for t in TERMS], dtype=float)
    default_best = min(cross_entropy(default / s) for s in np.linspace(25, 1000, 40))
    beta = newton_logistic(x, y, default / 250, ridge)
    cube = float(beta[TERMS.index("cube")])
    if not cube > 0:
        raise ValueError(f"the fit gives a cube no positive worth ({cube:.4f}): too few games")
    weights = Weights(**{t: round(float(v) * 100 / cube) for t, v in zip(TERMS, beta, strict=True)})
    return Fit(weights, len(y), cross_entropy(beta), default_best, 100 / cube)


def duel(job: tuple[int, int, int, Weights, Weights]) -> float:
    """Opening ``index`` played by weights ``a`` against ``b``, ``a`` as black on even
    indices and white on odd ones: ``a``'s result (1, 0.5, 0)."""
    index, nodes, opening, a, b = job
    state = _opening(DUEL_SEEDS + index // 2, opening)
    if state is None:
        return 0.5
    seat_a = index % 2
    agents = [
        AxiomSearchAgent(state.game, seed=index, node_budget=nodes, weights=a if s == seat_a else b)
        for s in (0, 1)
    ]
    while not state.is_terminal():
        state.apply_action(agents[state.to_move].step(state))
    return _result(state.winner(), seat_a)


def self_play_job(job: tuple[int, int, int, Weights]) -> list[Row]:
    """:func:`self_play` of ``(index, nodes, opening, weights)`` (for a process pool)."""
    return self_play(*job)


def record(result: Fit) -> tuple[dict[str, Any], dict[str, Any]]:
    """The weights file's weights (centi-cubes) and the fit's own facts."""
    weights = {t: getattr(result.weights, t) for t in result.weights.__dataclass_fields__}
    return weights, {
        "hand_written_cross_entropy": round(result.default_cross_entropy, 4),
        "centi_cubes_per_logistic_unit": round(result.scale, 1),
    }


AXIOM = Learner(
    self_play_job, fit, record, duel, load_weights, DEFAULT_WEIGHTS, LEARNED_PATH, 1200, 1500, 2000
)
"""Axiom's learning, as the ``train`` and ``duel`` commands run it."""

if __name__ == "__main__":
    # Run as the module tools.learn.axiom, not as __main__: the process pool's workers find
    # the game functions by their module's name.
    from tools.learn import axiom

    raise SystemExit(learner_main(__doc__ or "", axiom.AXIOM))
