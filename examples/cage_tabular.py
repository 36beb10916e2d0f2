"""Random-policy evaluation, then tabular Q-learning, on a small Rubik's Cage through Gymnasium.

Runs in well under a minute on one core::

    .venv/bin/python examples/cage_tabular.py            # defaults below
    .venv/bin/python examples/cage_tabular.py --episodes 500 --opponent greedy

The variant ``cage(stock=3:3,max_plies=30)`` gives each player three cubies of one colour and
draws after 30 plies. You play seat 0 of ``gameshelf/Cage-v0`` against one of our bots; the
observation is the tensor documented in ``docs/rl.md``; its bytes (less the ply count) are the
table's key.
Illegal actions never happen: the policy only picks among the action mask's ones.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from gameshelf.extras import missing_extra

try:  # before any work: without the extra, one line saying what to install
    import gymnasium as gym
    import numpy as np

    import gameshelf.rl.gymnasium  # noqa: F401  (registers gameshelf/Cage-v0)
except ImportError as error:
    missing_extra("examples/cage_tabular.py", "rl", error)

GAME = "cage(stock=3:3,max_plies=30)"

QTable = defaultdict[bytes, dict[int, float]]


def legal(obs: dict[str, np.ndarray]) -> list[int]:
    """The legal action ids of an observation."""
    return np.flatnonzero(obs["action_mask"]).tolist()


def key(obs: dict[str, np.ndarray]) -> bytes:
    """The table key: the observation without its last value (the ply count), so positions
    reached at different plies share what was learned."""
    return obs["observation"][:-1].tobytes()


def choose(table: QTable, obs: dict[str, np.ndarray], epsilon: float, rng: random.Random) -> int:
    """Epsilon-greedy over the legal actions (unknown actions count as 0)."""
    actions = legal(obs)
    if rng.random() < epsilon:
        return rng.choice(actions)
    values = table[key(obs)]
    best = max(values.get(a, 0.0) for a in actions)
    return rng.choice([a for a in actions if values.get(a, 0.0) == best])


def evaluate(env: gym.Env, epsilon: float, table: QTable, episodes: int, seed: int) -> list[int]:
    """Wins, draws and losses of seat 0 over ``episodes`` games (``epsilon=1``: random play)."""
    rng = random.Random(seed)
    counts = [0, 0, 0]
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode)
        done, reward = False, 0.0
        while not done:
            obs, reward, done, _, _ = env.step(choose(table, obs, epsilon, rng))
        counts[0 if reward > 0 else 1 if reward == 0 else 2] += 1
    return counts


def train(env: gym.Env, episodes: int, seed: int, alpha: float = 0.3) -> tuple[QTable, int]:
    """One-step Q-learning (no discount: the only reward is the result)."""
    rng = random.Random(seed)
    table: QTable = defaultdict(dict)
    steps = 0
    for episode in range(episodes):
        epsilon = max(0.05, 1.0 - episode / (0.7 * episodes))
        obs, _ = env.reset(seed=10_000 + seed + episode)
        done = False
        while not done:
            action = choose(table, obs, epsilon, rng)
            before = key(obs)
            obs, reward, done, _, _ = env.step(action)
            steps += 1
            target = float(reward)
            if not done:
                nxt = table[key(obs)]
                target += max((nxt.get(a, 0.0) for a in legal(obs)), default=0.0)
            old = table[before].get(action, 0.0)
            table[before][action] = old + alpha * (target - old)
    return table, steps


def main(argv: list[str] | None = None) -> dict[str, object]:
    """Evaluate random play, train, evaluate the greedy policy; print and return the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=6000, help="training episodes")
    parser.add_argument("--eval", type=int, default=300, help="evaluation games per policy")
    parser.add_argument("--opponent", default="random", help="bot for seat 1")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    env = gym.make("gameshelf/Cage-v0", game=GAME, opponent=args.opponent)
    start = time.perf_counter()
    before = evaluate(env, 1.0, defaultdict(dict), args.eval, args.seed)
    table, steps = train(env, args.episodes, args.seed)
    trained = time.perf_counter()
    after = evaluate(env, 0.0, table, args.eval, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{GAME} against the {args.opponent} bot, seat 0")
    print(f"random policy   wins/draws/losses: {before[0]}/{before[1]}/{before[2]}")
    print(f"after {args.episodes} Q-learning episodes ({steps} steps, {len(table)} states)")
    print(f"greedy policy   wins/draws/losses: {after[0]}/{after[1]}/{after[2]}")
    rate = steps / max(trained - start, 1e-9)
    print(f"{elapsed:.1f} s in all; about {rate:.0f} training steps per second")
    return {"before": before, "after": after, "states": len(table), "seconds": elapsed}


if __name__ == "__main__":
    main()
