"""The solo calibration tool (`python -m tools.axia_calibration`): its table and its errors."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean

import pytest

from gameshelf.core.errors import GameshelfError
from tools import axia_calibration

ROOT = Path(__file__).resolve().parents[2]


def test_table_reports_the_mean_of_the_games_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert axia_calibration.main(["--games", "2", "--policies", "greedy,easy", "--seed", "7"]) == 0
    table = capsys.readouterr().out.splitlines()
    rows = {line.split("|")[1].strip(): line for line in table[2:]}
    assert set(rows) == {"greedy", "easy"}
    for policy in ("greedy", "easy"):
        totals = [
            axia_calibration.play(policy, "axia(players=1)", seed)["total"] for seed in (7, 8)
        ]
        assert f"**{mean(totals):.1f}**" in rows[policy]
        assert rows[policy].split("|")[2].strip() == "2"


def test_parts_add_up_to_the_total() -> None:
    part = axia_calibration.play("greedy", "axia(players=1)", 3)
    assert part["total"] == part["cards"] + part["beasts"] + part["acolytes"] + part["items"]
    assert 0 <= part["active"] <= 6


def test_a_broken_card_file_is_refused_before_any_game(tmp_path: Path) -> None:
    data = json.loads((ROOT / "src/gameshelf/games/axia/data/cards.json").read_text())
    data["items"].pop()
    broken = tmp_path / "cards.json"
    broken.write_text(json.dumps(data))
    with pytest.raises(GameshelfError, match=r"items\.count"):
        axia_calibration.main(["--games", "1", "--policies", "greedy", "--cards", str(broken)])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--policies", "greedy,wizard"], "unknown policy wizard"),
        (["--games", "0"], "at least 1"),
    ],
)
def test_bad_arguments_are_named(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        axia_calibration.main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
