"""Golden records: stored games replay move by move to the stored final position and result.

The records were made by seeded random play; a rule change that alters any move's legality,
an action id, an elimination or the result makes the replay fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gameshelf.core.record import load_record, replay

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", ["default", "tall-overhang"])
def test_golden_record_replays(name: str) -> None:
    record = load_record(GOLDEN / f"{name}.json")
    states = replay(record)
    final = states[-1]
    assert final.is_terminal()
    assert final.position() == (GOLDEN / f"{name}.final.txt").read_text(encoding="utf-8")
    assert len(states) == len(record.moves) + 1
