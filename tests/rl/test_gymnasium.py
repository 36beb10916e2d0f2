"""Gymnasium single-agent environments: registration, check_env, bots, rewards, penalties."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from gameshelf.agents import UnknownAgent
from gameshelf.core.errors import InvalidOption
from gameshelf.rl.gymnasium import GameshelfEnv, env_ids


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("gameshelf/Cage-v0", {}),
        ("gameshelf/Cage-v0", {"game": "cage(players=3)", "opponent": "greedy", "seat": 2}),
        ("gameshelf/Axiom-v0", {}),
        ("gameshelf/Axiom-v0", {"game": "axiom(sceptre_clearance=tall)", "opponent": "greedy"}),
        ("gameshelf/Axia-v0", {}),
        ("gameshelf/Axia-v0", {"game": "axia(players=1)"}),
        ("gameshelf/Axia-v0", {"game": "axia(players=4)", "seat": 3}),
    ],
)
def test_check_env(env_id: str, kwargs: dict[str, object]) -> None:
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped)


def test_ids_are_registered() -> None:
    assert set(env_ids().values()) <= set(gym.registry)


def _episode(env: GameshelfEnv, seed: int) -> tuple[float, int]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, _ = env.step(action)
        total += float(reward)
        steps += 1
        assert not truncated
    return total, steps


@pytest.mark.parametrize("opponent", ["random", "greedy", "easy"])
def test_episodes_end_with_the_seats_return(opponent: str) -> None:
    env = GameshelfEnv("cage", opponent=opponent, seat=1)
    total, steps = _episode(env, seed=3)
    assert steps > 0
    assert total == env.state.returns()[1]


def test_axia_solo_reward_is_the_score() -> None:
    env = GameshelfEnv("axia(players=1)")
    total, _ = _episode(env, seed=1)
    assert total == env.state.returns()[0] and total >= 0


def test_same_seed_same_episode() -> None:
    a = GameshelfEnv("axia(players=3)", opponent="greedy")
    b = GameshelfEnv("axia(players=3)", opponent="greedy")
    assert _episode(a, 7) == _episode(b, 7)
    assert a.state.position() == b.state.position()


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = GameshelfEnv("cage", illegal_reward=-5.0)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(47)
    assert reward == -5.0 and terminated and info["illegal_action"]


def test_bad_keywords_are_refused() -> None:
    with pytest.raises(UnknownAgent):
        GameshelfEnv("cage", opponent="nobody")
    with pytest.raises(InvalidOption, match="seat"):
        GameshelfEnv("cage", seat=2)
    with pytest.raises(InvalidOption, match="plays cage"):
        gym.make("gameshelf/Cage-v0", game="axiom")


def test_action_masks_and_render() -> None:
    env = GameshelfEnv("axiom", render_mode="ansi")
    env.reset(seed=0)
    assert env.action_masks().sum() == 32
    assert "z=1" in (env.render() or "")


def test_the_opponent_keyword_chooses_the_bot() -> None:
    """Same seed, same moves of ours: a different bot answers differently."""
    games = {}
    for opponent in ("random", "greedy"):
        env = GameshelfEnv("cage(players=3)", opponent=opponent)
        env.reset(seed=5)
        for _ in range(4):
            mask = env.action_masks()
            env.step(int(np.flatnonzero(mask)[0]))
            if env.state.is_terminal():
                break
        games[opponent] = env.state.history()
    assert games["random"] != games["greedy"]
    assert all(type(bot).__name__ == "GreedyAgent" for bot in env.bots.values())


def test_module_prefixed_id_works_in_a_fresh_interpreter() -> None:
    import subprocess
    import sys

    code = (
        "import sys, gymnasium as gym\n"
        "assert 'gameshelf.rl.gymnasium' not in sys.modules\n"
        "env = gym.make('gameshelf.rl.gymnasium:gameshelf/Axiom-v0')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(type(env.unwrapped).__name__, int(env.unwrapped.action_masks().sum()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["GameshelfEnv", "32"]  # Axiom's 32 first moves
