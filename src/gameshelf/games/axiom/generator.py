"""Axiom's legal-move generator: every legal action id of one side, ascending.

Sceptre moves come from :func:`~.board.sceptre_faces`. Cube moves are the bulk of a position's
moves and are found through *target keys*: what a cube placed in an empty cell may show
depends only on that cell's neighbourhood (its target entry, see :mod:`.board`), and the ids
of those placements only on the neighbourhood, the anchor the id names the cell by (see
:mod:`.actions`), the lifted cube's rank and its number of domes. A :class:`MoveGenerator`,
owned by one game and built from its options, keeps the answers per target key, so that a
position's cube moves are mostly looked up.

Target key layout (an int below ``2**20``):

* bits 0-12: the cell's target entry (:data:`ENTRY_BITS`);
* bits 13 and up: the anchor code + 1, where the anchor code is ``anchor_rank * 6 +
  anchor_dir`` (:func:`~.actions.anchor_code`) and 0 means the cell touches no cube.

Keys in ascending order are cells in ascending anchor code, which is the order of their ids.
"""

from __future__ import annotations

from typing import Any, Final

from .actions import SCEPTRE_ACTIONS, WIDTH
from .board import (
    GROUND,
    ROOM_BITS,
    STEP,
    UP,
    Board,
    Grid,
    Split,
    cell_problem,
    closed_cells,
    connection_problem,
    entry_without,
    fitting_masks,
    landing,
    sceptre_faces,
    splitting,
    supported,
)
from .geometry import PLACEMENT_INDEX
from .options import AxiomOptions

ENTRY_BITS: Final = 13
"""The low bits of a target key: the cell's target entry."""
ENTRY_MASK: Final = (1 << ENTRY_BITS) - 1
SOURCE_STRIDE: Final = 12 * 6 * WIDTH
"""How far apart the cube-move ids of two lifted cubes of neighbouring rank start."""
MEMO_BOUND: Final = 20_000
"""The most target keys a generator remembers before it starts again (a few thousand are
typical of a game; the bound keeps a long-running process's memory flat)."""

_ANCHOR_SEARCH: Final[tuple[int, ...]] = (1, 3, 5, 4, 2, 0)
"""Directions from a cell to its neighbours in ascending packed-cell order (x-, y-, z-, z+,
y+, x+): ranks follow that order, so the anchor (the lowest-ranked neighbour) is the first
neighbour found in it."""
_FIRST_NEIGHBOUR: Final[tuple[int, ...]] = tuple(
    next((d for d in _ANCHOR_SEARCH if touching >> d & 1), -1) for touching in range(64)
)
"""For each mask of neighbour directions, the direction of the anchor (-1: none)."""


def make_key(entry: int, anchor: int) -> int:
    """The target key of a cell with target entry ``entry`` and anchor code ``anchor``
    (-1: no neighbour)."""
    return entry | (anchor + 1) << ENTRY_BITS


def key_entry(key: int) -> int:
    """The target entry of a key."""
    return key & ENTRY_MASK


def key_anchor(key: int) -> int:
    """The anchor code of a key (-1: the cell touches no cube)."""
    return (key >> ENTRY_BITS) - 1


def cell_key(cell: int, entry: int, grid: Grid) -> int:
    """The target key of the empty cell ``cell`` with target entry ``entry`` on the board of
    ``grid``."""
    d = _FIRST_NEIGHBOUR[entry & 63]
    if d < 0:
        return make_key(entry, -1)
    # the anchor lies in direction d of the cell; the code names the cell from it (d ^ 1)
    return make_key(entry, grid.rank(cell + STEP[d]) * 6 + (d ^ 1))


class TargetIds:
    """What one target key allows: the ids of each dome set that fits, for each lifted cube.

    ``fits[domes - 1]`` are the ids, ascending, for a lifted cube of rank 0 (the others lie
    :data:`SOURCE_STRIDE` higher per rank); ``by_source[rank * 2 + domes - 1]`` are those
    ids moved to the lifted cube's rank, made once and then handed out as they are.
    """

    __slots__ = ("by_source", "fits")

    def __init__(self, fits: list[tuple[int, ...]]) -> None:
        self.fits = fits
        self.by_source: list[tuple[int, ...] | None] = [None] * 24

    def ids(self, slot: int) -> tuple[int, ...]:
        """The ids for the lifted cube of slot ``slot`` (``rank * 2 + domes - 1``)."""
        found = self.by_source[slot]
        if found is None:
            rank, fits = slot // 2, self.fits[slot % 2]  # slot = rank * 2 + domes - 1
            offset = rank * SOURCE_STRIDE
            found = tuple([offset + action for action in fits])
            self.by_source[slot] = found
        return found


class Source:
    """A cube the side to move may lift: its cell, rank and number of domes."""

    __slots__ = ("cell", "domes", "rank")

    def __init__(self, cell: int, rank: int, domes: int) -> None:
        self.cell = cell
        self.rank = rank
        self.domes = domes


class MoveGenerator:
    """The legal-move generator of one game's options, with its memo of target keys."""

    __slots__ = ("_targets", "memo_bound", "options", "room")

    def __init__(self, options: AxiomOptions, memo_bound: int = MEMO_BOUND) -> None:
        self.options = options
        self.memo_bound = memo_bound
        """The most target keys remembered; the memo starts again beyond it."""
        self._targets: dict[int, TargetIds] = {}
        self.room = room_table(options)
        """Whether a cube may go into a cell, by ``entry & ROOM_BITS`` (see
        :func:`room_table`)."""

    def memo_size(self) -> int:
        """How many target keys the memo holds now."""
        return len(self._targets)

    def legal_ids(self, board: Board, me: int) -> list[int]:
        """Every legal action id of ``me`` on ``board``, ascending (the game not yet over).

        With ``self_capture=only_if_forced`` a move onto the cube of the mover's other sceptre
        is listed only when there is no other move.
        """
        grid = Grid(board)  # (made once for both kinds of move)
        ids, risky = self.sceptre_ids(board, me, grid)
        self.add_cube_ids(board, me, ids, grid)
        if risky and not ids:
            return risky
        return ids

    def sceptre_ids(
        self, board: Board, me: int, grid: Grid | None = None
    ) -> tuple[list[int], list[int]]:
        """The ids of ``me``'s sceptre moves, ascending: those allowed, and (with
        ``self_capture=only_if_forced``) those that would capture the mover's own sceptre.
        ``grid``: the board's :class:`~.board.Grid` when the caller has it."""
        if grid is None:
            grid = Grid(board)
        forced = self.options.forced_self_capture
        ids: list[int] = []
        risky: list[int] = []
        for index, (owner, cell, _) in enumerate(board.sceptres):
            if owner != me:
                continue
            base = grid.rank(cell) * 72
            for face in sceptre_faces(self.options, board, index, grid):
                action = base + (face >> 3) * 6 + (face & 7)  # face: target rank << 3 | face
                if forced and _captures_own(board, index, grid.cells[face >> 3]):
                    risky.append(action)
                else:
                    ids.append(action)
        ids.sort()
        risky.sort()
        return ids, risky

    def cube_ids(self, board: Board, me: int) -> list[int]:
        """The ids of ``me``'s cube moves, ascending."""
        ids: list[int] = []
        self.add_cube_ids(board, me, ids, Grid(board))
        return ids

    def add_cube_ids(self, board: Board, me: int, ids: list[int], grid: Grid) -> None:
        """Append the ids of ``me``'s cube moves to ``ids``, ascending (``grid``: the board's
        :class:`~.board.Grid`).

        Every open cell is keyed once, as the board stands (:func:`open_keys`, sorted once);
        lifting a cube changes only the keys of the cells next to it, so for each lifted cube
        those few are keyed again (:func:`lifted_keys`) and merged in, in key order.
        """
        sources = movable_cubes(self.options, board, me, grid)
        if not sources:
            return
        room = self.room
        closed = closed_cells(self.options, board)
        keys = open_keys(board.entries, closed, room, grid)
        targets = self._targets
        # (Any: each key stays the object the list holds for its memo lookup; compiled, an
        # int-typed key would be made into a new object for it)
        key_objects: list[Any] = keys
        found = [targets.get(key) or self._target(key) for key in key_objects]
        connected = self.options.require_connected
        split: Split | None = None
        for source in sources:  # by rank: each lifted cube's ids lie above those before
            if connected:
                split = splitting(board, source.cell)
            before, after = lifted_keys(board.entries, closed, room, source.cell, grid)
            self._add_source_ids(grid, source, split, keys, found, before, after, ids)

    def _add_source_ids(
        self,
        grid: Grid,
        source: Source,
        split: Split | None,
        keys: list[int],
        found: list[TargetIds],
        before: list[int],
        after: list[int],
        ids: list[int],
    ) -> None:
        """Append the ids of one lifted cube: the open cells' ``keys`` (their memos
        ``found``) less the keys ``before`` of the cells next to it, merged in key order with
        those cells' keys ``after`` it is lifted."""
        slot = source.rank * 2 + source.domes - 1  # TargetIds.by_source's slot, read here
        b = n = 0
        gone, count = len(before), len(after)
        for i, key in enumerate(keys):
            if b < gone and before[b] == key:  # a cell next to the lifted cube: keyed anew
                b += 1
                continue
            while n < count and after[n] < key:
                self._add_target_ids(grid, split, after[n], slot, ids)
                n += 1
            target = found[i]
            listed = target.by_source[slot]
            if listed is None:
                listed = target.ids(slot)
            if listed and (split is None or not _splits(grid, split, key)):
                ids += listed
        while n < count:
            self._add_target_ids(grid, split, after[n], slot, ids)
            n += 1

    def _add_target_ids(
        self, grid: Grid, split: Split | None, key: int, slot: int, ids: list[int]
    ) -> None:
        """Append the ids of one target key for the lifted cube of slot ``slot``."""
        listed = self._target(key).ids(slot)
        if listed and (split is None or not _splits(grid, split, key)):
            ids += listed

    def _target(self, key: int) -> TargetIds:
        """The memo of one target key (made on first use)."""
        targets = self._targets
        found = targets.get(key)
        if found is None:
            if len(targets) >= self.memo_bound:
                targets.clear()
            found = targets[key] = TargetIds(fitting_ids(self.options, key))
        return found


def _captures_own(board: Board, index: int, target: int) -> bool:
    """Whether sceptre ``index`` ending on ``target`` captures its owner's other sceptre."""
    outcome = landing(board, index, target)
    return outcome is not None and outcome[1] == "self-capture"


def fitting_ids(options: AxiomOptions, key: int) -> list[tuple[int, ...]]:
    """For cubes of one and of two domes lifted from rank 0, the ids, ascending, of the dome
    sets that fit the cell of a target key (none when it touches no cube)."""
    anchor = key_anchor(key)
    if anchor < 0:
        return [(), ()]
    start = SCEPTRE_ACTIONS + anchor * WIDTH
    return [
        tuple(sorted([start + PLACEMENT_INDEX[mask] for mask in masks]))
        for masks in fitting_masks(options, key_entry(key))
    ]


def movable_cubes(
    options: AxiomOptions, board: Board, me: int, grid: Grid | None = None
) -> list[Source]:
    """The cubes ``me`` may lift, by rank (``grid``: the board's :class:`~.board.Grid` when
    the caller has it)."""
    if grid is None:
        grid = Grid(board)
    cubes = board.cubes
    held = 0  # the ranks of the cubes sceptres stand on, as bits
    for _, holder, _ in board.sceptres:
        held |= 1 << grid.rank(holder)
    sources: list[Source] = []
    # (Any: the cells stay the int objects the board holds; compiled, an int-typed cell would
    # be made into a new object for each lookup)
    cells: list[Any] = board.cells
    packed: list[int] = board.cells  # (the same cells, for arithmetic on plain ints)
    last = len(cells) - 1
    overhang = options.allow_overhang
    for rank, cell in enumerate(cells):
        # lift_problem's rules, each as it tests it but cheapest first: the cube on top (cells
        # are sorted and the cell above is the next int, so a cube there is the next cell: no
        # lookup), then the colour, then the sceptres, then (with allow_overhang) support
        if rank < last and packed[rank + 1] == packed[rank] + UP:
            continue
        value = cubes[cell]
        if value >> 6 != me:
            continue
        if held >> rank & 1 or (overhang and not supported(board, cell)):
            continue
        mask = value & 63
        sources.append(Source(cell, rank, 2 if mask & (mask - 1) else 1))
    return sources


def room_table(options: AxiomOptions) -> bytes:
    """For each ``entry & ROOM_BITS``, 1 when some cube may go into a cell with that entry as
    far as :func:`~.board.cell_problem` sees (it reads only those bits), else 0: the cells
    without room are left out before they are keyed (about a quarter of them)."""
    return bytes(
        0 if cell_problem(options, entry & 63, bool(entry & GROUND)) else 1
        for entry in range(ROOM_BITS + 1)
    )


def open_keys(entries: dict[Any, int], closed: set[int], room: bytes, grid: Grid) -> list[int]:
    """The target keys of the empty cells a cube may be placed in, ascending: those with
    room (see :func:`room_table`) that no sceptre closes."""
    # (Any: the cells stay the int objects the board holds; compiled, an int-typed cell would
    # be made into a new object for each lookup)
    keys = [
        cell_key(cell, entry, grid)
        for cell, entry in entries.items()
        if room[entry & ROOM_BITS] and cell not in closed
    ]
    keys.sort()
    return keys


def lifted_keys(
    entries: dict[Any, int], closed: set[int], room: bytes, lifted: int, grid: Grid
) -> tuple[list[int], list[int]]:
    """The keys of the open cells next to the cube at ``lifted``, ascending: those of
    :func:`open_keys` as the board stands, and those with room once that cube is lifted (each
    cell's neighbour there gone)."""
    before: list[int] = []
    after: list[int] = []
    for e in range(6):
        cell: Any = lifted + STEP[e]  # (Any: made into an object once for both lookups)
        entry = entries.get(cell, -1)
        if entry < 0 or cell in closed:
            continue
        if room[entry & ROOM_BITS]:
            before.append(cell_key(cell, entry, grid))
        # seen from the cell, the lifted cube lies in direction e ^ 1
        lifted_entry = entry_without(entry, e ^ 1)
        if room[lifted_entry & ROOM_BITS]:
            after.append(cell_key(cell, lifted_entry, grid))
    before.sort()
    after.sort()
    return before, after


def _splits(grid: Grid, split: Split, key: int) -> bool:
    """Whether placing the lifted cube at the cell of ``key`` splits the structure."""
    anchor = key_anchor(key)
    target = grid.cells[anchor // 6] + STEP[anchor % 6]
    return bool(connection_problem(grid.board, split, target, key_entry(key) & 63, grid))
