"""The optional compiled accelerator of Axiom's engine: the same source, compiled with mypyc.

``board.py``, ``actions.py`` and ``state.py`` (the rules, the move generator and the state that
applies moves) are plain, typed Python. ``scripts/build-accel.sh`` (run by
``scripts/setup-venv.sh``) copies the package's sources into a temporary tree, compiles those
three modules with mypyc under their own names and stores the
extension modules out of the source tree, in a folder named after the SHA-256 of the package's
sources (:func:`source_hash`). When the package is imported, :func:`install` looks for the
folder of the *current* sources: when it is there, the three modules load from it; when the
sources changed since the build (or there was never one), the pure-Python modules load, so a
checkout never runs compiled code older than its ``.py`` files. ``GAMESHELF_PURE=1`` forces
pure Python.

The build never fails its caller: without mypyc or a C compiler it says why and exits 0.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = "gameshelf.games.axiom"
"""The package whose modules the build replaces (a pure copy under another name keeps its own)."""
COMPILED = ("board", "actions", "state")
"""The modules the accelerator compiles (the rules, the generator and the state: a compiled
class has no ``__dict__``, so the state and the game pickle and clone through their
constructors)."""
PURE_ENV = "GAMESHELF_PURE"
DIR_ENV = "GAMESHELF_ACCEL_DIR"
MANIFEST = "manifest.json"

_HERE = Path(__file__).resolve().parent

backend = "python"
"""``"mypyc"`` when the compiled modules are in use, else ``"python"``."""
reason = "not looked for yet"
"""Why the pure-Python modules are in use (empty when the compiled ones are)."""


def source_hash(folder: Path = _HERE) -> str:
    """SHA-256 over the package's ``.py`` sources (those of ``folder``) and the interpreter's
    extension ABI: a build is used only for exactly these sources on this kind of
    interpreter."""
    digest = hashlib.sha256()
    digest.update(importlib.machinery.EXTENSION_SUFFIXES[0].encode())
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def accel_root() -> Path:
    """Where builds are kept: ``$GAMESHELF_ACCEL_DIR``, else ``<sys.prefix>/gameshelf-accel``
    (inside the virtual environment, never inside the source tree)."""
    configured = os.environ.get(DIR_ENV)
    return Path(configured) if configured else Path(sys.prefix) / "gameshelf-accel"


def build_dir(root: Path | None = None) -> Path:
    """The folder of the build of the current sources (it may not exist)."""
    return (root or accel_root()) / f"axiom-{source_hash()[:32]}"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and mypyc's shared library) of one build by name."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self.paths = paths

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for one of the build's extension modules, else ``None``."""
        where = self.paths.get(fullname)
        if where is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(where))
        return importlib.util.spec_from_file_location(fullname, where, loader=loader)


_finder: _Finder | None = None


def find_build(root: Path | None = None) -> tuple[dict[str, Path] | None, str]:
    """``(module name → extension file, "")`` of the build of the current sources under
    ``root`` (default :func:`accel_root`), or ``(None, why there is none)``."""
    folder = build_dir(root)
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return None, "accelerator not built for these sources: scripts/build-accel.sh"
    if manifest.get("hash") != source_hash():
        return None, "the build found is of other sources"
    return {name: folder / file for name, file in manifest["modules"].items()}, ""


def install() -> str:
    """Use the build of the current sources, if there is one (called when the package is
    imported, before anything imports the compiled modules); returns :data:`backend`."""
    global backend, reason, _finder
    if _finder is not None:
        return backend
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        reason = f"{PURE_ENV} is set"
        return backend
    paths, reason = find_build()
    if paths is None:
        return backend
    _finder = _Finder(paths)
    sys.meta_path.insert(0, _finder)
    try:
        for name in COMPILED:
            importlib.import_module(f"{PACKAGE}.{name}")
    except Exception as exc:  # a broken build: forget it, use the sources
        sys.meta_path.remove(_finder)
        _finder = None
        for name in paths:
            sys.modules.pop(name, None)
        reason = f"the build did not load ({type(exc).__name__}: {exc})"
        return backend
    backend = "mypyc"
    return backend


def pure_package() -> ModuleType:
    """A second, pure-Python copy of the whole Axiom package under another name (for the
    side-by-side bench and the fallback tests): its modules load from the ``.py`` files even
    when the accelerator is in use."""
    name = "_gameshelf_axiom_pure"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(
            name, _HERE / "__init__.py", submodule_search_locations=[str(_HERE)]
        )
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load a pure copy of {PACKAGE}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


# --- the build ----------------------------------------------------------------------------------


def _compiler() -> str | None:
    """The C compiler setuptools would use, if it is on the PATH."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(command.split()[0])


def build(root: Path | None = None, log: bool = True) -> Path | None:
    """Compile the current sources into :func:`build_dir`; ``None`` (and a message) when
    that cannot be done here. A build of the same sources that exists is kept."""

    def say(text: str) -> None:
        if log:
            print(f"axiom accel: {text}", file=sys.stderr)

    target = build_dir(root)
    if (target / MANIFEST).is_file():
        say(f"up to date ({target})")
        return target
    if importlib.util.find_spec("mypyc") is None:
        say("mypyc is not installed (pip install 'gameshelf[dev]'); pure Python is used")
        return None
    if _compiler() is None:
        say("no C compiler (Debian: apt-get install gcc python3-dev); pure Python is used")
        return None
    digest = source_hash()
    with tempfile.TemporaryDirectory(prefix="gameshelf-accel-") as tmp:
        work = Path(tmp)
        _copy_sources(work)
        files = [f"gameshelf/games/axiom/{name}.py" for name in COMPILED]
        env = {**os.environ, "MYPY_CACHE_DIR": str(work / ".mypy_cache")}
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *files],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            say(f"mypyc failed; pure Python is used:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
            return None
        modules = _collect(work)
        if not all(f"{PACKAGE}.{name}" in modules for name in COMPILED):
            say("mypyc wrote no extension modules; pure Python is used")
            return None
        staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=_parent(target)))
        for path in modules.values():
            shutil.copy2(path, staging / path.name)
        manifest = {"hash": digest, "modules": {n: p.name for n, p in modules.items()}}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2))
        try:
            staging.rename(target)
        except OSError:  # built at the same time by someone else
            shutil.rmtree(staging, ignore_errors=True)
    say(f"built {target}")
    _prune(target.parent, keep=3)
    return target


def _prune(root: Path, keep: int) -> None:
    """Remove all but the ``keep`` newest builds (older sources' builds are never used)."""
    builds = [p for p in root.glob("axiom-*") if "." not in p.name]
    builds.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def _parent(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    return target.parent


def _copy_sources(work: Path) -> None:
    """The Axiom package and the core it imports, under ``work/gameshelf`` (the rest of
    gameshelf stays out: the modules compiled import nothing else)."""
    package = _HERE.parents[1]  # .../gameshelf
    (work / "gameshelf" / "games" / "axiom").mkdir(parents=True)
    for init in ("gameshelf/__init__.py", "gameshelf/games/__init__.py"):
        (work / init).write_text("")
    shutil.copytree(
        package / "core", work / "gameshelf" / "core", ignore=shutil.ignore_patterns("__pycache__")
    )
    for path in _HERE.glob("*.py"):
        shutil.copy2(path, work / "gameshelf" / "games" / "axiom" / path.name)


def _collect(work: Path) -> dict[str, Path]:
    """Module name → extension file of what mypyc wrote in place."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    found = {}
    for path in work.rglob(f"*{suffix}"):
        if "build" in path.relative_to(work).parts[:1]:
            continue
        relative = path.relative_to(work).as_posix()[: -len(suffix)]
        found[relative.replace("/", ".")] = path
    return found


def main(argv: list[str] | None = None) -> int:
    """``build`` or ``status`` (what ``scripts/build-accel.sh`` runs); always 0 for ``build``."""
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "status"
    if command == "build":
        try:
            build()
        except Exception as exc:  # never fail the caller (scripts/setup-venv.sh)
            print(f"axiom accel: build failed ({exc!r}); pure Python is used", file=sys.stderr)
        return 0
    if command == "status":
        real = importlib.import_module(f"{PACKAGE}.accel")  # (this may run as __main__)
        why = f" ({real.reason})" if real.reason else ""
        print(f"axiom engine: {real.backend}{why}; builds in {accel_root()}")
        return 0
    print("usage: scripts/build-accel.sh (build, then status)", file=sys.stderr)
    return 2


if __name__ == f"{PACKAGE}.accel":
    install()  # imported first by the package's __init__, before the compiled modules
elif __name__ == "__main__":
    sys.exit(main())
