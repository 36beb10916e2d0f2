"""Agents (bots) that play any gameshelf game through the game protocol.

``make_agent("hard", game, seed=1)`` builds a seeded agent; ``agent.step(state)`` returns the
action id it chooses for the player to move. Names: ``random``, ``greedy``, the levels
``easy``/``medium``/``hard``/``expert`` (algorithm and budget per game, see
:mod:`gameshelf.agents.levels`) and the raw algorithms ``mcts``, ``ismcts``, ``alphabeta``.
"""

from . import levels as _levels
from .alphabeta import AlphaBetaAgent
from .base import AGENTS, Agent, UnknownAgent, make_agent, register_agent
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent
from .simple import GreedyAgent, RandomAgent

LEVELS = _levels.LEVELS

__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "AlphaBetaAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "UnknownAgent",
    "make_agent",
    "register_agent",
]
