"""The project's own hatch build hook (``[tool.hatch.build.targets.wheel.hooks.custom]``).

A wheel is the whole product, so for every wheel (not for an editable install, which serves
the checkout's files where they are):

- the browser table is built from ``web/`` (``scripts/build-web.sh``: quick when up to date)
  and ``src/gameshelf/server/static/`` goes into the wheel, although git ignores it;
- a compiled build (the mypyc hook enabled by ``HATCH_BUILD_HOOK_ENABLE_MYPYC=1``) gets
  hatch-mypyc and mypy at the versions of ``constraints.txt``, and mypyc gets the project's
  ``[tool.mypy]`` settings through a copy of ``pyproject.toml`` that it can read.

Without ``web/`` sources and without a built table the wheel still builds, with a warning
that it has no browser table.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

STATIC = "src/gameshelf/server/static"
"""Where ``scripts/build-web.sh`` (vite) writes the table, relative to the project root."""
STATIC_IN_WHEEL = "gameshelf/server/static"
MYPY_CONFIG = "build/mypyc/mypy.toml"
"""The copy of ``pyproject.toml`` named by the mypyc hook's ``mypy-args``."""
COMPILE_TOOLS = ("hatch-mypyc", "mypy")
"""What the mypyc hook needs in the build environment."""


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Puts the browser table into the wheel and prepares a compiled build."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """hatch-mypyc and mypy (pinned as in ``constraints.txt``) when mypyc is to run."""
        if not self._compiling():
            return []
        return [pinned(name, Path(self.root) / "constraints.txt") for name in COMPILE_TOOLS]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the table and include it; write mypyc's configuration when compiling."""
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        self._build_table(root)
        static = root / STATIC
        if (static / "index.html").is_file():
            build_data["force_include"][str(static)] = STATIC_IN_WHEEL
        else:
            self.app.display_warning(
                f"gameshelf: no browser table in {STATIC} and no web/ sources to build it "
                "from: this wheel serves the API only"
            )
        if self._compiling():
            config = root / MYPY_CONFIG
            config.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / "pyproject.toml", config)

    def _compiling(self) -> bool:
        # hook_config holds only the enabled hooks.
        return "mypyc" in self.build_config.hook_config

    def _build_table(self, root: Path) -> None:
        """Run ``scripts/build-web.sh`` when there are sources; without npm, say so instead."""
        if not (root / "web" / "package.json").is_file():
            return
        if shutil.which("npm") is None:
            self.app.display_warning(
                "gameshelf: npm not found, so the browser table is not rebuilt from web/ "
                "(install Node.js 20+ for that); the wheel takes whatever build is there"
            )
            return
        done = subprocess.run(
            ["bash", str(root / "scripts" / "build-web.sh")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
        )
        print(done.stdout, end="")
        if done.returncode != 0:
            # Frontends show the exception last: it carries the end of the build's output.
            tail = "\n".join(done.stdout.strip().splitlines()[-15:])
            raise RuntimeError(
                f"gameshelf: scripts/build-web.sh failed with status {done.returncode}; the "
                f"wheel would lack the browser table. Its last lines:\n{tail}"
            )


def pinned(name: str, constraints: Path) -> str:
    """``name==version`` as ``constraints`` pins it, or plain ``name`` when it does not."""
    if constraints.is_file():
        wanted = normalized(name)
        for line in constraints.read_text(encoding="utf-8").splitlines():
            package, sep, version = line.partition("==")
            if sep and normalized(package) == wanted:
                return f"{name}=={version.strip()}"
    return name


def normalized(name: str) -> str:
    """A package name as the index compares it (PEP 503)."""
    return name.strip().lower().replace("_", "-").replace(".", "-")
