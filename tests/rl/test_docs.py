"""The Python examples of docs/rl.md run as written (in order, sharing one namespace)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_rl_page_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 4
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
