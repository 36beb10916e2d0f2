"""Random playouts through the shared conformance checks (thousands of games in all).

Every position of the fully checked runs has its legal moves written and read back, its
position text round-tripped, a clone checked for independence, and each game's record replayed;
the sampled runs check every tenth position of many more games.
"""

from __future__ import annotations

import pytest

import gameshelf
from gameshelf.core.conformance import random_playouts

CONFIGS = ["axiom", "axiom(sceptre_clearance=tall)", "axiom(allow_overhang=true)"]
FULL = {"axiom": 30, "axiom(sceptre_clearance=tall)": 20, "axiom(allow_overhang=true)": 20}
SAMPLED = {"axiom": 700, "axiom(sceptre_clearance=tall)": 600, "axiom(allow_overhang=true)": 700}
CHUNK_FULL = 10
CHUNK_SAMPLED = 100


def _chunks(table: dict[str, int], size: int) -> list[tuple[str, int]]:
    return [(name, start) for name, total in table.items() for start in range(0, total, size)]


@pytest.mark.slow
@pytest.mark.parametrize(("game_string", "first"), _chunks(FULL, CHUNK_FULL))
def test_every_position_fully_checked(game_string: str, first: int) -> None:
    stats = random_playouts(gameshelf.load(game_string), games=CHUNK_FULL, seed=first)
    assert stats.games == CHUNK_FULL
    assert stats.plies > CHUNK_FULL * 10


@pytest.mark.slow
@pytest.mark.parametrize(("game_string", "first"), _chunks(SAMPLED, CHUNK_SAMPLED))
def test_many_games_sampled(game_string: str, first: int) -> None:
    game = gameshelf.load(game_string)
    stats = random_playouts(
        game, games=CHUNK_SAMPLED, seed=10_000 + first, check_every=10, check_records=False
    )
    assert stats.games == CHUNK_SAMPLED
    assert stats.longest <= game.spec.max_game_length
    # both sides win games and both kinds of decisive ending occur
    assert any("black wins" in o for o in stats.outcomes)
    assert any("white wins" in o for o in stats.outcomes)
    assert any("self-capture" in o for o in stats.outcomes)


@pytest.mark.parametrize(
    "game_string",
    [
        "axiom(diagonal_moves=false,concave_turns=false)",
        "axiom(diagonal_squeeze=top_only,forbid_recess_contact=true)",
        "axiom(diagonal_squeeze=off,require_connected=true)",
        "axiom(self_capture=only_if_forced,no_move_result=draw,max_plies=120)",
        "axiom(sceptre_clearance=tall,allow_overhang=true,repetition_draw=2)",
    ],
)
def test_other_options_play_through(game_string: str) -> None:
    stats = random_playouts(gameshelf.load(game_string), games=4, seed=7)
    assert stats.games == 4
