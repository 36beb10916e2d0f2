"""Facts of the cage's geometry the rules page says an implementation must reproduce."""

from __future__ import annotations

from collections import Counter

from gameshelf.games.cage.board import flipped, settle, twisted
from gameshelf.games.cage.geometry import CELLS, LINES, LINES_THROUGH, RING, cell


def _kind(line: tuple[int, int, int]) -> str:
    layers = {i // RING for i in line}
    columns = {i % RING for i in line}
    if len(layers) == 1:
        return "horizontal"
    if len(columns) == 1:
        return "vertical"
    return "diagonal"


def test_there_are_28_distinct_lines_12_horizontal_8_vertical_8_diagonal() -> None:
    assert len(LINES) == 28
    assert len({frozenset(line) for line in LINES}) == 28
    assert Counter(_kind(line) for line in LINES) == {
        "horizontal": 12,
        "vertical": 8,
        "diagonal": 8,
    }


def test_lines_through_each_cell_corner_5_3_5_and_edge_2_4_2() -> None:
    for r in range(RING):
        expected = (5, 3, 5) if r % 2 == 0 else (2, 4, 2)
        counts = tuple(len(LINES_THROUGH[cell(r, z)]) for z in range(3))
        assert counts == expected, f"column {r}"
        for z in range(3):
            brute = sum(1 for line in LINES if cell(r, z) in line)
            assert brute == counts[z]


def test_front_face_lines_are_the_cells_a_player_sees() -> None:
    front = {frozenset(line) for line in LINES if {i % RING for i in line} <= {0, 1, 2}}
    assert frozenset({cell(0, 0), cell(1, 1), cell(2, 2)}) in front  # rising diagonal
    assert frozenset({cell(0, 2), cell(1, 1), cell(2, 0)}) in front  # falling diagonal
    assert frozenset({cell(0, 1), cell(1, 1), cell(2, 1)}) in front  # middle row
    assert len(front) == 8


def test_a_quarter_twist_moves_a_cubie_two_ring_positions_counter_clockwise() -> None:
    board = [0] * CELLS
    board[cell(0, 0)] = 1  # a corner stays a corner
    board[cell(1, 0)] = 2  # an edge stays an edge
    new, heights = twisted(board, 0)  # (0, +1)
    assert new[cell(2, 0)] == 1 and new[cell(3, 0)] == 2
    assert heights == [0, 0, 1, 1, 0, 0, 0, 0]
    back, _ = twisted(board, 1)  # (0, -1)
    assert back[cell(6, 0)] == 1 and back[cell(7, 0)] == 2


def test_full_cage_reaches_exactly_128_arrangements_under_twists_and_flips() -> None:
    # A generic colouring: all 24 cubies distinguishable, so arrangements are permutations.
    start = tuple(range(1, CELLS + 1))
    seen = {start}
    frontier = [start]
    while frontier:
        board = frontier.pop()
        children = [tuple(twisted(list(board), t)[0]) for t in range(6)]
        children.append(tuple(flipped(list(board), [3] * RING)[0]))
        for child in children:
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) == 128


def test_settle_packs_every_column_to_the_bottom() -> None:
    board = [0] * CELLS
    board[cell(3, 2)] = 4
    board[cell(5, 1)] = 2
    board[cell(5, 2)] = 3
    heights = settle(board)
    assert heights == [0, 0, 0, 1, 0, 2, 0, 0]
    assert board[cell(3, 0)] == 4 and board[cell(3, 2)] == 0
    assert (board[cell(5, 0)], board[cell(5, 1)], board[cell(5, 2)]) == (2, 3, 0)


def test_fast_twist_agrees_with_the_reference_permutation_then_settle() -> None:
    import random

    from gameshelf.games.cage.board import column_heights
    from gameshelf.games.cage.geometry import TWIST_SOURCES

    rng = random.Random(5)
    for _ in range(2000):
        board = [0] * CELLS
        for r in range(RING):
            for z in range(rng.randrange(4)):
                board[cell(r, z)] = rng.randrange(1, 7)
        for t, source in enumerate(TWIST_SOURCES):
            reference = [board[i] for i in source]
            heights = settle(reference)
            assert twisted(board, t) == (reference, heights)
            assert column_heights(reference) == heights
