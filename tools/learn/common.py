"""What the learning of the evaluations shares (Axiom's, :mod:`tools.learn.axiom`, and the
two-player Cage's, :mod:`tools.learn.cage`): games in a process pool, random openings and the
logistic fit. Their command line is :mod:`tools.learn.command`; the levels read the weights
files with :mod:`gameshelf.agents.weights_file`.

NumPy is needed for the fit only (``pip install 'gameshelf[rl]'``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gameshelf.core.game import State
from gameshelf.core.registry import load


def run_jobs(func: Callable[[Any], Any], jobs: Sequence[Any], workers: int) -> Iterator[Any]:
    """``func`` over ``jobs`` in ``workers`` processes (in order; one: in this process)."""
    if workers <= 1:
        yield from map(func, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(func, jobs)


def random_opening(game_string: str, seed: int, plies: int) -> State | None:
    """The start of ``game_string`` with ``plies`` uniformly random plies of ``seed`` played
    (``None`` when they end the game): what makes self-play and duel games differ."""
    state = load(game_string).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return None
    return state


def newton_logistic(x: Any, y: Any, start: Any, ridge: float) -> Any:
    """The coefficients of a logistic regression of ``y`` (results in [0, 1]) on the rows of
    ``x``: Newton's method from ``start``, with a ridge of ``ridge`` per row."""
    import numpy as np

    beta = np.array(start, dtype=float)
    penalty = ridge * len(y) * np.eye(len(beta))
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ beta)))
        gradient = x.T @ (p - y) + penalty @ beta
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        beta = beta - step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return beta
