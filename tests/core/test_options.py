"""Game strings and option parsing, independent of any one game."""

from __future__ import annotations

import pytest

import gameshelf
from gameshelf.core.errors import InvalidGameString, InvalidOption
from gameshelf.core.options import (
    OptionSpec,
    format_game_string,
    parse_decimal,
    parse_game_string,
    resolve_options,
)
from gameshelf.core.rng import derive_seed

SPECS = (
    OptionSpec("players", "int", 2, "players", minimum=1, maximum=4),
    OptionSpec("fast", "bool", False, "fast"),
    OptionSpec("mode", "choice", "a", "mode", choices=("a", "b")),
    OptionSpec("cards", "str", "builtin", "card file"),
)


def test_parse_splits_name_and_options_and_keeps_quoted_commas() -> None:
    parsed = parse_game_string('demo(players=3, cards="my,cards.json")')
    assert parsed.name == "demo"
    assert parsed.options == (("players", "3"), ("cards", "my,cards.json"))
    assert parse_game_string("demo").options == ()
    assert parse_game_string("demo()").options == ()


def test_resolve_fills_defaults_and_parses_types() -> None:
    values = resolve_options("demo", SPECS, (("fast", "yes"), ("players", "4")))
    assert values == {"players": 4, "fast": True, "mode": "a", "cards": "builtin"}


@pytest.mark.parametrize(
    ("given", "words"),
    [
        (("speed", "1"), "demo has no option 'speed'; its options are: cards, fast, mode, players"),
        (("players", "0"), "below the minimum 1"),
        (("fast", "maybe"), "allowed: true or false"),
        (("mode", "c"), "allowed: a | b"),
        (("cards", ""), "empty value"),
    ],
)
def test_bad_options_name_the_option_and_the_allowed_values(
    given: tuple[str, str], words: str
) -> None:
    with pytest.raises(InvalidOption) as caught:
        resolve_options("demo", SPECS, (given,))
    assert words in str(caught.value)


@pytest.mark.parametrize("text", ["", "demo(", "1demo", "demo(players=1)x", 'demo(cards="a)'])
def test_malformed_game_strings(text: str) -> None:
    with pytest.raises(InvalidGameString):
        parse_game_string(text)


def test_format_writes_only_non_default_options_and_quotes_commas() -> None:
    values = {"players": 3, "fast": False, "mode": "b", "cards": "x,y.json"}
    assert format_game_string("demo", SPECS, values) == 'demo(players=3,mode=b,cards="x,y.json")'


def test_available_games_lists_the_cage() -> None:
    assert "cage" in gameshelf.available_games()
    assert gameshelf.load("cage").spec.num_distinct_actions == 55


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, "seat", 0) == derive_seed(1, "seat", 0)
    assert derive_seed(1, "seat", 0) != derive_seed(1, "seat", 1)
    assert derive_seed(2, "seat", 0) != derive_seed(1, "seat", 0)
    assert 0 <= derive_seed(1, "chance", 5) < 2**63


@pytest.mark.parametrize("text", ["+3", "1_0", "٣", "２", "3.0", "0x3", "1" * 19, "- 3", "--3"])
def test_int_options_take_only_plain_ascii_decimals(text: str) -> None:
    """``int()`` reads all of these; an option value must be digits with an optional minus."""
    with pytest.raises(InvalidOption, match="players="):
        resolve_options("demo", SPECS, (("players", text),))


def test_plain_decimals_with_a_minus_where_negatives_make_sense() -> None:
    signed = (OptionSpec("offset", "int", 0, "offset", minimum=-5, maximum=5),)
    assert resolve_options("demo", signed, (("offset", "-3"),)) == {"offset": -3}
    assert resolve_options("demo", SPECS, (("players", "03"),))["players"] == 3
    with pytest.raises(ValueError, match="negative"):
        parse_decimal("-3")
    assert parse_decimal("-3", negative=True) == -3
    with pytest.raises(ValueError, match="digits"):
        parse_decimal("1234", max_digits=3)
