"""The agent protocol and the name → agent factory used by the CLI (and later the server)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game, State
from gameshelf.core.rng import make_rng


class UnknownAgent(GameshelfError):
    """An agent name that is not registered."""

    code = "agent/unknown"


class Agent(ABC):
    """Chooses a legal action for the player to move. Seeded, so games can be reproduced."""

    name = "agent"

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = make_rng(seed)

    @abstractmethod
    def step(self, state: State) -> int:
        """The action id to play in ``state`` (never at a chance node or a terminal state)."""

    def close(self) -> None:  # noqa: B027 (a hook: most agents hold nothing)
        """Release what the agent holds outside Python (an external engine's process); the
        drivers call it when a game is over. Most agents hold nothing."""


AGENTS: dict[str, Callable[[Game, int | None], Agent]] = {}


def register_agent(name: str, factory: Callable[[Game, int | None], Agent]) -> None:
    """Make an agent available by name."""
    AGENTS[name] = factory


def agent_factory(name: str) -> Callable[[Game, int | None], Agent]:
    """The factory registered as ``name``; :class:`UnknownAgent` lists the names."""
    factory = AGENTS.get(name)
    if factory is None:
        known = ", ".join(sorted(AGENTS))
        raise UnknownAgent(f"unknown agent {name!r}; available agents: {known}")
    return factory


def make_agent(name: str, game: Game, seed: int | None = None) -> Agent:
    """Build the agent called ``name`` for ``game``; :class:`UnknownAgent` lists the names."""
    return agent_factory(name)(game, seed)
