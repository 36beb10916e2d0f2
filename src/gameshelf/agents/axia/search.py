"""AXIA's search: IS-MCTS that skips equivalent dice and is steered at the root by the heuristic.

Two things make plain IS-MCTS waste its iterations in AXIA:

* **Equivalent dice.** Two unused dice of the same type showing the same value are
  interchangeable: hitting a beast with one or the other leaves the same position. The pool
  often holds such twins, so many moves are searched twice or more. :func:`distinct_dice_actions`
  keeps one move of each class (the lowest die index), in the tree and at the root.
* **Wide roots.** A hit turn offers up to (dice × live beasts) + items moves; at about a
  thousand iterations a move, each gets a handful of visits and the most visited one is close
  to noise. :meth:`AxiaSearchAgent.root_prior` rates every root move with the AXIA evaluator
  (:func:`gameshelf.agents.axia.policies.heuristic` turned into a lead) one ply ahead and adds
  it as a progressive bias, which fades as the search gathers visits.

* **A saturated evaluator.** The default AXIA evaluator turns a lead into a winning chance
  with ``tanh(lead / 10)``: a lead of 25 points already reads as a sure win, so when one side
  is well ahead every move looks alike and the search plays at random. The search here uses a
  wider scale (:data:`AXIA_LEAD_SCALE`), which keeps the score race visible.

All of it reads only the bot's determinisations of its own view, like the IS-MCTS it extends.
"""

from __future__ import annotations

from typing import Any

from gameshelf.core.game import Game, State
from gameshelf.games.axia.actions import ChangeDie, Hit, Waste, ZorakHit, decode
from gameshelf.games.axia.rules import AxiaState

from ..evaluators import relative
from ..ismcts import ISMCTSAgent
from .policies import heuristic

AXIA_PRIOR_WEIGHT = 1.0
"""Weight of the root heuristic's progressive bias in games of 2-4 players (values and prior
both lie in [0, 1])."""
SOLO_PRIOR_WEIGHT = 0.0
"""Solo games search without the root bias: the reconstructed card values were calibrated so
that ``hard`` averages in the rulebook's *Slayer* band (111-150), and a stronger solo bot would
leave it (a calibration for the card data, not for the bot)."""
MULTI_EXPLORATION = 0.25
"""UCB exploration with 3-4 players (2 players and solo keep IS-MCTS's 0.7). A lead read as
``tanh(lead / 30)`` moves a value by about 1/60 a point, so at 0.7 the exploration term swamped
the differences between moves and the visits stayed close to uniform. The short A/B that chose
it was within the noise, so the real-level tables of docs/strength.md decide
(docs/decisions/012-axia-search.md)."""
AXIA_LEAD_SCALE = 30.0
"""Points of heuristic lead that read as ``tanh(1)`` in the evaluator: at a narrower scale a
modest lead already looks won and every move alike, a wider one gains nothing
(docs/decisions/012-axia-search.md)."""


def axia_lead_evaluator(state: State) -> list[float]:
    """Per player: solo, the :func:`heuristic` value; else ``(1 + tanh(lead / scale)) / 2``,
    the lead being the heuristic over the best other player's."""
    if not isinstance(state, AxiaState):
        raise TypeError("axia_lead_evaluator needs an AXIA state")
    values = [heuristic(state, p) for p in range(state.game.players)]
    if len(values) == 1:
        return [min(values[0], state.game.spec.max_utility)]
    return [(v + 1.0) / 2.0 for v in relative(values, AXIA_LEAD_SCALE)]


def _die_key(state: AxiaState, action: int) -> tuple[int, ...] | None:
    """The class of a die-using move: (kind, die type, die value, rest); ``None`` for others."""
    move = decode(action)
    if isinstance(move, Hit):
        kind, die, rest = 0, move.die, move.space
    elif isinstance(move, Waste):
        kind, die, rest = 1, move.die, 0
    elif isinstance(move, ZorakHit):
        kind, die, rest = 2, move.die, move.space
    elif isinstance(move, ChangeDie):
        kind, die, rest = 3, move.die, move.value
    else:
        return None
    return (kind, int(state.game.is_magic_die(die)), state.dice[die], rest)


def distinct_dice_actions(state: AxiaState, legal: list[int]) -> list[int]:
    """``legal`` without moves that only differ from an earlier one by an equivalent die (same
    type, same value); the order of the rest is kept."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for action in legal:
        key = _die_key(state, action)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        out.append(action)
    return out


class AxiaSearchAgent(ISMCTSAgent):
    """IS-MCTS for AXIA with equivalent dice merged, a heuristic progressive bias at the root
    (``prior_weight``: :data:`AXIA_PRIOR_WEIGHT`, solo :data:`SOLO_PRIOR_WEIGHT`),
    :func:`axia_lead_evaluator` unless another evaluator is given and, with 3-4 players, the
    exploration :data:`MULTI_EXPLORATION` unless another is given; other arguments as
    :class:`ISMCTSAgent`."""

    name = "axia-search"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        prior_weight: float | None = None,
        **kwargs: Any,
    ) -> None:
        if prior_weight is None:
            solo = game.spec.num_players == 1
            prior_weight = SOLO_PRIOR_WEIGHT if solo else AXIA_PRIOR_WEIGHT
        if game.spec.num_players > 2:
            kwargs.setdefault("exploration", MULTI_EXPLORATION)
        kwargs.setdefault("evaluator", axia_lead_evaluator)
        super().__init__(game, seed, prior_weight=prior_weight, **kwargs)

    def actions(self, world: State) -> list[int]:
        """Legal moves with equivalent dice merged (one move per die class)."""
        legal = world.legal_actions()
        if isinstance(world, AxiaState) and not world.is_chance_node():
            return distinct_dice_actions(world, legal)
        return legal

    def root_prior(self, world: State, me: int, legal: list[int]) -> dict[int, float]:
        """Each root move's evaluator value for ``me`` one ply ahead, scaled so the worst
        move gets 0 and the best 1 (all 0 when they tie)."""
        values = {}
        for action in legal:
            child = world.clone()
            child.apply_action(action)
            values[action] = self.evaluator(child)[me]
        low, high = min(values.values()), max(values.values())
        if high - low <= 1e-12:
            return dict.fromkeys(values, 0.0)
        return {a: (v - low) / (high - low) for a, v in values.items()}
