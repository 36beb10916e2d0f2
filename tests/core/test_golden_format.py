"""The golden and perft file formats of :mod:`gameshelf.core.golden`: what they write reads
back, and a malformed or outdated file is named with the line that is wrong."""

from __future__ import annotations

import pytest

from gameshelf.core.errors import InvalidData
from gameshelf.core.golden import (
    PerftCase,
    escape_line,
    format_perft,
    golden_difference,
    golden_source,
    golden_text,
    parse_perft,
    perft_case,
    perft_root,
    unescape_line,
)
from gameshelf.core.registry import load

SMALL = "cage(players=2,stock=1:1,max_plies=4)"


@pytest.mark.parametrize("text", ["plain", "two\nlines", "a \\n that is text", "end \\", "\\\n"])
def test_escaped_text_is_one_line_and_reads_back(text: str) -> None:
    line = escape_line(text)
    assert "\n" not in line
    assert unescape_line(line) == text


def test_a_golden_file_names_its_source_and_replays_to_itself() -> None:
    text = golden_text(SMALL, 5)
    assert golden_source(text) == (load(SMALL).game_string, 5)
    assert text.splitlines()[-1].startswith("end plies ")
    assert golden_difference(text) is None


def test_a_changed_golden_line_is_reported_with_its_number() -> None:
    lines = golden_text(SMALL, 5).splitlines()
    lines[3] = lines[3].replace("action", "act", 1)
    difference = golden_difference("\n".join(lines) + "\n", "x.txt")
    assert difference is not None
    assert difference.startswith("x.txt line 4 differs")
    assert "stored: " + lines[3] in difference


def test_a_cut_golden_file_is_reported_by_its_length() -> None:
    lines = golden_text(SMALL, 5).splitlines()
    difference = golden_difference("\n".join(lines[:-1]) + "\n", "x.txt")
    assert difference == f"x.txt: {len(lines) - 1} lines stored, {len(lines)} now"


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("seed 1\ngame cage\n", "does not start with"),
        ("game cage\nseed one\n", "line 2: the seed 'one'"),
    ],
)
def test_a_golden_file_without_its_source_is_refused(text: str, wrong: str) -> None:
    with pytest.raises(InvalidData, match=wrong):
        golden_source(text, "x.txt")


def test_a_perft_file_reads_back_what_was_written() -> None:
    case = perft_case("mid", perft_root(SMALL, 3, 2), 2)
    text = format_perft([case, PerftCase("other", "cage", "p\\q\nr", {1: 4})], ["one", "two"])
    assert text.startswith("# one\n# two\n\nid mid\n")
    assert parse_perft(text) == [case, PerftCase("other", "cage", "p\\q\nr", {1: 4})]
    assert case.root().position() == case.position
    assert case.counts[1] == len(case.root().legal_actions())


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("# c\ngame cage\n", "f.perft:2: 'game' before the first 'id' line"),
        ("id a\ndepth 3\n", "f.perft:2: unknown key 'depth'"),
        ("id a\nperft 2 : 5\n", "f.perft:2: expected 'perft N = count', got 'perft 2 : 5'"),
        ("id a\n\nperft x = 5\n", "f.perft:3: expected 'perft N = count'"),
    ],
)
def test_a_malformed_perft_line_is_named(text: str, wrong: str) -> None:
    with pytest.raises(InvalidData) as error:
        parse_perft(text, "f.perft")
    assert str(error.value).startswith(wrong)


def test_a_perft_root_past_the_end_of_the_game_is_refused() -> None:
    with pytest.raises(InvalidData, match=r"ends before ply 50"):
        perft_root(SMALL, 3, 50)
