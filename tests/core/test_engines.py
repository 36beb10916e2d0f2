"""Which engine runs: the compiled modules when they are there, the Python source when asked
for (``GAMESHELF_PURE``) or when the in-place build is older than its source."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import random
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

import gameshelf
from gameshelf.core import engines
from gameshelf.core.registry import available_games, game_entry

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = os.environ.get("GAMESHELF_EXPECT_ENGINE", "")
"""``compiled`` or ``pure`` where the test command knows which engine must run (it sets it)."""


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != engines.PURE_ENV}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**environment, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def compiled_list() -> dict[str, list[str]]:
    """The modules the build compiles (pyproject.toml's one list), by game."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    paths = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    by_game: dict[str, list[str]] = {}
    for path in paths:
        module = path.removeprefix("src/").removesuffix(".py").replace("/", ".")
        by_game.setdefault(module.split(".")[2], []).append(module)
    return by_game


@pytest.mark.parametrize("name", ["axia", "axiom", "cage"])
def test_a_game_says_the_engine_its_modules_were_loaded_from(name: str) -> None:
    entry = game_entry(name)
    package = engines.game_package(entry)
    assert package is not None and package.ENTRY is entry
    hot = [importlib.import_module(module) for module in compiled_list()[name]]
    assert len(hot) >= 3
    compiled = engines.is_compiled(*hot)
    assert compiled or not any(engines.is_compiled(m) for m in hot), "all or none"
    assert package.COMPILED is compiled
    assert engines.engine_of_game(entry) == ("compiled" if compiled else "pure")
    if EXPECTED:
        assert engines.engine_of_game(entry) == EXPECTED, engines.pure_reason


def test_a_game_without_a_flag_runs_its_source() -> None:
    assert engines.engine_of(sys.modules["gameshelf.core"]) == "pure"
    assert not engines.is_compiled()
    assert not engines.is_compiled(engines)  # a module read from its .py


def test_gameshelf_pure_loads_every_game_from_its_source() -> None:
    done = _run(
        """
        import sys
        import gameshelf
        from gameshelf.core import engines
        from gameshelf.core.registry import available_games, game_entry
        for name in available_games():
            package = engines.game_package(game_entry(name))
            print(name, package.COMPILED, engines.engine_of(package))
        loaded = [m.__file__ for n, m in sys.modules.items() if n.startswith("gameshelf.")]
        print("extension" if any(str(f).endswith(".so") for f in loaded) else "source only")
        print(engines.pure_reason)
        """,
        GAMESHELF_PURE="1",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:-2] == [f"{name} False pure" for name in available_games()]
    assert lines[-2:] == ["source only", "GAMESHELF_PURE is set"]


def _fake_build(root: Path, source: str, recorded: str) -> None:
    folder = root / "gameshelf" / "games" / "toy"
    folder.mkdir(parents=True)
    (folder / "board.py").write_text(source)
    manifest = {"modules": {"gameshelf.games.toy.board": recorded}}
    (root / "gameshelf" / engines.MANIFEST).write_text(json.dumps(manifest))


def test_a_build_older_than_its_source_is_named(tmp_path: Path) -> None:
    source = "X = 1\n"
    _fake_build(tmp_path, source, hashlib.sha256(source.encode()).hexdigest())
    assert engines.stale_builds(tmp_path / "gameshelf") == []
    (tmp_path / "gameshelf" / "games" / "toy" / "board.py").write_text("X = 2\n")
    assert engines.stale_builds(tmp_path / "gameshelf") == ["gameshelf.games.toy.board"]


def test_no_record_or_a_broken_one_means_nothing_is_stale(tmp_path: Path) -> None:
    assert engines.stale_builds(tmp_path) == []
    (tmp_path / engines.MANIFEST).write_text("{not json")
    assert engines.stale_builds(tmp_path) == []


def test_a_stale_build_runs_the_source_with_a_warning(tmp_path: Path) -> None:
    _fake_build(tmp_path, "X = 1\n", "0" * 64)
    done = _run(
        f"""
        import sys, warnings
        from pathlib import Path
        from gameshelf.core import engines
        # (a checkout whose own build is stale has chosen the source already: start afresh)
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, engines._SourceFirst)]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            engines.choose_engine(Path({str(tmp_path / "gameshelf")!r}))
        import gameshelf.games.cage as cage
        print(cage.COMPILED, str(cage._rules.__file__).endswith(".py"))
        print([str(w.message) for w in caught])
        """
    )
    assert done.returncode == 0, done.stderr
    first, warned = done.stdout.splitlines()
    assert first == "False True"
    assert "older than gameshelf.games.toy.board" in warned


def test_the_version_and_the_games_come_from_one_install() -> None:
    assert gameshelf.__version__
    assert available_games() == ["axia", "axiom", "cage"]


@pytest.mark.parametrize("name", ["axia", "axiom", "cage"])
def test_games_and_states_pickle_on_either_engine(name: str) -> None:
    # Bot workers and the arena's processes receive games and states by pickle; a compiled
    # class has no __dict__, so each game says how it is rebuilt.
    for options in game_entry(name).test_option_sets:
        game = gameshelf.load(f"{name}({options})" if options else name)
        copy = pickle.loads(pickle.dumps(game))
        assert copy.game_string == game.game_string
        state, rng = game.new_initial_state(seed=3), random.Random(5)
        for _ in range(25):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        again = pickle.loads(pickle.dumps(state))
        assert type(again) is type(state)
        assert again.position() == state.position()
        assert again.history() == state.history()
        assert again.legal_actions() == state.legal_actions()


def test_the_fields_pickling_carries_are_every_field_of_a_state() -> None:
    # A compiled state cannot list its fields, so each game names them for pickling; the Python
    # source can, and a field added without being named there would be lost in a bot worker.
    done = _run(
        """
        import gameshelf
        from gameshelf.games.axia.state_fields import STATE_FIELDS as AXIA
        from gameshelf.games.cage.rules import _STATE_FIELDS as CAGE
        axia = gameshelf.load("axia(players=3)").new_initial_state(seed=1)
        while axia.is_chance_node():
            axia.apply_action(axia.chance_outcomes()[0][0])
        cage = gameshelf.load("cage").new_initial_state()
        cage.apply_action(cage.legal_actions()[0])
        print(sorted(set(vars(axia)) ^ {"game", *AXIA}))
        print(sorted(vars(cage)), sorted(set(type(cage).__slots__) ^ {"game", *CAGE}))
        """,
        GAMESHELF_PURE="1",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "[] []"]
