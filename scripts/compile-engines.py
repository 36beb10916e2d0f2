"""Compile the checkout's engine modules with mypyc, in place, so that the checkout runs them
compiled like a compiled wheel does.

The modules are the mypyc hook's ``include`` list in ``pyproject.toml`` (the one list; a compiled
wheel is built from it too). Each compiled module lands next to its ``.py`` under ``src/``
(Python's finder prefers it there), mypyc's shared library at ``src/`` (a top-level module),
and ``src/gameshelf/_compiled.json`` records ``{"modules": {name: sha256 of its .py}}`` so that
the runtime can tell when a ``.py`` changed after the build.

Quick when nothing changed: the build is skipped while the manifest matches the sources and a
stamp in ``build/engines/`` matches everything else the build read (the modules' packages, the
mypy settings, mypy's version). Compiled files of modules no longer listed are removed.

Never fails its caller (``scripts/setup-venv.sh``): without mypyc or a C compiler, or when the
build fails, it says so in one line, removes every compiled file (a stale one would run old
code) and exits 0, leaving pure Python.
   .venv/bin/python scripts/compile-engines.py
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
"""The import root of the package (the editable install puts it on ``sys.path``)."""
PACKAGE = SOURCE / "gameshelf"
MANIFEST = PACKAGE / "_compiled.json"
WORK = ROOT / "build" / "engines"
"""mypyc's C files, the compiler's objects, the fresh build and the stamp (git-ignored)."""
STAMP = WORK / "inputs.sha256"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
"""This interpreter's extension suffix, e.g. ``.cpython-311-x86_64-linux-gnu.so``."""

# setuptools must be imported before mypyc.build (it patches distutils); the output goes to
# --build-lib, not in place, so that the files are moved over the old ones atomically.
SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, target = sys.argv[1:-1], sys.argv[-1]
sys.argv[1:] = []
setup(
    name="gameshelf-engines",
    ext_modules=mypycify(paths, target_dir=target),
    package_dir={"": "src"},
    script_args=["build_ext", "--build-lib", target + "/lib", "--build-temp", target + "/tmp"],
)
"""


def say(text: str) -> None:
    """One line of progress, on stderr (the caller's stdout stays clean)."""
    print(f"compile-engines: {text}", file=sys.stderr)


def compiled_paths(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The mypyc hook's ``include`` list: source paths relative to the project root."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    hooks = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]
    paths = hooks["mypyc"]["include"]
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ValueError("pyproject.toml: the mypyc hook's include must be a list of paths")
    return paths


def module_name(path: str) -> str:
    """``src/gameshelf/games/axiom/board.py`` -> ``gameshelf.games.axiom.board``."""
    relative = (ROOT / path).relative_to(SOURCE)
    if relative.suffix != ".py":
        raise ValueError(f"pyproject.toml: the mypyc hook includes {path}, not a .py file")
    return ".".join(relative.with_suffix("").parts)


def wanted_manifest(paths: list[str]) -> dict[str, dict[str, str]]:
    """The manifest a build of the current sources writes."""
    digests = {module_name(p): hashlib.sha256((ROOT / p).read_bytes()).hexdigest() for p in paths}
    return {"modules": digests}


def inputs_digest(paths: list[str]) -> str:
    """SHA-256 of what else a build reads: every ``.py`` of the compiled modules' packages
    (mypyc inlines other modules' constants), the module list, the mypy settings and mypy's
    version, and the interpreter's extension suffix."""
    digest = hashlib.sha256()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = importlib.util.find_spec("mypy")
    version = mypy_version() if mypy else "none"
    header = [SUFFIX, version, json.dumps(config["tool"].get("mypy", {}), sort_keys=True), *paths]
    digest.update("\0".join(header).encode())
    folders = sorted({(ROOT / p).parent for p in paths} | {PACKAGE / "core"})
    for folder in folders:
        for source in sorted(folder.glob("*.py")):
            digest.update(str(source.relative_to(ROOT)).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def mypy_version() -> str:
    """The installed mypy's version (it decides what mypyc generates)."""
    from importlib.metadata import version

    return version("mypy")


def compiled_files() -> list[Path]:
    """Every extension module under ``src/`` (the package ships none but mypyc's)."""
    return sorted(p for p in SOURCE.rglob(f"*{SUFFIX}") if p.is_file())


def remove_compiled(keep: frozenset[Path] = frozenset()) -> list[Path]:
    """Delete compiled files (all but ``keep``) and, unless something is kept, the manifest;
    returns what was deleted."""
    gone = [p for p in compiled_files() if p not in keep]
    for path in gone:
        path.unlink()
    if not keep:
        MANIFEST.unlink(missing_ok=True)
    return gone


def up_to_date(paths: list[str]) -> bool:
    """Whether the files in place are a build of exactly the current inputs."""
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
        stamp = STAMP.read_text(encoding="utf-8").strip()
    except (OSError, ValueError):
        return False
    present = {module_file(name) for name in manifest.get("modules", {})}
    return (
        manifest == wanted_manifest(paths)
        and stamp == inputs_digest(paths)
        and all(p.is_file() for p in present)
    )


def module_file(name: str) -> Path:
    """Where the compiled module ``name`` lies in place."""
    return SOURCE.joinpath(*name.split(".")).with_name(name.rsplit(".", 1)[-1] + SUFFIX)


def missing_tool() -> str | None:
    """Why mypyc cannot build here (one line), or ``None`` when it can."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed here (the dev extra brings it)"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]}; Debian: apt-get install gcc python3-dev)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Debian: apt-get install python3-dev)"
    return None


def build(paths: list[str]) -> str | None:
    """Compile ``paths`` into ``build/engines/lib`` and move the results into place; an error
    line when it failed (nothing in place changed then)."""
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    setup = WORK / "setup.py"
    setup.write_text(SETUP, encoding="utf-8")
    # mypyc checks with the project's [tool.mypy] (strict); its cache stays out of mypy's own.
    args = ["--config-file", "pyproject.toml", *paths, str(WORK.relative_to(ROOT))]
    env = {**os.environ, "MYPY_CACHE_DIR": str(WORK / "mypy_cache")}
    done = subprocess.run(
        [sys.executable, str(setup), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
        return "mypyc failed:\n" + "\n".join(tail)
    built = sorted((WORK / "lib").rglob(f"*{SUFFIX}"))
    expected = {module_name(p) for p in paths}
    names = {".".join(p.relative_to(WORK / "lib").parts)[: -len(SUFFIX)] for p in built}
    if not expected <= names:
        return f"mypyc built {sorted(names)}, not all of {sorted(expected)}"
    placed = set()
    for path in built:
        target = SOURCE / path.relative_to(WORK / "lib")
        # A rename, not a copy over the old file: running processes keep the one they mapped.
        os.replace(path, target)
        placed.add(target)
    remove_compiled(keep=frozenset(placed))
    return None


def write_manifest(paths: list[str]) -> None:
    """Record the sources built (atomically) and the stamp of the other inputs."""
    partial = MANIFEST.with_suffix(".json.partial")
    partial.write_text(json.dumps(wanted_manifest(paths), indent=2) + "\n", encoding="utf-8")
    os.replace(partial, MANIFEST)
    STAMP.write_text(inputs_digest(paths) + "\n", encoding="utf-8")


def give_up(reason: str) -> int:
    """Leave pure Python: remove every compiled file and say why."""
    gone = remove_compiled()
    removed = f" (removed {len(gone)} stale compiled files)" if gone else ""
    say(f"{reason}; the engines run as pure Python{removed}")
    return 0


def main() -> int:
    """Build when needed; always 0 but for a broken module list."""
    try:
        paths = compiled_paths()
        names = [module_name(p) for p in paths]
    except (OSError, KeyError, ValueError) as broken:
        say(f"cannot read the module list from pyproject.toml: {broken!r}")
        return 2
    if not paths:
        return give_up("no module to compile")
    if up_to_date(paths):
        say(f"up to date ({len(paths)} modules compiled)")
        return 0
    why = missing_tool()
    if why is not None:
        return give_up(why)
    say(f"compiling {', '.join(names)} with mypyc")
    try:
        failure = build(paths)
    except Exception as exc:  # never fail the caller (scripts/setup-venv.sh)
        failure = f"the build failed ({exc!r})"
    if failure is not None:
        return give_up(failure)
    write_manifest(paths)
    say(f"compiled {len(paths)} modules in place")
    return 0


if __name__ == "__main__":
    sys.exit(main())
