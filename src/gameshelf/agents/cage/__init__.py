"""The Cage's pack: its levels and searches, evaluator and key, trial bots and RL encoder.

Registered through the ``gameshelf.packs`` entry point ``cage`` (``pyproject.toml``). The
searches live beside it: :mod:`.search` (two-player alpha-beta and the three- and four-player
MCTS), :mod:`.multi` (the paranoid alpha-beta), :mod:`.threats`, :mod:`.learned` (the learned
evaluation) and :mod:`.evaluation` (the generic searches' evaluator and key).
"""

from __future__ import annotations

from collections.abc import Mapping

from gameshelf.core.game import Game
from gameshelf.games.cage import CageState

from ..base import Agent
from ..evaluators import GameKnowledge
from ..levels import CAP_FACTOR, LevelSpec
from ..packs import BenchFacts, GamePack, PackBot, Search
from .evaluation import cage_evaluator, cage_key
from .learned import learned_weights
from .multi import CageParanoidAgent
from .search import CageAlphaBetaAgent, CageSearchAgent, CageThreatsAgent

TWO_PLAYERS: Mapping[str, LevelSpec] = {
    "easy": LevelSpec("mcts", 150, 0.1),
    "medium": LevelSpec("mcts", 600, 0.25),
    "hard": LevelSpec("cage-alphabeta", 12000, 1.0),
    "expert": LevelSpec("cage-alphabeta", 36000, 3.0),
}
MORE_PLAYERS: Mapping[str, LevelSpec] = {
    "easy": LevelSpec("mcts", 150, 0.1),
    "medium": LevelSpec("mcts", 600, 0.25),
    # The Cage MCTS (search.py: lines in one in the tree, threat-aware playouts, and the
    # opponent model: a seat seen to play like greedy is predicted so in the tree). It replaced
    # the paranoid alpha-beta (still the bot "cage-paranoid"), which lost the games where
    # another seat was handed lines by greedy
    # (docs/decisions/009-cage-multiplayer-mcts-opponent-model.md).
    "hard": LevelSpec("cage-search", 6000, 1.0),
    "expert": LevelSpec("cage-search", 18000, 3.0),
}
PARANOID = LevelSpec("cage-paranoid", 12000, 1.0)
"""The bot ``cage-paranoid``: the three- and four-player hard level before the Cage MCTS."""


def levels(game: Game) -> Mapping[str, LevelSpec]:
    """The level table of a configured Cage: two players, or three and four."""
    return TWO_PLAYERS if game.spec.num_players == 2 else MORE_PLAYERS


def _alphabeta(
    game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None
) -> Agent:
    return CageAlphaBetaAgent(
        game, seed, node_budget=cap, time_limit=clock, weights=learned_weights()
    )


def _paranoid(
    game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None
) -> Agent:
    return CageParanoidAgent(game, seed, node_budget=cap, time_limit=clock)


def _mcts(game: Game, seed: int | None, spec: LevelSpec, cap: int, clock: float | None) -> Agent:
    return CageSearchAgent(
        game, seed, iterations=cap, time_limit=clock, model_opponents=game.spec.num_players > 2
    )


def _paranoid_bot(game: Game, seed: int | None) -> Agent:
    """``cage-paranoid``: the paranoid alpha-beta on the old hard level's clock."""
    return _paranoid(game, seed, PARANOID, PARANOID.budget * CAP_FACTOR, PARANOID.time_limit)


def _two_player_hard(game: Game, name: str) -> LevelSpec:
    """The two-player hard level, for the bot ``name`` that varies it."""
    if game.spec.num_players != 2:
        raise ValueError(f"{name} plays the two-player Cage only, not {game.game_string}")
    return TWO_PLAYERS["hard"]


def _threats_bot(game: Game, seed: int | None) -> Agent:
    """``cage-hard-threats``: hard's budget with the threat search around its alpha-beta (with
    the hand-written evaluation it was measured with). Tried as hard itself and not adopted:
    checking for chains cost time and good moves
    (docs/decisions/005-cage-two-player-alpha-beta.md); kept to reproduce."""
    spec = _two_player_hard(game, "cage-hard-threats")
    return CageThreatsAgent(
        game, seed, node_budget=spec.budget * CAP_FACTOR, time_limit=spec.time_limit
    )


def _hand_eval_bot(game: Game, seed: int | None) -> Agent:
    """``cage-hand-eval``: hard with the hand-written threat evaluator instead of the learned
    weights (docs/decisions/006-cage-learned-evaluation.md); kept to reproduce."""
    spec = _two_player_hard(game, "cage-hand-eval")
    return CageAlphaBetaAgent(
        game, seed, node_budget=spec.budget * CAP_FACTOR, time_limit=spec.time_limit
    )


def _encoder(game: Game) -> object:
    from .encoding import CageEncoder  # numpy: the rl extra, only when an adapter asks

    return CageEncoder(game)


PACK = GamePack(
    "cage",
    levels=levels,
    searches={
        "cage-alphabeta": Search(_alphabeta, counts="nodes"),
        "cage-paranoid": Search(_paranoid, counts="nodes"),
        "cage-search": Search(_mcts),
    },
    knowledge=GameKnowledge(CageState, cage_evaluator, key=cage_key),
    greedy_looks_ahead=True,
    bots=(
        PackBot(
            "cage-paranoid",
            _paranoid_bot,
            38,
            "Cage only: paranoid alpha-beta, 1 s a move (the old 3-4 player hard)",
        ),
        PackBot(
            "cage-hard-threats",
            _threats_bot,
            39,
            "Cage, 2 players: level hard with the threat-space search (a trial)",
        ),
        PackBot(
            "cage-hand-eval",
            _hand_eval_bot,
            39,
            "Cage, 2 players: level hard with the hand-written evaluation",
        ),
    ),
    encoder=_encoder,
    bench=BenchFacts(reference="connect_four", ratio=0.6),
)
"""The registration that the ``gameshelf.packs`` entry point names (pyproject.toml)."""

__all__ = ["PACK", "levels"]
