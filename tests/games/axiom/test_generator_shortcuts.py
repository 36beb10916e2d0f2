"""The generator's shortcuts agree with the rules they stand for.

The generator skips cells without room before keying them and keeps each sceptre's context on
the board until the sceptres move; each is checked here against the plain rule or a board built
from scratch, with the ranks a board keeps across cube moves and eliminations.
"""

from __future__ import annotations

import random

import pytest

import gameshelf
from gameshelf.games.axiom.board import (
    ROOM_BITS,
    Board,
    fitting_masks,
    move_cube,
    restore_cube,
    sceptre_context,
)
from gameshelf.games.axiom.generator import MoveGenerator, room_table
from gameshelf.games.axiom.options import AxiomOptions
from gameshelf.games.axiom.state import AxiomGame, AxiomState

OPTION_SETS = [
    {},
    {"allow_overhang": True},
    {"sceptre_clearance": "tall"},
    {"forbid_recess_contact": True},
    {"require_connected": True, "allow_overhang": True},
]


@pytest.mark.parametrize("values", OPTION_SETS)
def test_a_cell_without_room_fits_no_dome_set(values: dict[str, object]) -> None:
    """Every target entry the room table rules out fits no cube, and the table keeps some."""
    options = AxiomOptions.from_values(values)
    room = room_table(options)
    assert len(room) == ROOM_BITS + 1
    kept = 0
    for entry in range(1 << 13):
        if room[entry & ROOM_BITS]:
            kept += 1
        else:
            assert fitting_masks(options, entry) == ((), ()), entry
    assert 0 < kept < 1 << 13


def fresh(board: Board) -> Board:
    """The same position built from its cubes and sceptres alone."""
    return Board(dict(board.cubes), list(board.sceptres))


def axiom(name: str) -> AxiomGame:
    """The Axiom game of a game string."""
    game = gameshelf.load(name)
    assert isinstance(game, AxiomGame)
    return game


def random_states(name: str, count: int, seed: int) -> list[AxiomState]:
    """``count`` positions of random play (new games as games end)."""
    game = axiom(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    states: list[AxiomState] = []
    while len(states) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return states


def test_kept_contexts_ranks_and_entries_match_a_fresh_board() -> None:
    """Along random games, with moves taken back too, the board's kept sceptre contexts, its
    ranks and its target entries are those of the same position built from scratch."""
    game = axiom("axiom")
    rng = random.Random(11)
    state = game.new_initial_state()
    checked = 0
    for _ in range(600):
        if state.is_terminal():
            state = game.new_initial_state()
        for index in range(len(state.board.sceptres)):
            sceptre_context(state.board, index)  # fill the kept contexts
        state.apply_action(rng.choice(state.legal_actions()))
        if rng.random() < 0.3 and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            state.undo()
        board, built = state.board, fresh(state.board)
        assert board.cells == built.cells
        assert board.rank == built.rank
        assert board.entries == built.entries
        for index in range(len(board.sceptres)):
            assert sceptre_context(board, index) == sceptre_context(built, index)
            checked += 1
    assert checked > 1000


def test_a_cube_move_and_its_reverse_restore_the_ranks() -> None:
    """Ranks move only where a cube move changes them: moving a cube and moving it back, or
    eliminating and restoring one, gives the ranks the board started with."""
    for state in random_states("axiom", 200, seed=5):
        board = state.board.copy()
        before = dict(board.rank)
        cells = list(board.cells)
        source, target = cells[0], max(board.entries)
        value = board.cubes[source]
        move_cube(board, source, target, value & 63)
        assert board.rank == fresh(board).rank
        move_cube(board, target, source, value & 63)
        assert board.rank == before and board.cells == cells
        last = cells[-1]
        value = board.cubes.pop(last)
        board.reindex(last)
        assert board.rank == fresh(board).rank
        restore_cube(board, last, value)
        assert board.rank == before


@pytest.mark.parametrize("name", ["axiom", "axiom(allow_overhang=true)"])
def test_legal_ids_do_not_depend_on_what_the_board_keeps(name: str) -> None:
    """A board carrying kept contexts and moved ranks lists the same ids as a fresh one, with
    a fresh generator (an empty memo)."""
    states = random_states(name, 150, seed=8)
    options = states[0].game.options
    for state in states:
        kept = state.game.generator.legal_ids(state.board, state.to_move)
        again = MoveGenerator(options).legal_ids(fresh(state.board), state.to_move)
        assert kept == again
