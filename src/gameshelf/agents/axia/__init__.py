"""AXIA's pack: its levels and search, evaluators, determiniser and RL encoder.

Registered through the ``gameshelf.packs`` entry point ``axia`` (``pyproject.toml``). The
search lives beside it: :mod:`.search` (IS-MCTS with equivalent dice merged), :mod:`.policies`
(the heuristic and the calibration players), :mod:`.determinize` (a seat's view dealt into a
world) and :mod:`.evaluation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameshelf.core.game import Game, State
from gameshelf.games.axia import AxiaState

from ..base import Agent
from ..evaluators import GameKnowledge
from ..levels import LevelSpec
from ..packs import BenchFacts, GamePack, Search
from .determinize import axia_determinize, axia_visible
from .evaluation import axia_evaluator, axia_score_evaluator
from .search import AxiaSearchAgent

ROLLOUT = 6
"""AXIA playouts stop after 6 plies and the heuristic judges the rest: random dice play spends
what no player would, so a long random playout says less than the heuristic
(docs/decisions/012-axia-search.md)."""

UP_TO_TWO_PLAYERS: Mapping[str, LevelSpec] = {
    # IS-MCTS with equivalent dice merged, the heuristic as a root bias and the score race on a
    # wider scale (search.py), which beats plain IS-MCTS against greedy
    # (docs/decisions/012-axia-search.md).
    "easy": LevelSpec("greedy", 0, 0.0),
    "medium": LevelSpec("axia-search", 80, 0.25, rollout_depth=ROLLOUT),
    "hard": LevelSpec("axia-search", 400, 1.0, rollout_depth=ROLLOUT),
    "expert": LevelSpec("axia-search", 2000, 4.0, rollout_depth=ROLLOUT),
}
MORE_PLAYERS: Mapping[str, LevelSpec] = {
    # 3-4 players: the same search judging each leaf at once (no random playout: cheaper
    # iterations, no noise from random dice use) with a tighter exploration
    # (search.MULTI_EXPLORATION); solo and 2 players keep the table above.
    "easy": LevelSpec("greedy", 0, 0.0),
    "medium": LevelSpec("axia-search", 80, 0.25, rollout_depth=0),
    "hard": LevelSpec("axia-search", 400, 1.0, rollout_depth=0),
    "expert": LevelSpec("axia-search", 2000, 4.0, rollout_depth=0),
}


def levels(game: Game) -> Mapping[str, LevelSpec]:
    """The level table of a configured AXIA: solo and two players, or three and four."""
    return UP_TO_TWO_PLAYERS if game.spec.num_players <= 2 else MORE_PLAYERS


def _search(game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None) -> Agent:
    return AxiaSearchAgent(
        game, seed, iterations=cap, time_limit=clock, rollout_depth=spec.playout_depth
    )


def results(state: State) -> Mapping[str, Any]:
    """A finished AXIA's scores (and, solo, its rank) for the arena's tables."""
    if not isinstance(state, AxiaState):
        raise TypeError(f"AXIA results need an AXIA state, not a {type(state).__name__}")
    players = state.game.spec.num_players
    figures: dict[str, Any] = {"scores": [state.score_sheet(p)["total"] for p in range(players)]}
    if players == 1:
        figures["rank"] = state.solo_rank()
    return figures


def _encoder(game: Game) -> object:
    from .encoding import AxiaEncoder  # numpy: the rl extra, only when an adapter asks

    return AxiaEncoder(game)


PACK = GamePack(
    "axia",
    levels=levels,
    searches={"axia-search": Search(_search)},
    # greedy maximises the bare score: the rulebook's naive greedy player, as in the AXIA
    # calibration harness
    knowledge=GameKnowledge(AxiaState, axia_evaluator, greedy=axia_score_evaluator),
    determinizer=axia_determinize,
    observer=axia_visible,
    encoder=_encoder,
    bench=BenchFacts(mcts_game="axia(players=1)", reference="backgammon", ratio=2.5),
    results=results,
)
"""The registration that the ``gameshelf.packs`` entry point names (pyproject.toml)."""

__all__ = ["PACK", "ROLLOUT", "levels"]
