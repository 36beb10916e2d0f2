"""Load ``scripts/gen-golden.py`` as a module: the golden and perft file formats live there once."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_generator() -> ModuleType:
    """The generator script as a module (its name has a dash, so it is loaded by path)."""
    path = ROOT / "scripts" / "gen-golden.py"
    spec = importlib.util.spec_from_file_location("gameshelf_gen_golden", path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
