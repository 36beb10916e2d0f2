"""The Python examples of docs/rl.md run as written (in order, sharing one namespace), and the
page's sizes (action counts, encoder pieces and totals) are the code's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gameshelf
from gameshelf.rl.encodings import encoder_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
TEXT = DOC.read_text(encoding="utf-8")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_rl_page_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", TEXT, re.DOTALL)
    assert len(blocks) >= 5
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)


def number(text: str) -> int:
    """``2 821`` (the page's thin-space style) as an int."""
    return int(text.replace(" ", ""))


def section(title_start: str) -> str:
    """The text of the ``###`` section whose title starts so, up to the next heading."""
    match = re.search(rf"^### {re.escape(title_start)}.*?(?=^#)", TEXT, re.DOTALL | re.MULTILINE)
    assert match, title_start
    return match.group(0)


def documented_pieces(
    block: str, names: set[str], sizes: dict[str, int]
) -> dict[str, tuple[int, ...]]:
    """``name (shape)`` entries of an encoding block, the shapes evaluated with ``sizes``."""
    found: dict[str, tuple[int, ...]] = {}
    for name, shape in re.findall(r"\b(\w+)(?: placement)?\s+\(([^()]*)\)", block):
        if name in names and name not in found:  # the first one: "effect (53,) waiting effect (…)"
            expression = shape.split(":")[0].strip().rstrip(",")
            found[name] = tuple(eval(f"({expression},)", {}, sizes))  # the page is ours
    return found


def test_the_action_counts_on_the_page_are_the_engines() -> None:
    (row,) = re.findall(r"^ *\| `num_distinct_actions` \|(.*)\|$", TEXT, re.MULTILINE)
    counts = [number(cell.strip()) for cell in row.split("|")]
    games = ["cage", "axiom", "axia"]
    assert counts == [gameshelf.load(game).spec.num_distinct_actions for game in games]
    axia = gameshelf.load("axia").spec.num_distinct_actions
    assert number(re.findall(r"Action ids \(([\d ]+)\)", TEXT)[0]) == axia


@pytest.mark.parametrize(
    ("title", "game"), [("Rubik's Cage", "cage"), ("Axiom", "axiom"), ("AXIA", "axia")]
)
def test_the_encodings_on_the_page_are_the_encoders(title: str, game: str) -> None:
    text = section(title)
    block = re.findall(r"```\n(.*?)```", text, re.DOTALL)[0]
    heading = text.splitlines()[0]
    if game == "axia":  # "2 075 (solo) / 3 833 (2 players) / 7 241 (4 players) values"
        totals = [number(total) for total in re.findall(r"(\d[\d ]*\d) \(", heading)]
        configurations = dict(zip([f"axia(players={n})" for n in (1, 2, 4)], totals, strict=True))
    else:
        configurations = {game: number(re.findall(r"(\d[\d ]*\d) values", heading)[0])}
    for game_string, total in configurations.items():
        encoder = encoder_for(gameshelf.load(game_string))
        assert total == encoder.size, (heading, game_string)
        if game_string == "axia(players=1)":
            continue  # solo has 2 face-up cards where the block shows 3 ("2 in solo")
        pieces = dict(encoder.pieces)
        players = gameshelf.load(game_string).spec.num_players
        sizes = {"n": players, "T": 60, "S": 32, "I": 24, "D": pieces.get("dice", (0,))[0]}
        assert documented_pieces(block, set(pieces), sizes) == pieces, game_string
