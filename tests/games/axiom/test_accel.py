"""The optional mypyc accelerator: never stale, and the same moves as the pure-Python engine.

Whether or not the accelerator is built in this environment, these tests run: the engine in
use (compiled or not) is compared with a pure-Python copy of the package, and the rules that
decide which one loads are checked on builds made up in a temporary folder.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gameshelf
from gameshelf.core.perft import perft
from gameshelf.games.axiom import accel

OPTION_SETS = ["", "sceptre_clearance=tall", "allow_overhang=true", "require_connected=true"]
SOURCES = Path(accel.__file__).resolve().parent


def test_the_engine_in_use_is_the_build_of_these_sources_or_pure_python() -> None:
    paths, why = accel.find_build()
    if os.environ.get(accel.PURE_ENV, "") not in ("", "0"):
        assert accel.backend == "python" and accel.reason == f"{accel.PURE_ENV} is set"
    elif paths is None:
        assert accel.backend == "python" and accel.reason == why != ""
    else:
        assert accel.backend == "mypyc" and accel.reason == ""
        from gameshelf.games.axiom import actions, board

        for module in (board, actions):
            assert module.__file__ is not None
            assert Path(module.__file__) == paths[module.__name__]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_engine_in_use_and_the_pure_copy_list_the_same_moves(options: str) -> None:
    """Seeded games side by side: legal lists, either side's moves, undo and the end."""
    loaded = gameshelf.load(f"axiom({options})" if options else "axiom")
    values = dict(part.split("=") for part in options.split(",") if part)
    pure = accel.pure_package().make_game({k: v == "true" or v for k, v in values.items()})
    assert type(pure.new_initial_state()).__module__.startswith("_gameshelf_axiom_pure")
    for seed in range(6):
        rng = random.Random(seed)
        a: Any = loaded.new_initial_state()
        b: Any = pure.new_initial_state()
        while not a.is_terminal():
            legal = a.legal_actions()
            assert legal == b.legal_actions()
            assert a.moves_of(1 - a.to_move) == b.moves_of(1 - b.to_move)
            action = rng.choice(legal)
            a.apply_action(action)
            b.apply_action(action)
            if a.ply % 9 == 4:
                a.undo()
                b.undo()
                a.apply_action(action)
                b.apply_action(action)
        assert b.is_terminal() and a.position() == b.position()


def test_perft_of_the_engine_in_use_and_of_the_pure_copy() -> None:
    loaded = gameshelf.load("axiom").new_initial_state()
    pure = accel.pure_package().make_game({}).new_initial_state()
    assert perft(loaded, 2) == perft(pure, 2) == 992


def test_a_build_is_found_only_for_the_current_sources(tmp_path: Path) -> None:
    paths, why = accel.find_build(tmp_path)
    assert paths is None and "not built" in why
    folder = accel.build_dir(tmp_path)
    folder.mkdir()
    manifest = {"hash": "0" * 64, "modules": {"gameshelf.games.axiom.board": "board.so"}}
    (folder / accel.MANIFEST).write_text(json.dumps(manifest))
    paths, why = accel.find_build(tmp_path)
    assert paths is None and "other sources" in why
    manifest["hash"] = accel.source_hash()
    (folder / accel.MANIFEST).write_text(json.dumps(manifest))
    paths, why = accel.find_build(tmp_path)
    assert why == "" and paths == {"gameshelf.games.axiom.board": folder / "board.so"}


def test_any_edit_of_the_sources_changes_the_key(tmp_path: Path) -> None:
    copy = tmp_path / "axiom"
    copy.mkdir()
    for path in SOURCES.glob("*.py"):
        shutil.copy2(path, copy / path.name)
    assert accel.source_hash(copy) == accel.source_hash()
    with (copy / "board.py").open("a") as handle:
        handle.write("\n# an edit\n")
    assert accel.source_hash(copy) != accel.source_hash()


def test_a_stale_or_refused_build_falls_back_to_python(tmp_path: Path) -> None:
    """In a fresh interpreter: a build of other sources is not loaded, and GAMESHELF_PURE=1
    refuses even a build of these sources."""
    folder = accel.build_dir(tmp_path)
    folder.mkdir()
    (folder / accel.MANIFEST).write_text(json.dumps({"hash": "1" * 64, "modules": {}}))
    code = (
        "from gameshelf.games.axiom import accel, board;"
        "print(accel.backend, board.__file__.endswith('.py'), accel.reason)"
    )
    env = {**os.environ, accel.DIR_ENV: str(tmp_path)}
    env.pop(accel.PURE_ENV, None)
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.stdout.split()[:2] == ["python", "True"], run.stderr
    assert "other sources" in run.stdout
    env = {**os.environ, accel.PURE_ENV: "1"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.stdout.split()[:2] == ["python", "True"], run.stderr


def test_the_build_never_fails_without_a_compiler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CC", "no-such-compiler-here")
    assert accel.build(tmp_path) is None
    assert not list(tmp_path.iterdir())
    assert "pure Python is used" in capsys.readouterr().err
    assert accel.main(["build"]) == 0  # (the command exits 0 whatever happens)
