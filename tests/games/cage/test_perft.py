"""Perft of the empty cage for 2, 3 and 4 players, depths 1-4.

Depths 1 and 2 are checked by hand (below); depths 3 and 4 are pinned from the engine once the
hand-checked levels agreed, so that any change of the rules shows up here.

Depth 1: each player drops one of their own colours into any of 8 columns, or plays one of
6 twists or the flip: 2 players 3*8+7 = 31, 3 players 2*8+7 = 23, 4 players 1*8+7 = 15.

Depth 2 (c = colours per player, so drops = 8c):
- after one of the 8c drops, no column is full and nothing is forbidden: 8c + 7 replies;
- after one of the 6 twists, its inverse is forbidden: 8c + 6 replies;
- after the flip, the flip is forbidden: 8c + 6 replies.
  2 players: 24*31 + 6*30 + 30 = 954;  3 players: 16*23 + 6*22 + 22 = 522;
  4 players: 8*15 + 6*14 + 14 = 218.
"""

from __future__ import annotations

import pytest

from gameshelf.core.perft import divide, perft

from .conftest import cage_state

PERFT = {
    2: [31, 954, 29364, 903168],
    3: [23, 522, 11852, 268968],
    4: [15, 218, 3172, 46144],
}


def _by_hand(colours: int, depth: int) -> int:
    drops = 8 * colours
    if depth == 1:
        return drops + 7
    return drops * (drops + 7) + 7 * (drops + 6)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_depths_1_and_2_match_the_hand_count(players: int) -> None:
    colours = {2: 3, 3: 2, 4: 1}[players]
    state = cage_state(f"cage(players={players})")
    assert perft(state, 1) == _by_hand(colours, 1) == PERFT[players][0]
    assert perft(state, 2) == _by_hand(colours, 2) == PERFT[players][1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_depths_3_and_4_are_pinned(players: int) -> None:
    state = cage_state(f"cage(players={players})")
    assert [perft(state, d) for d in (3, 4)] == PERFT[players][2:]


def test_divide_splits_depth_2_by_first_move() -> None:
    rows = dict(divide(cage_state("cage"), 2))
    assert rows["W0"] == 31 and rows["T1+"] == 30 and rows["F"] == 30
    assert sum(rows.values()) == 954


def test_perft_counts_nothing_for_games_that_end_early() -> None:
    # W W drop in column 0 then the third W ends the game: nothing continues after it.
    state = cage_state("cage", "W0 O1 W0 O1")
    assert perft(state, 1) == 31
    assert dict(divide(state, 2))["W0"] == 0
