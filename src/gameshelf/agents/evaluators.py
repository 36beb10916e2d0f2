"""Evaluators: estimated returns of a non-terminal state, one value per player.

An evaluator maps a state to a list of values in the game's utility range (the same scale as
``state.returns()``). Search agents take one as an injected dependency; :func:`evaluator_for`
picks the default for a game. Evaluators of hidden-information games are only ever called on
states a bot built from its own view (see :mod:`gameshelf.agents.determinize`).

What the agents know of a game is the :class:`GameKnowledge` of its pack
(:mod:`gameshelf.agents.packs`), typed on that game's state class and reading only its public
fields. A game without a pack (or whose pack has no knowledge) gets the neutral defaults.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from gameshelf.core.game import Game, State

from .packs import pack_for

Evaluator = Callable[[State], list[float]]
KeyFn = Callable[[State], Hashable]
S = TypeVar("S", bound=State)


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


# --- choosing by game type --------------------------------------------------------------------
def zero_evaluator(state: State) -> list[float]:
    """No knowledge: the middle of the utility range for everyone."""
    return scale(state.game, [0.0] * state.game.spec.num_players)


def position_key(state: State) -> Hashable:
    """Fallback transposition key: the full position string."""
    return state.position()


@dataclass(frozen=True)
class GameKnowledge(Generic[S]):
    """What the search agents know of one game, typed on its state class.

    ``evaluate`` is the search evaluator; ``greedy`` what the one-ply ``greedy`` agent
    maximises (``evaluate`` when ``None``); ``key`` a transposition key cheaper than the
    position string (:func:`position_key` when ``None``).
    """

    state_type: type[S]
    evaluate: Callable[[S], list[float]]
    greedy: Callable[[S], list[float]] | None = None
    key: Callable[[S], Hashable] | None = None

    def _typed(self, function: Callable[[S], Any]) -> Callable[[State], Any]:
        state_type = self.state_type

        def call(state: State) -> Any:
            if not isinstance(state, state_type):
                raise TypeError(
                    f"{function.__name__} needs a {state_type.__name__}, "
                    f"not a {type(state).__name__}"
                )
            return function(state)

        call.__name__ = function.__name__
        call.__doc__ = function.__doc__
        return call

    def evaluator(self) -> Evaluator:
        """The search evaluator, taking any :class:`State` (a wrong one is a TypeError)."""
        evaluate: Evaluator = self._typed(self.evaluate)
        return evaluate

    def greedy_evaluator(self) -> Evaluator:
        """What ``greedy`` maximises, taking any :class:`State`."""
        greedy: Evaluator = self._typed(self.greedy or self.evaluate)
        return greedy

    def key_fn(self) -> KeyFn:
        """The transposition key function, taking any :class:`State`."""
        if self.key is None:
            return position_key
        key: KeyFn = self._typed(self.key)
        return key


def knowledge_for(game: Game) -> GameKnowledge[Any] | None:
    """The knowledge of ``game``'s pack, if its pack has any."""
    return pack_for(game).knowledge


def evaluator_for(game: Game) -> Evaluator:
    """The default evaluator of ``game`` (a neutral one for games without a heuristic)."""
    knowledge = knowledge_for(game)
    return zero_evaluator if knowledge is None else knowledge.evaluator()


def greedy_evaluator_for(game: Game) -> Evaluator:
    """What ``greedy`` maximises: the pack's greedy evaluator, else the game's evaluator."""
    knowledge = knowledge_for(game)
    return zero_evaluator if knowledge is None else knowledge.greedy_evaluator()


def key_for(game: Game) -> KeyFn:
    """The transposition key function for ``game``."""
    knowledge = knowledge_for(game)
    return position_key if knowledge is None else knowledge.key_fn()
