"""The two-player Cage alpha-beta's learned evaluation: its terms' weights and their file.

The evaluation is a logistic model of the game's result for the player to move: ``v`` is the
sum of each term (:func:`~.cage_search.position_terms`, counted from the mover's side) times
its weight, the mover's winning chance is ``1 / (1 + exp(-v))``, and the search scores the
position ``100 * tanh(v / 2)`` (the same chance on its +-100 scale). The weights are fitted to
self-play results by the maintainers' tool ``python -m tools.learn.cage`` and shipped in
``data/cage_weights.json``; the hand-written evaluation they replaced stays as the agent
``cage-hand-eval``.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from functools import cache
from pathlib import Path

from ..weights_file import check_terms, read_weights_file


@dataclass(frozen=True)
class CageWeights:
    """Logistic units per unit of each term (the mover's side is "mine")."""

    single_mine: float
    """A line holding one of the mover's cubies and nothing else."""
    single_theirs: float
    open_mine: float
    """Two of the mover's cubies in a line whose empty third cell no drop fills now, their
    colour having cubies left."""
    open_theirs: float
    dead_mine: float
    """Two of the mover's cubies and an empty cell in a line whose colour has no cubies left
    (only twists can complete it)."""
    dead_theirs: float
    ready_theirs: float
    """An opponent's line that a drop of theirs completes now (the mover's own would be a win
    in one: such positions are not scored by the weights)."""
    twist_mine: float
    """A line that one twist completes (:func:`~.cage_search.twist_threats`)."""
    twist_theirs: float
    cubies: float
    """The mover's cubies left minus the opponent's."""
    tempo: float
    """A constant: being the one to move."""

    def vector(self) -> tuple[float, ...]:
        """The weights in :data:`TERMS` order."""
        return astuple(self)


TERMS = tuple(field.name for field in fields(CageWeights))
"""The terms' names, in the order :func:`~.cage_search.position_terms` counts them."""

LEARNED_PATH = Path(__file__).resolve().parents[1] / "data" / "cage_weights.json"
"""The weights fitted to self-play (``python -m tools.learn.cage train`` writes them)."""


def load_weights(path: Path = LEARNED_PATH) -> CageWeights:
    """The weights of a file ``{"weights": {term: number, ...}, ...}``; ``ValueError`` naming
    the file and what is wrong with it."""
    label = f"Cage weights file {path}"
    data = read_weights_file(path, "Cage weights file")
    values = check_terms(data.get("weights") if isinstance(data, dict) else None, TERMS, label)
    for term in TERMS:
        value = values[term]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{label}: {term} must be a number, got {value!r}")
    return CageWeights(**{term: float(values[term]) for term in TERMS})


@cache
def learned_weights() -> CageWeights:
    """The shipped weights (read once)."""
    return load_weights(LEARNED_PATH)
