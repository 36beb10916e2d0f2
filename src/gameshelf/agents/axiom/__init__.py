"""Axiom's pack: its levels and search, evaluator and key, reference bots and RL encoder.

Registered through the ``gameshelf.packs`` entry point ``axiom`` (``pyproject.toml``). The
search lives beside it: :mod:`.search` (the Axiom search of the levels), :mod:`.learned` (its
learned evaluation), :mod:`.book` (the opening book of a trial bot) and :mod:`.evaluation` (the
generic searches' evaluator and key).
"""

from __future__ import annotations

from collections.abc import Mapping

from gameshelf.core.game import Game
from gameshelf.games.axiom import AxiomState

from ..alphabeta import AlphaBetaAgent
from ..base import Agent
from ..evaluators import GameKnowledge
from ..levels import LevelSpec, build_level
from ..packs import BenchFacts, GamePack, PackBot, Search
from .evaluation import axiom_evaluator, axiom_key
from .learned import DEFAULT_WEIGHTS, learned_value_scale, learned_weights
from .search import VALUE_SCALE, AxiomSearchAgent

LEVELS: Mapping[str, LevelSpec] = {
    "easy": LevelSpec("greedy", 0, 0.0),
    "medium": LevelSpec("axiom-search", 300, 0.3),
    "hard": LevelSpec("axiom-search", 2000, 1.5),
    "expert": LevelSpec("axiom-search", 8000, 5.0),
}
CLASSIC_TIME_FACTOR = 3.0
"""How many times ``hard``'s seconds a move the classical Axiom engine gets (the strength
target pits hard against an alpha-beta engine given three times its time)."""


def levels(game: Game) -> Mapping[str, LevelSpec]:
    """Axiom's level table (one for every option)."""
    return LEVELS


def _search(game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None) -> Agent:
    return AxiomSearchAgent(
        game,
        seed,
        time_limit=clock,
        node_budget=cap,
        weights=learned_weights(),
        value_scale=learned_value_scale(),
    )


def _hard(game: Game, seed: int | None) -> AxiomSearchAgent:
    """The hard level's Axiom search, for a bot that varies it."""
    agent = build_level(game, "hard", seed)
    assert isinstance(agent, AxiomSearchAgent)
    return agent


def _book_bot(game: Game, seed: int | None) -> Agent:
    """``axiom-hard-book``: the hard level answering from the second player's opening book
    (:mod:`.book`). Tried as hard itself and not adopted: it won no more games against the
    classical engine than hard without it (docs/decisions/010-axiom-search.md); kept to
    reproduce."""
    agent = _hard(game, seed)
    agent.book = True
    return agent


def _hand_eval_bot(game: Game, seed: int | None) -> Agent:
    """``axiom-hand-eval``: the hard level with the hand-written evaluation weights, which the
    levels played with before the weights learned from self-play (``tools/learn/axiom.py``);
    kept to measure one against the other."""
    agent = _hard(game, seed)
    agent.weights = DEFAULT_WEIGHTS
    agent.value_scale = VALUE_SCALE
    return agent


def _classic_bot(game: Game, seed: int | None) -> Agent:
    """A classical alpha-beta Axiom engine: negamax deepened on the clock with a transposition
    table, killer and history ordering, and the plain evaluation (cubes and a little mobility),
    given :data:`CLASSIC_TIME_FACTOR` times ``hard``'s seconds a move and no node cap. The bot
    ``axiom-classic`` stands in for an external alpha-beta engine given three times hard's
    time, which this project does not have."""
    seconds = CLASSIC_TIME_FACTOR * LEVELS["hard"].time_limit
    return AlphaBetaAgent(game, seed, max_depth=64, node_budget=1 << 62, time_limit=seconds)


def _previous_hard_bot(game: Game, seed: int | None) -> Agent:
    """Axiom's ``hard`` level as it was before the Axiom search: depth 3, 6,000 nodes, a 1.6 s
    cap. Kept as the bot ``axiom-previous-hard`` so the strength page can measure the new
    level against the old one."""
    return AlphaBetaAgent(game, seed, max_depth=3, node_budget=6000, time_limit=1.6)


def _encoder(game: Game) -> object:
    from .encoding import AxiomEncoder  # numpy: the rl extra, only when an adapter asks

    return AxiomEncoder(game)


PACK = GamePack(
    "axiom",
    levels=levels,
    searches={"axiom-search": Search(_search, counts="nodes")},
    knowledge=GameKnowledge(AxiomState, axiom_evaluator, key=axiom_key),
    bots=(
        PackBot(
            "axiom-previous-hard",
            _previous_hard_bot,
            38,
            "Axiom only: the hard level before the Axiom search (depth 3)",
        ),
        PackBot(
            "axiom-classic",
            _classic_bot,
            39,
            "Axiom only: classical alpha-beta given 3x hard's time a move",
        ),
        PackBot(
            "axiom-hard-book",
            _book_bot,
            39,
            "Axiom only: level hard answering from an opening book (a trial)",
        ),
        PackBot(
            "axiom-hand-eval",
            _hand_eval_bot,
            39,
            "Axiom only: level hard with the hand-written evaluation weights",
        ),
    ),
    encoder=_encoder,
    bench=BenchFacts(
        reference="chess",
        ratio=0.3,
        variants=(
            "axiom(sceptre_clearance=tall)",
            "axiom(allow_overhang=true)",
            "axiom(require_connected=true)",
        ),
    ),
)
"""The registration that the ``gameshelf.packs`` entry point names (pyproject.toml)."""

__all__ = ["PACK", "levels"]
