"""Agents (bots) that play any gameshelf game through the game protocol.

``make_agent("hard", game, seed=1)`` builds a seeded agent; ``agent.step(state)`` returns the
action id it chooses for the player to move. Names: ``random``, ``greedy``, the levels
``easy``/``medium``/``hard``/``expert`` (algorithm and budget per game, see
:mod:`gameshelf.agents.levels`), the raw algorithms ``mcts``, ``ismcts``, ``alphabeta``, and the
bots of each game's pack (:mod:`gameshelf.agents.packs`; the packs are loaded on import, so
:data:`AGENTS` lists their bots).
"""

from . import levels as _levels
from .alphabeta import AlphaBetaAgent
from .base import AGENTS, Agent, UnknownAgent, make_agent, register_agent
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent
from .packs import GamePack, discover_packs, register_pack
from .simple import GreedyAgent, RandomAgent

LEVELS = _levels.LEVELS
discover_packs()

__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "AlphaBetaAgent",
    "GamePack",
    "GreedyAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "UnknownAgent",
    "make_agent",
    "register_agent",
    "register_pack",
]
