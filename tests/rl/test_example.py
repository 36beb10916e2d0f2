"""The example script runs its whole loop and the learned policy beats random play."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cage_tabular.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cage_tabular", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_learns_to_beat_random_play(capsys: object) -> None:
    result = _load().main(["--episodes", "3000", "--eval", "200"])
    before, after = result["before"], result["after"]
    assert sum(before) == sum(after) == 200
    assert after[0] > before[0] + 20  # many more wins than the random policy (41-86 vs 7-12
    # over seeds 1-5)
    assert after[2] <= before[2]
    assert result["seconds"] < 60
