"""PettingZoo AEC environments over the gameshelf engines (no OpenSpiel in between).

>>> from gameshelf.rl.pettingzoo import env
>>> e = env("cage(players=3)")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` .. ``player_{n-1}`` (seat ids). Each agent's observation is a dict:
``observation`` — the flat ``float32`` tensor of :mod:`gameshelf.rl.encodings` from that seat's
point of view (AXIA: built from that seat's view only), and ``action_mask`` — ``int8`` over the
game's ``num_distinct_actions``, ones at the legal actions of the agent to move (all zeros for
the others). Chance (AXIA's deals, draws and rolls) is resolved inside the environment with an
RNG seeded by ``reset(seed=...)``. Rewards are the game's returns, paid at the end; the games
end on their own (ply caps and repetition rules are part of the rules), so nothing is truncated.
An illegal action raises :class:`gameshelf.core.errors.IllegalMove`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from gameshelf.core.errors import IllegalMove
from gameshelf.core.game import Game, State
from gameshelf.core.registry import load

from .encodings import Encoder, action_mask, encoder_for


def agent_name(seat: int) -> str:
    """The PettingZoo name of seat ``seat``."""
    return f"player_{seat}"


def observation_space(encoder: Encoder, num_actions: int) -> spaces.Dict:
    """The ``{"observation", "action_mask"}`` space shared by the PettingZoo and Gym envs."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                encoder.low, encoder.high, shape=(encoder.size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
        }
    )


def resolve_chance(state: State, rng: random.Random) -> None:
    """Play chance outcomes (with their probabilities) until a player is to move or the end."""
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))


class GameshelfAECEnv(AECEnv):  # type: ignore[misc]
    """A turn-based PettingZoo environment for any gameshelf game string."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": ["ansi", "human"],
        "name": "gameshelf_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, game: str | Game, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = load(game) if isinstance(game, str) else game
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r} is not one of ansi, human")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"gameshelf_{self.game.spec.name}_v0"}
        self.encoder = encoder_for(self.game)
        self.num_actions = self.game.spec.num_distinct_actions
        self.possible_agents = [agent_name(seat) for seat in range(self.game.spec.num_players)]
        self._seat = {name: seat for seat, name in enumerate(self.possible_agents)}
        space = observation_space(self.encoder, self.num_actions)
        self.observation_spaces = {name: space for name in self.possible_agents}
        self.action_spaces = {
            name: spaces.Discrete(self.num_actions) for name in self.possible_agents
        }
        self.rng = random.Random()
        self.state: State = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_distinct_actions)``; the mask tells which ids are legal."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes every chance outcome of the episode."""
        self.rng = random.Random(seed)
        self.state = self.game.new_initial_state(seed)
        resolve_chance(self.state, self.rng)
        self.agents = self.possible_agents[:]
        self.rewards = {name: 0.0 for name in self.agents}
        self._cumulative_rewards = {name: 0.0 for name in self.agents}
        self.terminations = {name: False for name in self.agents}
        self.truncations = {name: False for name in self.agents}
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        player = self.state.current_player()
        if player >= 0:
            return self.possible_agents[player]
        return self.agents[0] if self.agents else self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation tensor and action mask (zeros unless it is to move)."""
        seat = self._seat[agent]
        if self.state.current_player() == seat:
            mask = action_mask(self.state, self.num_actions)
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": self.encoder.encode(self.state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to move (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        if action not in self.state.legal_actions():
            text = self._describe(action)
            raise IllegalMove(f"{agent} cannot play action {action}{text}: it is not legal here")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(action)
        resolve_chance(self.state, self.rng)
        if self.state.is_terminal():
            for seat, value in enumerate(self.state.returns()):
                name = self.possible_agents[seat]
                self.rewards[name] = float(value)
                self.terminations[name] = True
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _describe(self, action: int) -> str:
        try:
            return f" ({self.state.action_to_string(action)})"
        except Exception:
            return ""

    def render(self) -> str | None:
        """The terminal picture (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        text = self.state.render(color=False)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str | Game, render_mode: str | None = None) -> GameshelfAECEnv:
    """The environment without PettingZoo's safety wrappers."""
    return GameshelfAECEnv(game, render_mode)


def env(game: str | Game, render_mode: str | None = None) -> Any:
    """The environment of ``game`` (a game string) inside PettingZoo's usual wrappers."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(game, render_mode))
    return wrappers.OrderEnforcingWrapper(wrapped)


__all__ = ["GameshelfAECEnv", "env", "observation_space", "raw_env", "resolve_chance"]
