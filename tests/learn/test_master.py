"""The master level: legal play, the clock, its refusals, and play against random."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from gameshelf.agents.analysis import AnalysisError
from gameshelf.agents.base import make_agent
from gameshelf.agents.catalogue import agent_catalogue, check_agent
from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import State
from gameshelf.core.registry import load
from gameshelf.learn.cage import RECIPE, TABLES
from gameshelf.learn.master import LEAVES, MasterAgent, shipped_network
from gameshelf.learn.network import NetConfig, init_network
from gameshelf.learn.puct import Tree, search


def play(seats: list[object], seed: int) -> list[float]:
    game = load("cage")
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        action = seats[state.current_player()].step(state)  # type: ignore[attr-defined]
        assert action in state.legal_actions()
        state.apply_action(action)
    return state.returns()


def test_master_beats_random_with_every_move_legal() -> None:
    game = load("cage")
    results = []
    for index in range(4):
        master = MasterAgent(game, index, simulations=48)
        other = make_agent("random", game, 100 + index)
        first = index % 2 == 0
        returns = play([master, other] if first else [other, master], index)
        results.append(returns[0 if first else 1])
    assert results.count(1.0) >= 3 and -1.0 not in results


def test_master_by_name_plays_the_two_player_cage_on_its_clock() -> None:
    game = load("cage")
    agent = make_agent("master", game, 0)
    assert isinstance(agent, MasterAgent)
    assert agent.time_limit == 1.0
    check_agent("master", game)
    names = {info.name: info for info in agent_catalogue(game)}
    assert names["master"].level
    # Ranked by what it measured: below hard, which beat it (docs/learning.md).
    assert names["medium"].strength < names["master"].strength < names["hard"].strength


def test_every_process_that_imports_the_bots_knows_master() -> None:
    # The server's bot workers and Ray's arena workers import only the bots' package: master
    # comes with the Cage's pack from the entry points, not from importing gameshelf.learn.
    code = (
        "import sys, gameshelf.agents as a; "
        "assert 'master' in a.AGENTS; assert 'gameshelf.learn.master' not in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_master_refuses_games_without_a_network() -> None:
    with pytest.raises(ValueError, match="master plays axiom, cage only, not axia"):
        make_agent("master", load("axia"), 0)
    assert "master" not in {info.name for info in agent_catalogue(load("axia"))}


def test_master_without_jax_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("master", "evaluator", "network"):  # imported afresh, they need equinox
        monkeypatch.delitem(sys.modules, f"gameshelf.learn.{module}", raising=False)
    monkeypatch.setitem(sys.modules, "equinox", None)  # as if the learn extra were missing
    with pytest.raises(ValueError, match=r"master needs equinox from the learn extra: .*learn"):
        make_agent("master", load("cage"), 0)
    with pytest.raises(GameshelfError, match="learn extra"):
        check_agent("master", load("cage"))


def test_master_without_its_weights_says_how_to_make_them(tmp_path: Path) -> None:
    elsewhere = replace(RECIPE, weights=tmp_path / "none.npz")
    with pytest.raises(ValueError, match=r"none\.npz, which is missing: .*gameshelf learn cage"):
        shipped_network(elsewhere)
    three = replace(TABLES[3], weights=tmp_path / "none.npz")
    with pytest.raises(ValueError, match=r"train one with 'gameshelf learn cage --players 3 --out"):
        shipped_network(three)


def test_the_network_is_loaded_once_per_process() -> None:
    game = load("cage")
    assert MasterAgent(game, 1).evaluator.net is MasterAgent(game, 2).evaluator.net


def test_on_the_clock_master_stops_at_its_time() -> None:
    ticks = iter(range(10_000))
    game = load("cage")
    agent = MasterAgent(
        game,
        0,
        net=init_network(NetConfig(2, 16, 1), 0, RECIPE.inputs, RECIPE.heads),
        time_limit=5,
        clock=lambda: next(ticks),
    )
    calls = []
    evaluate = agent.evaluator.__call__

    def counting(states: list[State], actions: list[list[int]]) -> list[tuple[list[float], float]]:
        calls.append(len(states))
        return evaluate(states, actions)

    agent.evaluator = counting  # type: ignore[assignment]
    action = agent.step(game.new_initial_state())
    assert action in game.new_initial_state().legal_actions()
    # The clock reads 0 at the start and one more at each check: the root, then five network
    # calls, each valuing the leaves of a batch of descents (virtual loss spreads them over
    # the opening's many moves, so each batch is full).
    assert calls == [1] + [LEAVES] * 5


def test_master_analyses_a_position_for_the_analysis_board() -> None:
    game = load("cage")
    state = game.new_initial_state()
    for action in (0, 24, 1):
        state.apply_action(action)
    agent = MasterAgent(game, 0, simulations=200)
    moves = agent.analyse(state, seconds=1.0, top=3)
    assert len(moves) == 3
    assert len({move.action for move in moves}) == 3
    for move in moves:
        assert move.action in state.legal_actions()
        assert 0.0 <= move.value <= 1.0
        assert move.pv[0] == move.text == state.action_to_string(move.action)
        assert move.solved is None
    # The first move is the one master would play.
    assert moves[0].action == agent.step(state)
    with pytest.raises(AnalysisError, match="over"):
        finished = game.new_initial_state()
        while not finished.is_terminal():
            finished.apply_action(finished.legal_actions()[0])
        agent.analyse(finished, seconds=0.1)


def _fresh_python(code: str) -> list[str]:
    """The lines ``code`` prints in a new interpreter (what it has imported is its own)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    return done.stdout.splitlines()


def test_building_master_leaves_jax_unimported_until_its_first_move() -> None:
    """The arena builds every bot in its own process to check it, then forks its workers; a
    process that has started jax's threads can deadlock the children it forks."""
    probe = (
        "import sys\n"
        "from gameshelf.agents import make_agent\n"
        "from gameshelf.core.registry import load\n"
        "game = load('cage')\n"
        "bot = make_agent('master', game, 0)\n"
        "print('jax' in sys.modules)\n"
        "bot.simulations = 4\n"
        "bot.step(game.new_initial_state())\n"
        "print('jax' in sys.modules)\n"
    )
    out = _fresh_python(probe)
    assert out == ["False", "True"]


def test_the_packs_load_without_the_learn_extra() -> None:
    """A plain install has no NumPy or jax: every game's pack still loads, and master is
    refused with the install command, not a broken entry point."""
    probe = (
        "import sys\n"
        "for name in ('numpy', 'jax', 'equinox', 'optax', 'mctx'):\n"
        "    sys.modules[name] = None\n"
        "from gameshelf.agents.catalogue import agent_catalogue, unfit_reason\n"
        "from gameshelf.core.registry import load\n"
        "for name in ('cage', 'axiom'):\n"
        "    game = load(name)\n"
        "    print(name, 'hard' in {info.name for info in agent_catalogue(game)})\n"
        "    print(unfit_reason('master', game))\n"
        "from gameshelf.cli.main import main\n"
        "code = main(['games'])\n"
        "print('games exit', code)\n"
    )
    out = _fresh_python(probe)
    assert out[0] == "cage True" and out[2] == "axiom True"
    assert out[1].startswith("master needs jax from the learn extra")
    assert out[3].startswith("master needs jax from the learn extra")
    assert out[-1] == "games exit 0"  # the terminal's parser names the recipes unloaded


def test_the_search_values_batches_of_leaves_within_its_budget() -> None:
    game = load("cage")
    net = init_network(NetConfig(2, 16, 1), 0, RECIPE.inputs, RECIPE.heads)
    evaluate = MasterAgent(game, 0, net=net).evaluator
    calls: list[int] = []

    def counting(
        states: list[State], actions: list[list[int]]
    ) -> list[tuple[list[float], list[float]]]:
        calls.append(len(states))
        return evaluate(states, actions)

    tree = Tree(game.new_initial_state(), None)
    search(tree, counting, 29, lambda done: False, leaves=8)
    assert calls == [1, 8, 8, 8, 5]  # the root, then 29 descents, each a new leaf
    assert tree.root.total == 29 == sum(tree.root.visits)
