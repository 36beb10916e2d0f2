"""Per-game evaluators: estimated returns of a non-terminal state, one value per player.

An evaluator maps a state to a list of values in the game's utility range (the same scale as
``state.returns()``). Search agents take one as an injected dependency; :func:`evaluator_for`
picks the default for a game. Evaluators of hidden-information games are only ever called on
states a bot built from its own view (see :mod:`gameshelf.agents.determinize`).

What the agents know of a game is one :class:`GameKnowledge` per game class, typed on that
game's state class and reading only its public fields; it is chosen by the game's type (its
class or a base class), never by name. A game from another package gets the neutral defaults
until it calls :func:`register_knowledge`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from gameshelf.agents.axia_policies import heuristic as axia_heuristic
from gameshelf.core.game import Game, State
from gameshelf.games.axia import AxiaGame, AxiaState
from gameshelf.games.axiom import AxiomGame, AxiomState
from gameshelf.games.cage import CageGame, CageState
from gameshelf.games.cage.geometry import LINES

Evaluator = Callable[[State], list[float]]
KeyFn = Callable[[State], Hashable]
S = TypeVar("S", bound=State)

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


# --- the Cage ---------------------------------------------------------------------------------
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


# --- Axiom ------------------------------------------------------------------------------------
def axiom_evaluator(state: AxiomState) -> list[float]:
    """Axiom: cube material, plus a small bonus for the side to move's mobility."""
    material = [0.0, 0.0]
    for value in state.cubes.values():
        material[value >> 6] += 1.0
    mover = state.current_player()
    if 0 <= mover < 2:
        material[mover] += 0.02 * len(state.legal_actions())
    return scale(state.game, relative(material, 3.0))


def axiom_key(state: AxiomState) -> Hashable:
    """Transposition key of an Axiom state: cubes, sceptres and the side to move."""
    return (
        frozenset(state.cubes.items()),
        tuple(sorted(state.sceptres)),
        state.current_player(),
    )


# --- AXIA -------------------------------------------------------------------------------------
def _axia_values(state: AxiaState, values: list[float]) -> list[float]:
    """Solo: the value itself; else each player's lead turned into a winning chance."""
    if len(values) == 1:
        return [min(values[0], state.game.spec.max_utility)]
    return [(v + 1.0) / 2.0 for v in relative(values, 10.0)]


def axia_evaluator(state: AxiaState) -> list[float]:
    """AXIA: each sheet's score plus the potential of its Scoring cards (lines nearly ready to
    activate), wounds and kept items — the AXIA engine's look-ahead heuristic."""
    n = state.game.spec.num_players
    return _axia_values(state, [axia_heuristic(state, p) for p in range(n)])


def axia_score_evaluator(state: AxiaState) -> list[float]:
    """AXIA: the score sheets as they stand (what a naive greedy player looks at)."""
    n = state.game.spec.num_players
    return _axia_values(state, [float(state.score_sheet(p)["total"]) for p in range(n)])


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


_KNOWLEDGE: dict[type[Game], GameKnowledge[Any]] = {}


def register_knowledge(game_type: type[Game], knowledge: GameKnowledge[Any]) -> None:
    """Give the agents an evaluator (and optionally a greedy evaluator and a key) for every
    game of ``game_type`` or of a subclass of it."""
    if not (isinstance(game_type, type) and issubclass(game_type, Game)):
        raise TypeError(f"register_knowledge needs a Game subclass, not {game_type!r}")
    _KNOWLEDGE[game_type] = knowledge


def knowledge_for(game: Game) -> GameKnowledge[Any] | None:
    """The knowledge registered for ``game``'s class or its nearest base class, if any."""
    for cls in type(game).__mro__:
        found = _KNOWLEDGE.get(cls)
        if found is not None:
            return found
    return None


def evaluator_for(game: Game) -> Evaluator:
    """The default evaluator of ``game`` (a neutral one for games without a heuristic)."""
    knowledge = knowledge_for(game)
    return zero_evaluator if knowledge is None else knowledge.evaluator()


def greedy_evaluator_for(game: Game) -> Evaluator:
    """What ``greedy`` maximises: the game's evaluator, except in AXIA the bare score (the
    rulebook's naive greedy player, as in the AXIA calibration harness)."""
    knowledge = knowledge_for(game)
    return zero_evaluator if knowledge is None else knowledge.greedy_evaluator()


def key_for(game: Game) -> KeyFn:
    """The transposition key function for ``game``."""
    knowledge = knowledge_for(game)
    return position_key if knowledge is None else knowledge.key_fn()


register_knowledge(CageGame, GameKnowledge(CageState, cage_evaluator, key=cage_key))
register_knowledge(AxiomGame, GameKnowledge(AxiomState, axiom_evaluator, key=axiom_key))
register_knowledge(AxiaGame, GameKnowledge(AxiaState, axia_evaluator, greedy=axia_score_evaluator))
