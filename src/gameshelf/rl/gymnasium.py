"""Gymnasium single-agent environments: you play one seat, our bots play the others.

Importing this module registers an id for every registered game (plug-ins included), named by
:func:`gameshelf.rl.gym_id`: ``gameshelf/Axiom-v0``, ``gameshelf/Cage-v0``, ``gameshelf/Axia-v0``
...::

    import gymnasium as gym
    import gameshelf.rl.gymnasium  # registers the ids
    env = gym.make("gameshelf/Cage-v0", game="cage(players=3)", opponent="greedy", seat=1)

Keywords: ``game`` (a game string of that game; options allowed), ``opponent`` (the name of a
:func:`gameshelf.agents.make_agent` bot — ``random``, ``greedy``, ``easy``, ``medium``,
``hard`` … — that plays every other seat), ``seat`` (the seat you play), ``illegal_reward``
(what an illegal action pays; it also ends the episode), ``render_mode`` (``ansi`` or ``human``).

Observations are the PettingZoo ones: ``{"observation": float32 tensor of your seat's view,
"action_mask": int8 over all action ids}``. The reward is your return, paid when the game ends
(AXIA solo: the final score). Chance and the bots are seeded by ``reset(seed=...)``.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gameshelf.agents import Agent, make_agent
from gameshelf.core.errors import InvalidOption
from gameshelf.core.game import Game, State
from gameshelf.core.registry import load

from . import games, gym_id
from .encodings import action_mask, encoder_for
from .pettingzoo import observation_space, resolve_chance

Observation = dict[str, np.ndarray]


class GameshelfEnv(gym.Env[Observation, np.int64]):
    """One seat of a gameshelf game against bots, as a Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game,
        opponent: str = "random",
        seat: int = 0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        expect: str | None = None,
    ) -> None:
        self.game = load(game) if isinstance(game, str) else game
        spec = self.game.spec
        if expect is not None and spec.name != expect:
            raise InvalidOption(f"this environment plays {expect}, not {spec.name}")
        if not 0 <= seat < spec.num_players:
            raise InvalidOption(f"seat {seat} is not a seat of {self.game.game_string}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of ansi, human")
        make_agent(opponent, self.game, 0)  # fail now on an unknown bot name
        self.opponent = opponent
        self.seat = seat
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.num_actions = spec.num_distinct_actions
        self.observation_space = observation_space(  # type: ignore[assignment]
            self.encoder, self.num_actions
        )
        self.action_space = spaces.Discrete(self.num_actions)
        self.chance_rng = random.Random()
        self.bots: dict[int, Agent] = {}
        self.state: State = self.game.new_initial_state()

    def _observation(self) -> Observation:
        return {
            "observation": self.encoder.encode(self.state, self.seat),
            "action_mask": action_mask(self.state, self.num_actions),
        }

    def _info(self) -> dict[str, Any]:
        return {"to_move": self.state.current_player(), "result": self.state.result_text()}

    def _advance(self) -> None:
        """Play chance and the bots until it is our seat's turn or the game is over."""
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                resolve_chance(state, self.chance_rng)
                continue
            player = state.current_player()
            if player == self.seat:
                return
            state.apply_action(self.bots[player].step(state))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a game; ``seed`` fixes chance and the bots' choices."""
        super().reset(seed=seed)
        base = int(self.np_random.integers(0, 2**31 - 1))
        self.chance_rng = random.Random(base)
        self.bots = {
            player: make_agent(self.opponent, self.game, base + 1 + player)
            for player in range(self.game.spec.num_players)
            if player != self.seat
        }
        self.state = self.game.new_initial_state(base)
        self._advance()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for our seat, then let the others move until our next turn."""
        state = self.state
        if state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if action not in state.legal_actions():
            info = {**self._info(), "illegal_action": True}
            return self._observation(), self.illegal_reward, True, False, info
        state.apply_action(action)
        self._advance()
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, done, False, self._info()

    def render(self) -> str | None:
        """The terminal picture (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        text = self.state.render(color=False)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        return action_mask(self.state, self.num_actions)


def env_ids() -> dict[str, str]:
    """Every registered game's Gymnasium id, by game name."""
    return {name: gym_id(name) for name in games()}


def register() -> None:
    """Register every game's id with Gymnasium (done on import; safe to call again, and again
    after a game is registered by hand)."""
    for name, env_id in env_ids().items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="gameshelf.rl.gymnasium:GameshelfEnv",
                kwargs={"game": name, "expect": name},
            )


register()

__all__ = ["GameshelfEnv", "env_ids", "register"]
