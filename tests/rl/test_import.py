"""The core package and ``gameshelf.rl`` itself need none of the heavy research packages."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pyspiel", "gymnasium", "pettingzoo", "shimmy", "numpy")


def test_rl_package_imports_nothing_heavy() -> None:
    code = (
        "import sys, gameshelf, gameshelf.rl; "
        "gameshelf.load('cage').new_initial_state(); "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_adapter_ids_are_listed() -> None:
    import gameshelf.rl as rl

    assert {"axiom", "cage", "axia"} <= set(rl.games())
    assert rl.gym_id("cage") == "gameshelf/Cage-v0"
