"""Axiom's action ids and the legal-move generator that lists them.

Action ids are state-relative and bounded: cubes are ranked by their cell in sorted order
(0..11).

* sceptre move: ``source_rank * 72 + target_rank * 6 + face`` (< 864);
* cube move: ``864 + ((source_rank * 12 + anchor_rank) * 6 + anchor_dir) * 18 + placement``,
  where the anchor is the lowest-ranked other cube next to the target cell, ``anchor_dir`` the
  direction from it to the target, and ``placement`` the index of the dome set in
  :data:`~.geometry.PLACEMENTS`.

The notation, not the id, is what records and people use; ids only need to be a bijection
within one state, which the conformance checks verify. The generator asks the rules of
:mod:`.board` and memoises what depends only on a target cell's neighbourhood.
"""

from __future__ import annotations

from typing import Any, Final

from .board import (
    STEP,
    Board,
    closed_cells,
    connection_problem,
    entry_without,
    fitting_masks,
    holders,
    landing,
    lift_problem,
    sceptre_faces,
    splitting,
)
from .geometry import PLACEMENT_INDEX, PLACEMENTS
from .options import AxiomOptions

SCEPTRE_ACTIONS: Final = 12 * 12 * 6
"""Sceptre-move ids come first; cube-move ids start here."""
WIDTH: Final = len(PLACEMENTS)
CUBE_ACTIONS: Final = 12 * 12 * 6 * WIDTH
NUM_ACTIONS: Final = SCEPTRE_ACTIONS + CUBE_ACTIONS

Move = tuple[int, int, int, int]
"""A decoded move on packed cells: ``(0, source, target, face)`` for a sceptre,
``(1, source, target, dome mask)`` for a cube."""
SCEPTRE, CUBE = 0, 1


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
    rest, placement = divmod(rest, WIDTH)
    rest, anchor_dir = divmod(rest, 6)
    source, anchor = divmod(rest, 12)
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


# --- the generator ----------------------------------------------------------------------------

# Ranks follow packed-cell order, and the neighbours of a cell in ascending order lie x-, y-,
# z-, z+, y+, x+ of it: the anchor (lowest-ranked neighbour) is the first of those present.
_FIRST: Final[tuple[int, ...]] = tuple(
    next((d for d in (1, 3, 5, 4, 2, 0) if touching >> d & 1), -1) for touching in range(64)
)

# Memo of the cube-move ids to one target cell: per ``(allow_overhang, forbid_recess_contact)``
# flags and number of domes, target key → the ids less the lifted cube's row offset (the key:
# a target entry, 13 bits, see :mod:`.board`, plus the anchor code + 1 from bit 13), and per
# rank of the lifted cube, target key → the ids themselves, kept as the int objects they are
# (so listing a target's ids makes no new ints).
_MEMO: Final[dict[int, list[list[dict[int, tuple[int, ...]]]]]] = {}
_MEMO_BOUND: Final = 20_000
"""A bound on the entries of each rank-free memo (a few thousand are typical)."""
_RANK_BOUND: Final = 4_000
"""A bound on the entries of each memo of one rank (its ids are int objects of their own)."""


def _memo(opts: AxiomOptions) -> list[list[dict[int, tuple[int, ...]]]]:
    """The memos of ``opts``' fit flags, by number of domes - 1: the rank-free one, then
    one per rank of the lifted cube."""
    flags = opts.allow_overhang * 2 + opts.forbid_recess_contact
    found = _MEMO.get(flags)
    if found is None:
        found = _MEMO[flags] = [[{} for _ in range(13)] for _ in range(2)]
    return found


def _fill(
    opts: AxiomOptions, memos: list[dict[int, tuple[int, ...]]], domes: int, rank: int, key: int
) -> tuple[int, ...]:
    """The ids, ascending, of a target key for a lifted cube with ``domes`` domes and rank
    ``rank`` (from :func:`~.board.fitting_masks` through the rank-free memo ``memos[0]``,
    then kept in ``memos[rank + 1]``)."""
    common = memos[0]
    memo = memos[rank + 1]
    if len(memo) > _RANK_BOUND:
        memo.clear()
    if len(common) > _MEMO_BOUND:
        common.clear()
    rel = common.get(key)
    if rel is None:
        code = (key >> 13) - 1
        rel = ()
        if code >= 0:
            start = SCEPTRE_ACTIONS + code * WIDTH
            masks = fitting_masks(opts, key)[domes - 1]
            rel = tuple(sorted([start + PLACEMENT_INDEX[m] for m in masks]))
        common[key] = rel
    offset = rank * 72 * WIDTH
    found = tuple([offset + x for x in rel])
    memo[key] = found
    return found


def _key(t: int, entry: int, rank: dict[int, int]) -> int:
    """The key of target cell ``t``: its entry and anchor code + 1 (0: no neighbour)."""
    d = _FIRST[entry & 63]
    if d < 0:
        return entry
    return entry | (rank[t + STEP[d]] * 6 + (d ^ 1) + 1) << 13


def _sources(opts: AxiomOptions, board: Board, me: int) -> list[int]:
    """The cubes ``me`` may lift, as ``cell << 5 | rank << 1 | (two domes)``, by rank."""
    cubes = board.cubes
    held = holders(board)
    sources: list[int] = []
    objects: list[Any] = board.cells  # (int objects, looked up as they are)
    for r, obj in enumerate(objects):
        value = cubes[obj]
        cell: int = obj
        # (the colour test first only to skip the call: lift_problem makes it too)
        if value >> 6 == me and not lift_problem(opts, board, cell, me, held):
            mask = value & 63
            sources.append(cell << 5 | r << 1 | (1 if mask & (mask - 1) else 0))
    return sources


def cube_ids(opts: AxiomOptions, board: Board, me: int) -> list[int]:
    """The ids of ``me``'s cube moves, ascending.

    The target cells not next to any lifted cube have the same key for every lifted cube, so
    they are keyed once (and sorted once, by anchor code, which is id order); only the cells
    next to a lifted cube are keyed again without it, and merged in.
    """
    sources = _sources(opts, board, me)
    if not sources:
        return []
    rank = board.rank
    cells = board.cells
    memos = _memo(opts)
    # target cells that need a second look: 2 next to a lifted cube, 1 closed (skipped)
    special: dict[int, int] = {}
    for code in sources:
        source = code >> 5
        for offset in STEP:
            special[source + offset] = 2
    for cell in closed_cells(opts, board):
        special[cell] = 1
    # (the cells and keys typed Any stay the int objects they are: compiled, a lookup with an
    # int-typed value would box it into a new object first)
    entries: dict[Any, int] = board.entries
    far_keys: list[Any] = []
    near_cells: list[int] = []
    near_entries: list[int] = []
    for obj, entry in entries.items():
        kind = special.get(obj, 0)
        if kind:
            if kind == 2:
                near_cells.append(obj)
                near_entries.append(entry)
            continue
        t: int = obj
        d = _FIRST[entry & 63]  # the anchor, inlined from _key (every entry has a neighbour)
        far_keys.append(entry | (rank[t + STEP[d]] * 6 + (d ^ 1) + 1) << 13)
    far_keys.sort()  # by anchor code, that is in id order
    # the near cells' keys with every cube there (those next to the lifted one change)
    near_keys: list[Any] = [
        _key(near_cells[i], near_entries[i], rank) for i in range(len(near_cells))
    ]
    ids: list[int] = []
    for code in sources:  # by rank: each lifted cube's ids lie above the one's before
        source = code >> 5
        r = code >> 1 & 15
        by_rank = memos[code & 1]
        memo = by_rank[r + 1]
        keys: list[Any] = far_keys
        if near_cells:
            keys = list(far_keys)
            for i in range(len(near_cells)):
                t = near_cells[i]
                e = _DIRECTION.get(t - source)
                if e is None:
                    keys.append(near_keys[i])
                else:  # without the lifted cube, seen from t
                    keys.append(_key(t, entry_without(near_entries[i], e ^ 1), rank))
            keys.sort()
        split = splitting(board, source) if opts.require_connected else None
        for key in keys:
            found = memo.get(key)
            if found is None:
                found = _fill(opts, by_rank, (code & 1) + 1, r, key)
            if found:
                if split is not None:
                    k: int = key
                    anchor = (k >> 13) - 1  # the target: anchor cube + direction
                    target = cells[anchor // 6] + STEP[anchor % 6]
                    if connection_problem(board, split, target, k & 63):
                        continue
                ids += found
    return ids


_DIRECTION: Final[dict[int, int]] = {offset: e for e, offset in enumerate(STEP)}


def legal_ids(opts: AxiomOptions, board: Board, me: int) -> list[int]:
    """Every legal action id of ``me`` on ``board``, ascending (the game not yet over).

    With ``self_capture=only_if_forced`` a move onto the cube of the mover's other sceptre
    is listed only when there is no other move.
    """
    rank = board.rank
    forced = opts.forced_self_capture
    ids: list[int] = []
    risky: list[int] = []
    index = 0
    for owner, cell, _ in board.sceptres:
        if owner == me:
            base = rank[cell] * 72
            for face in sceptre_faces(opts, board, index):
                target = face >> 3
                action = base + rank[target] * 6 + (face & 7)
                if forced:
                    outcome = landing(board, index, target)
                    if outcome is not None and outcome[1] == "self-capture":
                        risky.append(action)
                        continue
                ids.append(action)
        index += 1
    ids.sort()  # (a few sceptre moves; the cube moves' ids are higher, and come sorted)
    ids += cube_ids(opts, board, me)
    if risky and not ids:
        risky.sort()
        return risky
    return ids
