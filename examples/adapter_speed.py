"""Steps per second of uniformly random play: the raw engine and each adapter, per game.

    .venv/bin/python examples/adapter_speed.py [--seconds 2]

"engine" applies action ids to the gameshelf state; "pyspiel" goes through the OpenSpiel
adapter (apply_action only); "pyspiel+obs" also asks the mover's observation tensor;
"pettingzoo" and "gymnasium" are the environments (observation and mask built every step;
the Gym step includes the random bot's replies). Chance outcomes count as steps where the
adapter exposes them (engine, pyspiel).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import gameshelf
import gameshelf.rl.openspiel  # registers the games with pyspiel
from gameshelf.rl.gymnasium import GameshelfEnv
from gameshelf.rl.pettingzoo import raw_env

GAMES = ("cage", "axiom", "axia")


def timed(run_one: Callable[[], int], seconds: float) -> float:
    """Steps per second of repeated ``run_one()`` calls (each returns its step count)."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += run_one()
    return steps / (time.perf_counter() - start)


def engine_game(name: str, rng: random.Random) -> Callable[[], int]:
    game = gameshelf.load(name)

    def run() -> int:
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return run


def spiel_game(name: str, rng: random.Random, observe: bool) -> Callable[[], int]:
    game = pyspiel.load_game(f"gameshelf_{name}")

    def run() -> int:
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return run


def pettingzoo_game(name: str, rng: random.Random) -> Callable[[], int]:
    env = raw_env(name)

    def run() -> int:
        env.reset(seed=rng.randrange(1 << 30))
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps

    return run


def gym_game(name: str, rng: random.Random) -> Callable[[], int]:
    env = GameshelfEnv(name, opponent="random")

    def run() -> int:
        obs, _ = env.reset(seed=rng.randrange(1 << 30))
        done, steps = False, 0
        while not done:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            obs, _, done, _, _ = env.step(action)
            steps += 1
        return steps

    return run


def main(argv: list[str] | None = None) -> None:
    """Print one row per game: steps per second for each path."""
    parser = argparse.ArgumentParser(description="adapter throughput")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args(argv)
    rng = random.Random(0)
    print(f"{'game':8}{'engine':>10}{'pyspiel':>10}{'+obs':>10}{'pettingzoo':>12}{'gymnasium':>11}")
    for name in GAMES:
        row = [
            timed(engine_game(name, rng), args.seconds),
            timed(spiel_game(name, rng, False), args.seconds),
            timed(spiel_game(name, rng, True), args.seconds),
            timed(pettingzoo_game(name, rng), args.seconds),
            timed(gym_game(name, rng), args.seconds),
        ]
        print(f"{name:8}" + "".join(f"{value:>10.0f}" for value in row[:3]), end="")
        print(f"{row[3]:>12.0f}{row[4]:>11.0f}")


if __name__ == "__main__":
    main()
