"""Measuring a network: games in the real engine against the project's bots, and the curve.

A point of the learning curve is a short match at one training step: the network behind ``master``'s
search (a fixed number of simulations, so the point does not depend on the machine's load) against
one opponent, seats alternated; at a table of three or four the opponent's bot fills every other
seat and the network's seat goes round the table. The opponent is named as the arena and the
terminal name bots, ``NAME@SECONDS`` giving it its own time a move (``hard@0.25``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gameshelf.agents.base import Agent, make_agent
from gameshelf.agents.levels import split_think
from gameshelf.core.game import Game
from gameshelf.core.registry import load
from gameshelf.core.rng import derive_seed

from .master import MasterAgent
from .network import PolicyValueNet
from .recipe import Recipe


@dataclass(frozen=True)
class CurvePoint:
    """One match at one training step: the network's wins, draws and losses at a table of
    ``players``."""

    step: int
    opponent: str
    wins: int
    draws: int
    losses: int
    players: int = 2

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game, a draw shared by the table (half a point at two players, a third
        at three): a seat no better than the others scores one game in ``players``."""
        return (self.wins + self.draws / self.players) / self.games

    @property
    def elo(self) -> float:
        """The Elo difference the score implies, a perfect score counted as half a game short
        of it (so it stays finite)."""
        margin = 0.5 / self.games
        score = min(max(self.score, margin), 1 - margin)
        return -400 * math.log10(1 / score - 1)

    def as_dict(self) -> dict[str, Any]:
        """The point as JSON (its counts; the rates are derived when read)."""
        return asdict(self)


def play_match(
    recipe: Recipe,
    net: PolicyValueNet,
    opponent: str,
    games: int,
    simulations: int,
    step: int,
    seed: int,
) -> CurvePoint:
    """``games`` games of ``recipe``'s game, the network (``simulations`` a move) against
    ``opponent`` in every other seat, the network's seat moving round the table game by game
    (first in game 0). A game counts as the network's win when it is among the winners, a
    loss when only others won, a draw when nobody did."""
    game = load(recipe.game)
    name, think = split_think(opponent)
    results = [0, 0, 0]  # wins, draws, losses
    for index in range(games):
        mine = index % recipe.players
        seed_here = derive_seed(seed, "curve", step, index)
        seats = [
            MasterAgent(game, seed_here, net=net, simulations=simulations)
            if seat == mine
            else _opponent(name, think, game, derive_seed(seed_here, "opponent", seat))
            for seat in range(recipe.players)
        ]
        state = game.new_initial_state(seed_here)
        while not state.is_terminal():
            state.apply_action(seats[state.current_player()].step(state))
        for agent in seats:
            agent.close()
        returns = state.returns()
        results[0 if returns[mine] > 0 else 2 if max(returns) > 0 else 1] += 1
    wins, draws, losses = results
    return CurvePoint(step, opponent, wins, draws, losses, recipe.players)


def _opponent(name: str, think: float | None, game: Game, seed: int) -> Agent:
    """The bot called ``name``, on ``think`` seconds a move when given."""
    agent = make_agent(name, game, seed)
    if think is not None and hasattr(agent, "time_limit"):
        agent.time_limit = think
    return agent


def plot_curve(
    points: list[CurvePoint], path: Path, simulations: int, title: str, players: int = 2
) -> None:
    """The learning curve of the game called ``title`` as a PNG: score against each opponent
    by training step (the network's side searching ``simulations`` simulations a move). At two
    players the right-hand axis gives the implied Elo difference; at more, a line marks the
    fair share of wins, one game in ``players``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 4))
    for opponent in sorted({p.opponent for p in points}):
        mine = sorted((p for p in points if p.opponent == opponent), key=lambda p: p.step)
        games = mine[0].games if mine else 0
        axis.plot(
            [p.step for p in mine],
            [p.score for p in mine],
            marker="o",
            label=f"vs {opponent} ({games} games a point)",
        )
    axis.set_xlabel("training step")
    axis.set_ylabel(f"score (win = 1, draw = 1/{players})")
    axis.set_ylim(-0.02, 1.02)
    if players == 2:
        axis.axhline(0.5, color="grey", linewidth=0.5)
        axis.axhline(0.7, color="grey", linewidth=0.5, linestyle="--")
        elo = axis.secondary_yaxis("right", functions=(_elo_of_score, _score_of_elo))
        elo.set_ylabel("Elo difference")
    else:
        axis.axhline(1 / players, color="grey", linewidth=0.5, label=f"fair share (1/{players})")
    axis.set_title(f"{title}: the network + PUCT, {simulations} simulations a move")
    axis.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _elo_of_score(score: Any) -> Any:
    """The Elo difference of a score (array), kept finite at 0 and 1."""
    return -400 * np.log10(1 / np.clip(score, 1e-3, 1 - 1e-3) - 1)


def _score_of_elo(elo: Any) -> Any:
    """The expected score of an Elo difference (array)."""
    return 1 / (1 + np.power(10.0, -np.asarray(elo) / 400))
