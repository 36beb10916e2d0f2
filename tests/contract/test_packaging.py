"""What the distribution promises beyond the code: type information ships, games are found
through entry points, and the command line ends quietly when its reader goes away."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from importlib.resources import files
from pathlib import Path

import pytest

from gameshelf.core.registry import ENTRY_POINT_GROUP, GameEntry, available_games, game_entry
from gameshelf.core.registry import entry_from_point as load_entry_point

ROOT = Path(__file__).resolve().parents[2]


def test_py_typed_ships_in_the_package() -> None:
    assert files("gameshelf").joinpath("py.typed").is_file()
    # hatchling puts every file under the package directory into the wheel unless told not to.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = config["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["src/gameshelf"]
    assert not {"exclude", "only-include"} & set(wheel)


def test_every_game_comes_from_an_entry_point_named_after_it() -> None:
    points = {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}
    assert sorted(points) == available_games()
    for name, point in points.items():
        entry = load_entry_point(point)
        assert isinstance(entry, GameEntry)
        assert entry is game_entry(name)


@pytest.mark.parametrize("command", [["moves", "cage"], ["moves", "axiom"], ["games"]])
def test_a_closed_pipe_ends_the_command_quietly(command: list[str]) -> None:
    # The reader closes its end before the command writes (what `| head` does after its
    # lines): the command must stop without a traceback and with SIGPIPE's status.
    code = "import sys; from gameshelf.cli.main import main; sys.exit(main(sys.argv[1:]))"
    process = subprocess.Popen(
        [sys.executable, "-c", code, *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    error = process.stderr.read().decode()
    status = process.wait(timeout=120)
    assert "Traceback" not in error and "BrokenPipeError" not in error, error
    assert status == 141, error
