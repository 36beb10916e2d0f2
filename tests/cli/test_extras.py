"""The README's research examples stop before any work, with one line naming the extra to
install, when it is missing (as on the ``.venv`` that ``scripts/start.sh`` makes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gameshelf import extras

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = """
import runpy, sys
for name in sys.argv[2:]:
    sys.modules[name] = None  # importing it now raises ImportError, as if not installed
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.mark.parametrize(
    ("example", "blocked"),
    [
        ("cage_tabular.py", ["gymnasium"]),
        ("cage_tabular.py", ["numpy"]),
        ("openspiel_bots.py", ["pyspiel"]),
        ("openspiel_bots.py", ["numpy"]),
    ],
)
def test_an_example_without_its_extra_says_what_to_install(
    example: str, blocked: list[str]
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", BLOCKED, str(ROOT / "examples" / example), *blocked],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and result.stdout == "", result.stderr
    assert f"examples/{example}: needs {blocked[0]}" in lines[0]
    assert ".venv/bin/pip install -c constraints.txt -e '.[rl]'" in lines[0]


def test_the_install_line_fits_where_gameshelf_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    assert extras.from_checkout()  # these tests run from the checkout
    assert extras.install_hint("rl") == ".venv/bin/pip install -c constraints.txt -e '.[rl]'"
    monkeypatch.setattr(extras, "_CHECKOUT", Path("/nonexistent"))  # as from an installed wheel
    assert not extras.from_checkout()
    assert extras.install_hint("rl") == "pip install 'gameshelf[rl]'"


@pytest.mark.parametrize(
    ("module", "extra"), [("pyspiel", "rl"), ("open_spiel.python", "rl"), ("matplotlib", "arena")]
)
def test_a_missing_package_names_its_extra(module: str, extra: str) -> None:
    assert extras.extra_for(ModuleNotFoundError("no", name=module)) == extra
    assert extras.extra_for(ModuleNotFoundError("no", name="somethingelse")) is None
    assert extras.extra_for(ValueError("not an import")) is None
