"""What the distribution promises beyond the code, checked on built artifacts: the wheel holds
the package, its data, type information, the browser table and the entry points; the sdist
holds what a wheel is built from (web/ sources, the build hook), not what npm or vite made;
games are found through entry points; the command line ends quietly when its reader goes away.
``scripts/package-smoke.sh`` installs the wheels and runs them."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib.metadata import PathDistribution, distribution, entry_points
from pathlib import Path
from types import ModuleType

import pytest

from gameshelf.core.registry import ENTRY_POINT_GROUP, GameEntry, available_games, game_entry
from gameshelf.core.registry import entry_from_point as load_entry_point

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "gameshelf" / "server" / "static"
MYPYC_SWITCH = "HATCH_BUILD_HOOK_ENABLE_MYPYC"


def build(kind: str, source: Path, out: Path) -> tuple[Path, str]:
    """Build ``kind`` (``--wheel`` or ``--sdist``) of ``source`` into ``out`` with this
    environment's build tools, never compiled; the artifact and the build's output."""
    env = {k: v for k, v in os.environ.items() if k != MYPYC_SWITCH}
    done = subprocess.run(
        [sys.executable, "-m", "build", kind, "--no-isolation", "--outdir", str(out), str(source)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (artifact,) = out.iterdir()
    return artifact, done.stdout + done.stderr


def tracked(folder: str) -> list[str]:
    """The files git tracks under ``folder`` (relative to the checkout)."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", folder], cwd=ROOT, capture_output=True, check=True
    )
    names = [name for name in listing.stdout.decode().split("\0") if name]
    return [name for name in names if (ROOT / name).is_file()]  # not those deleted meanwhile


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The pure wheel of the checkout (its hook brings the browser table up to date first)."""
    path, _ = build("--wheel", ROOT, tmp_path_factory.mktemp("wheel"))
    assert path.name.endswith("-py3-none-any.whl"), path.name
    return zipfile.ZipFile(path)


def test_the_wheel_holds_every_tracked_package_file(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    expected = {name.removeprefix("src/") for name in tracked("src/gameshelf")}
    assert {"gameshelf/py.typed", "gameshelf/games/axia/data/cards.json"} <= expected
    assert any(name.endswith("_weights.json") for name in expected)
    assert sorted(expected - names) == []


def test_the_wheel_holds_the_built_browser_table(wheel: zipfile.ZipFile) -> None:
    prefix = "gameshelf/server/static/"
    static = {n.removeprefix(prefix) for n in wheel.namelist() if n.startswith(prefix)}
    built = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()}
    assert static == built
    page = wheel.read(f"{prefix}index.html").decode()
    assert '<main id="main"' in page
    scripts = [n for n in static if n.startswith("assets/") and n.endswith(".js")]
    assert [n for n in scripts if f'src="/{n}"' in page], (page, scripts)


def test_the_pure_wheel_holds_nothing_compiled_or_from_the_checkout(
    wheel: zipfile.ZipFile,
) -> None:
    names = wheel.namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd", "_compiled.json"))]
    assert all(n.startswith(("gameshelf/", "gameshelf-")) for n in names), names


def test_the_wheel_declares_the_installed_entry_points(wheel: zipfile.ZipFile) -> None:
    (info,) = {n.split("/")[0] for n in wheel.namelist() if ".dist-info/" in n}
    in_wheel = PathDistribution(zipfile.Path(wheel, f"{info}/")).entry_points  # type: ignore[arg-type]
    points = {(p.group, p.name, p.value) for p in in_wheel}
    installed = {(p.group, p.name, p.value) for p in distribution("gameshelf").entry_points}
    assert points == installed
    games = {name for group, name, _ in points if group == ENTRY_POINT_GROUP}
    assert games == set(available_games())
    assert ("console_scripts", "gameshelf", "gameshelf.cli.main:main") in points


def test_the_sdist_holds_the_sources_a_wheel_is_built_from(tmp_path: Path) -> None:
    path, _ = build("--sdist", ROOT, tmp_path)
    with tarfile.open(path) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    wanted = {*tracked("web"), *tracked("src/gameshelf"), "hatch_build.py", "constraints.txt"}
    wanted.add("scripts/build-web.sh")  # the hook runs it
    assert sorted(wanted - names) == []
    made = ("web/node_modules/", "web/dist/", "src/gameshelf/server/static/")
    assert [n for n in names if n.startswith(made)] == []


def test_without_table_sources_or_build_the_wheel_builds_and_warns(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "hatch_build.py", "README.md", "constraints.txt"):
        shutil.copy2(ROOT / name, project / name)
    ignore = shutil.ignore_patterns("static", "__pycache__", "*.so", "_compiled.json")
    shutil.copytree(ROOT / "src", project / "src", ignore=ignore)
    path, output = build("--wheel", project, tmp_path / "out")
    with zipfile.ZipFile(path) as built:
        assert "gameshelf/py.typed" in built.namelist()
        assert not [n for n in built.namelist() if "/server/static/" in n]
    assert "no browser table" in output and "serves the API only" in output


def load_script(name: str, path: Path) -> ModuleType:
    """A module of the checkout that is not in the package (the build hook, a script)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("switch", ["", "1"])
def test_a_compiled_build_asks_for_the_pinned_compiler(switch: str) -> None:
    # get_requires_for_build_wheel is what pip and build ask before an isolated build.
    code = "import json, hatchling.build as b; print(json.dumps(b.get_requires_for_build_wheel()))"
    env = {**os.environ, MYPYC_SWITCH: switch}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    pins = dict(
        line.split("==", 1)
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line
    )
    wanted = [f"hatch-mypyc=={pins['hatch-mypyc']}", f"mypy=={pins['mypy']}"] if switch else []
    assert json.loads(done.stdout) == wanted


def test_the_compiled_modules_are_listed_once_and_exist() -> None:
    script = load_script("compile_engines", ROOT / "scripts" / "compile-engines.py")
    paths = script.compiled_paths()
    assert paths and len(set(paths)) == len(paths)
    for path in paths:
        assert (ROOT / path).is_file(), path
        assert importlib.util.find_spec(script.module_name(path)) is not None


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
