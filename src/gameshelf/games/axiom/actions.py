"""Axiom's action ids and the legal-move generator that lists them.

Action ids are state-relative and bounded: cubes are ranked by their cell in sorted order
(0..11).

* sceptre move: ``source_rank * 72 + target_rank * 6 + face`` (< 864);
* cube move: ``864 + ((source_rank * 12 + anchor_rank) * 6 + anchor_dir) * 18 + placement``,
  where the anchor is the lowest-ranked other cube next to the target cell, ``anchor_dir`` the
  direction from it to the target, and ``placement`` the index of the dome set in
  :data:`~.geometry.PLACEMENTS`.

The notation, not the id, is what records and people use; ids only need to be a bijection
within one state, which the conformance checks verify. :mod:`.generator` lists the legal
ones.
"""

from __future__ import annotations

from typing import Final

from .board import STEP, Board
from .geometry import PLACEMENT_INDEX, PLACEMENTS

SCEPTRE_ACTIONS: Final = 12 * 12 * 6
"""Sceptre-move ids come first; cube-move ids start here."""
WIDTH: Final = len(PLACEMENTS)
CUBE_ACTIONS: Final = 12 * 12 * 6 * WIDTH
NUM_ACTIONS: Final = SCEPTRE_ACTIONS + CUBE_ACTIONS

Move = tuple[int, int, int, int]
"""A decoded move on packed cells: ``(0, source, target, face)`` for a sceptre,
``(1, source, target, dome mask)`` for a cube."""
SCEPTRE: Final = 0
CUBE: Final = 1


def decode(board: Board, action: int) -> Move | None:
    """The move an id names on ``board``, or ``None`` when a rank is out of range."""
    cells = board.cells
    count = len(cells)
    if 0 <= action < SCEPTRE_ACTIONS:
        s, t = action // 72, action // 6 % 12
        if s >= count or t >= count:
            return None
        return (SCEPTRE, cells[s], cells[t], action % 6)
    rest = action - SCEPTRE_ACTIONS
    if not 0 <= rest < CUBE_ACTIONS:
        return None
    # (// and %, not divmod: compiled, divmod is a generic call on boxed ints)
    rest, placement = rest // WIDTH, rest % WIDTH
    rest, anchor_dir = rest // 6, rest % 6
    source, anchor = rest // 12, rest % 12
    if source >= count or anchor >= count:
        return None
    return (CUBE, cells[source], cells[anchor] + STEP[anchor_dir], PLACEMENTS[placement])


def anchor_code(board: Board, source: int, target: int) -> int:
    """``anchor_rank * 6 + anchor_dir`` of a cube move's target cell (-1: no neighbour)."""
    rank = board.rank
    best = -1
    for d, offset in enumerate(STEP):
        q = target + offset
        r = rank.get(q)
        if r is not None and q != source:
            code = r * 6 + (d ^ 1)
            if best < 0 or code < best:
                best = code
    return best


def encode(board: Board, move: Move) -> int:
    """The id of a move (a cube move's target must touch another cube, see
    :func:`anchor_code`)."""
    kind, source, target, extra = move
    rank = board.rank
    if kind == SCEPTRE:
        return rank[source] * 72 + rank[target] * 6 + extra
    code = anchor_code(board, source, target)
    return SCEPTRE_ACTIONS + (rank[source] * 72 + code) * WIDTH + PLACEMENT_INDEX[extra]
