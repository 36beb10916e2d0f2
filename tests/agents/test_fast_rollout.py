"""The games' own ``State.random_rollout(rng, max_plies)`` against the generic loop, seed by
seed, for every game that overrides it, at every player count.

The contract (see :meth:`gameshelf.core.game.State.random_rollout`) asks for the generic loop's
distribution; the implementations consume ``rng`` exactly as that loop does, so one seed must
give the very same game both ways: same plies, history, position, returns and RNG state after.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gameshelf.agents import MCTSAgent
from gameshelf.core.game import State
from gameshelf.core.registry import available_games, game_entry, load

#: Option sets worth a differential run besides the player counts (rules the fast paths touch).
VARIANTS: dict[str, tuple[str, ...]] = {
    "cage": (
        "cage(no_reverse=semantic)",
        "cage(no_reverse=off,repetition_draw=2)",
        "cage(players=3,allow_noop_twists=false)",
        "cage(players=4,simultaneous=shared,continue_after_last_drop=true,max_plies=300)",
        "cage(stock=12:12,simultaneous=mover_priority)",
    ),
    "axia": (
        "axia(players=1,explore_regions=true)",
        "axia(players=2,first_game=true,must_hit_if_possible=false)",
        "axia(players=3,prioritize_objectives=true,explore_regions=true)",
    ),
}


def _configurations() -> list[str]:
    """Game strings of every game with ``random_rollout``: each player count, then variants."""
    out: list[str] = []
    for name in available_games():
        entry = game_entry(name)
        game = load(name)
        if type(game.new_initial_state(seed=0)).random_rollout is State.random_rollout:
            continue
        if any(spec.name == "players" for spec in entry.options):
            spec = game.spec
            out += [f"{name}(players={n})" for n in range(spec.min_players, spec.max_players + 1)]
        else:
            out.append(name)
        out += VARIANTS.get(name, ())
    return out


CONFIGURATIONS = _configurations()


def generic_rollout(state: State, rng: random.Random, max_plies: int) -> int:
    """The generic loop of ``MCTSAgent._leaf_value`` with its default (uniform) policy."""
    plies = 0
    while not state.is_terminal() and plies < max_plies:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    return plies


def _snapshot(state: State) -> tuple[Any, ...]:
    return (
        state.history(),
        state.position(),
        state.is_terminal(),
        state.current_player(),
        state.returns(),
        state.legal_actions(),
    )


def test_the_games_that_should_have_it_do() -> None:
    names = {config.split("(")[0] for config in CONFIGURATIONS}
    assert {"cage", "axia"} <= names


@pytest.mark.parametrize("game_string", CONFIGURATIONS)
def test_same_games_as_the_generic_loop(game_string: str) -> None:
    game = load(game_string)
    full = game.spec.max_game_length
    seeds = 40 if game.spec.name == "axia" and game.spec.num_players > 2 else 60
    for seed in range(seeds):
        start = game.new_initial_state(seed=seed)
        # Start from varied positions (chance nodes, effects, late game) as well as the start.
        generic_rollout(start, random.Random(1000 + seed), (seed * 37) % 120)
        for max_plies in (0, 1, 7, full):
            fast, slow = start.clone(), start.clone()
            fast_rng, slow_rng = random.Random(seed), random.Random(seed)
            played = fast.random_rollout(fast_rng, max_plies)
            assert played == generic_rollout(slow, slow_rng, max_plies), (seed, max_plies)
            assert 0 <= played <= max_plies
            assert played == max_plies or fast.is_terminal()
            assert _snapshot(fast) == _snapshot(slow), (seed, max_plies)
            assert fast_rng.getstate() == slow_rng.getstate(), (seed, max_plies)
        assert fast.is_terminal()  # the full rollout ended the game


def test_axia_rollouts_build_no_views(monkeypatch: pytest.MonkeyPatch) -> None:
    from gameshelf.games.axia.rules import AxiaState

    def no_view(self: AxiaState, player: int | None) -> dict[str, Any]:
        raise AssertionError("a rollout asked for a view")

    monkeypatch.setattr(AxiaState, "view", no_view)
    for players in (1, 2, 4):
        state = load(f"axia(players={players})").new_initial_state(seed=players)
        state.random_rollout(random.Random(players), 10_000)
        assert state.is_terminal()


@pytest.mark.parametrize("game_string", ["cage", "cage(players=3)", "axia(players=1)"])
def test_mcts_uses_the_hook_only_for_the_default_policy(
    game_string: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load(game_string)
    state = game.new_initial_state(seed=5)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(5)))
    cls = type(state)
    calls = []
    original = cls.random_rollout

    def spy(self: State, rng: random.Random, max_plies: int) -> int:
        calls.append(max_plies)
        return int(original(self, rng, max_plies))

    monkeypatch.setattr(cls, "random_rollout", spy)
    MCTSAgent(game, seed=1, iterations=40, rollout_depth=25).step(state)
    assert calls and set(calls) == {25}
    calls.clear()
    uniform = MCTSAgent(
        game, seed=1, iterations=40, rollout_policy=lambda s, r: r.choice(s.legal_actions())
    )
    uniform.step(state)
    assert calls == []


@pytest.mark.parametrize("game_string", ["cage", "cage(players=4)", "axia(players=1)"])
@pytest.mark.parametrize("depth", [6, 10_000])
def test_mcts_searches_alike_with_and_without_the_hook(game_string: str, depth: int) -> None:
    """Same seed, same tree: the hook (default policy) against the generic loop running an
    equivalent but different policy object."""
    game = load(game_string)
    state = game.new_initial_state(seed=2)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(2)))
    fast = MCTSAgent(game, seed=9, iterations=60, rollout_depth=depth, reuse_tree=False)
    slow = MCTSAgent(
        game,
        seed=9,
        iterations=60,
        rollout_depth=depth,
        reuse_tree=False,
        rollout_policy=lambda s, r: r.choice(s.legal_actions()),
    )
    assert fast.step(state) == slow.step(state)
    assert fast.action_values(state) == slow.action_values(state)
    assert fast.last_iterations == slow.last_iterations
