"""What the learned evaluations share (Axiom's, :mod:`.axiom_learn`, and the two-player
Cage's, :mod:`.cage_learn`): games in a process pool, random openings, the logistic fit and the
weights files' term check. Their scripts' command line is :mod:`gameshelf.cli.learn`.

NumPy is needed for the fit only (``pip install 'gameshelf[rl]'``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
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


def read_weights_file(path: Path, label: str) -> Any:
    """The JSON of a weights file; ``ValueError`` naming it (``label``, e.g. ``Axiom weights
    file``) if it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{label} {path}: cannot be read as JSON ({exc})") from None


def check_terms(values: object, terms: Sequence[str], source: str) -> dict[str, Any]:
    """``values`` as a weights mapping with exactly ``terms`` as keys; ``ValueError`` naming
    ``source`` and what is wrong otherwise."""
    if not isinstance(values, dict):
        raise ValueError(f"{source}: no 'weights' object")
    unknown = sorted(set(values) - set(terms))
    missing = [term for term in terms if term not in values]
    if unknown or missing:
        raise ValueError(
            f"{source}: unknown terms {unknown}, missing terms {missing}; "
            f"the terms are {', '.join(terms)}"
        )
    return values
