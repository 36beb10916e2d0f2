"""The generator's :class:`~gameshelf.games.axiom.board.Grid` and sketches agree with the board.

The grid answers "which cube is at this cell" for the move generator (compiled, from a small
table of ranks; as Python source, from a dict), and a sketch rules codes out of a small set
without looking at it. Both are checked against the board's own dicts and sets, on both engines,
including cubes whose table slots collide and pieces far apart.
"""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.games.axiom.board import (
    GRID_SLOTS,
    STEP,
    Board,
    Grid,
    grid_slot,
    pack,
    sketch,
    sketch_bit,
)
from gameshelf.games.axiom.state import AxiomState


def check_grid(board: Board) -> int:
    """Assert that the grid of ``board`` answers like its dicts for every cube, every cell
    next to one (faces, edges and two steps out), and return how many cells were asked."""
    grid = Grid(board)
    rank = {cell: index for index, cell in enumerate(board.cells)}
    asked = set(board.cells)
    for cell in board.cells:
        for a in STEP:
            asked.add(cell + a)
            asked.add(cell + 2 * a)
            for b in STEP:
                asked.add(cell + a + b)
    for cell in asked:
        value = board.cubes.get(cell, 0)
        assert grid.rank(cell) == rank.get(cell, -1), cell
        assert grid.value(cell) == value, cell
        assert grid.cube(cell) == (rank[cell] << 7 | value if value else -1), cell
    return len(asked)


def test_a_cell_and_its_face_and_edge_neighbours_take_different_slots() -> None:
    """The slot mix keeps a cell's 18 face and edge neighbours apart from it and each other."""
    cell = pack((3, -2, 4))
    edges = {cell + a + b for a in STEP for b in STEP if a not in (b, -b)}
    near = edges | {cell + a for a in STEP} | {cell}
    assert len({grid_slot(c) for c in near}) == len(near) == 19
    assert all(0 <= grid_slot(c) < GRID_SLOTS for c in near)


def test_cubes_whose_slots_collide_are_all_found() -> None:
    """Cubes 64 cells apart share a first slot (x * 25 mod 64 wraps round), and so do cells of
    two pieces far apart: the table probes on, so each cube and each empty cell is told right."""
    cubes = {pack((64 * i, 0, 1)): 0b000001 for i in range(6)}
    cubes |= {pack((1000 + i, -5000, 1)): 1 << 6 | 0b100000 for i in range(6)}
    board = Board(cubes, [])
    assert len({grid_slot(c) for c in board.cells[:6]}) == 1
    assert check_grid(board) > 6 * 25  # (the six lone cubes alone: 25 cells each)


@pytest.mark.parametrize("name", ["axiom", "axiom(allow_overhang=true)"])
def test_the_grid_agrees_with_the_board_through_random_play(name: str) -> None:
    """Through random games (cube moves, sceptre moves, eliminations), the grid of each
    position answers like the board's dicts."""
    game = gameshelf.load(name)
    rng = random.Random(11)
    positions = 0
    while positions < 300:
        state = game.new_initial_state()
        assert isinstance(state, AxiomState)
        while not state.is_terminal() and positions < 300:
            check_grid(state.board)
            positions += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert positions == 300


def test_a_code_left_out_of_a_sketch_is_not_among_its_codes() -> None:
    """A sketch has the bit of each of its codes, so a code without its bit there is not one of
    them; and sketches of a few codes leave most other codes out (the point of them)."""
    rng = random.Random(5)
    left_out = 0
    for _ in range(200):
        base = pack((rng.randrange(-40, 40), rng.randrange(-40, 40), rng.randrange(1, 12)))
        codes = {base + rng.choice(STEP) * rng.randrange(1, 4) << 3 | rng.randrange(6)}
        codes |= {base + rng.choice(STEP) for _ in range(3)}
        bits = sketch(codes)
        for code in codes:
            assert bits & sketch_bit(code)
        for other in range(base - 40, base + 40):
            if not bits & sketch_bit(other):
                assert other not in codes
                left_out += 1
    assert left_out > 200 * 80 // 2
