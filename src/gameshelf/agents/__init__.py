"""Agents (bots) that play any gameshelf game through the game protocol.

``make_agent("random", game, seed=1)`` builds a seeded agent; ``agent.step(state)`` returns the
action id it chooses for the player to move. Stronger agents arrive with the bots issue.
"""

from .base import AGENTS, Agent, make_agent
from .simple import GreedyAgent, RandomAgent

__all__ = ["AGENTS", "Agent", "GreedyAgent", "RandomAgent", "make_agent"]
