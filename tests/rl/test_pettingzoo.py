"""PettingZoo AEC environments (ours, and OpenSpiel's through Shimmy) pass PettingZoo's tests."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]
from shimmy import OpenSpielCompatibilityV0  # type: ignore[import-untyped]

import gameshelf.rl.openspiel  # noqa: F401  (registers the pyspiel games)
from gameshelf.core.errors import IllegalMove
from gameshelf.rl.pettingzoo import env, raw_env

GAMES = ["cage", "cage(players=3)", "cage(players=4)", "axiom", "axia", "axia(players=1)"]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game_string", GAMES)
def test_api_test(game_string: str) -> None:
    api_test(env(game_string), num_cycles=400)


@pytest.mark.parametrize("game_string", ["cage", "axiom", "axia(players=3)"])
def test_seed_test(game_string: str) -> None:
    seed_test(lambda: env(game_string), num_cycles=150)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("name", "config"),
    [
        ("gameshelf_cage", None),
        ("gameshelf_cage", {"players": 3}),
        ("gameshelf_axiom", None),
        ("gameshelf_axia", None),
    ],
)
def test_shimmy_openspiel_wrapper_api_test(name: str, config: dict[str, int] | None) -> None:
    api_test(OpenSpielCompatibilityV0(game_name=name, config=config), num_cycles=300)


def test_a_full_game_pays_the_returns_once() -> None:
    e = raw_env("cage(players=3)")
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += float(reward)
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert list(totals.values()) == e.state.returns()
    assert not e.agents


def test_only_the_agent_to_move_has_a_mask() -> None:
    e = raw_env("axia")
    e.reset(seed=1)
    mover = e.agent_selection
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == mover)


def test_each_agent_sees_its_own_hand_only() -> None:
    e = raw_env("axia")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    while not e.state.hands[0] or not e.state.hands[1]:  # type: ignore[attr-defined]
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for seat, agent in enumerate(e.possible_agents):
        flat, views = e.encoder.new_buffer()
        flat[:] = e.observe(agent)["observation"]
        hand = sorted(np.flatnonzero(views["hand"]).tolist())
        assert hand == sorted(e.state.hands[seat])  # type: ignore[attr-defined]


def test_illegal_actions_are_refused() -> None:
    e = raw_env("cage")
    e.reset(seed=0)
    with pytest.raises(IllegalMove, match="not legal"):
        e.step(47)  # a green drop: not player 0's colour


def test_render_modes() -> None:
    e = raw_env("cage", render_mode="ansi")
    e.reset(seed=0)
    assert "front" in (e.render() or "")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("cage", render_mode="rgb_array")
