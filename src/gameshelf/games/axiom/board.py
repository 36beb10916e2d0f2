"""Axiom's rules, written once, on one representation: a board of bit-packed cells.

A cell ``(x, y, z)`` is packed into one int, ``(x + 2**20) << 26 | (y + 2**20) << 5 | z``, so a
neighbour is one addition (:data:`STEP`), int order is tuple order (cube ranks come from sorting
ints) and hashing is free. Packed cells stay distinct while ``|x|, |y| < 2**20`` and
``0 <= z < 32``; :func:`packable` admits a position only with a wide margin (a cube move shifts
the structure's extent by at most one cell, and gravity or the 12 cubes keep ``z <= 12``).

A :class:`Board` holds the cubes (packed cell → ``colour << 6 | dome mask``), the sceptres
(``(owner, packed cell of its cube, face)``), the cubes' ranks (sorted order, used by the action
ids) and the *target entries*: for every empty cell next to a cube, which neighbours it has and
which of them show it a dome (kept up to date move by move).

Each rule is one function here, used by the move generator (:mod:`.actions`), by the
explanations of refusals (:mod:`.explain`) and by position checks (:mod:`.position`) alike.
Predicates answer with a reason code (``""`` when the rule is met) that :mod:`.explain` puts
into words.
"""

from __future__ import annotations

from array import array
from bisect import insort
from collections.abc import Iterable
from functools import lru_cache
from hashlib import blake2b
from struct import Struct
from types import FunctionType
from typing import TYPE_CHECKING, Any, Final

from .geometry import ALL_DIRS, DIAGONALS, PERPENDICULAR, Cell, Cubes, Sceptre, masks_for
from .options import AxiomOptions

if TYPE_CHECKING:
    from mypy_extensions import i64

XSHIFT: Final = 26
YSHIFT: Final = 5
HALF: Final = 1 << 20
YMASK: Final = (1 << 21) - 1
ZMASK: Final = 31
BIAS: Final = (HALF << XSHIFT) + (HALF << YSHIFT)
LIMIT: Final = 1 << 18
"""Largest ``|x|``, ``|y|`` admitted in a position."""

XSTEP: Final = 1 << XSHIFT
YSTEP: Final = 1 << YSHIFT
STEP: Final[tuple[int, ...]] = (XSTEP, -XSTEP, YSTEP, -YSTEP, 1, -1)
"""The packed offset of each direction ``x+ x- y+ y- z+ z-``."""
UP: Final = 1
DOWN: Final = -1

PSceptre = tuple[int, int, int]
"""A sceptre on packed cells: ``(owner, cell of its cube, face direction)``."""
Outcome = tuple[int, str]
"""``(winner, reason)``; winner -1 is a draw."""
SceptreContext = tuple[set[int], set[int], int, int]
"""What blocks a moving sceptre: ``(taken faces, other sceptres' air cells)`` and a
:func:`sketch` of each."""


def pack(cell: Cell) -> int:
    """The packed int of a cell."""
    return (cell[0] << XSHIFT) + (cell[1] << YSHIFT) + cell[2] + BIAS


def unpack(code: int) -> Cell:
    """The cell of a packed int."""
    return ((code >> XSHIFT) - HALF, (code >> YSHIFT & YMASK) - HALF, code & ZMASK)


def packable(cells: Iterable[Cell]) -> bool:
    """Whether every cell lies well inside the packed range (see the module docstring)."""
    return all(-LIMIT < x < LIMIT and -LIMIT < y < LIMIT and 1 <= z <= 12 for x, y, z in cells)


# Target entries: bits 0-5 the directions to neighbouring cubes, 6-11 those of them that show
# a dome to the cell, 12 "on the table".
GROUND: Final = 1 << 12
ROOM_BITS: Final = 63 | GROUND
"""The bits of a target entry :func:`cell_problem` reads: the neighbours and the table."""


class Board:
    """Cubes, sceptres, ranks and target entries of one position (see the module docstring)."""

    __slots__ = (
        "cells",
        "contexts",
        "cubes",
        "entries",
        "links",
        "locks",
        "pieces",
        "ranks",
        "sceptres",
    )

    def __init__(
        self,
        cubes: dict[int, int],
        sceptres: list[PSceptre],
        entries: dict[int, int] | None = None,
        cells: list[int] | None = None,
        rank: dict[int, int] | None = None,
    ) -> None:
        """A board of ``cubes`` and ``sceptres``; the other arguments are a copy's own (see
        :meth:`copy`), computed when left out (``rank`` when first asked for)."""
        self.cubes = cubes
        self.sceptres = sceptres
        if entries is None:
            entries = {}
            for cell, value in cubes.items():
                _placed(cubes, entries, cell, value)
        self.entries = entries
        if cells is None:
            cells = sorted(cubes)
            rank = None
        self.cells = cells
        self.ranks = rank
        """:attr:`rank` once made (``None`` until then)."""
        self.pieces = -1
        """How many pieces the structure is in (see :func:`pieces`); -1 until counted."""
        self.links: list[int] | None = None
        """Which cubes touch which (see :func:`cube_links`); ``None`` until needed."""
        self.locks: list[int] | None = None
        """Which cubes interlock with which (see :func:`interlocks`); ``None`` until needed."""
        self.contexts: list[SceptreContext] | None = None
        """Each sceptre's :func:`sceptre_context`, by index; ``None`` until needed (the
        sceptres change only by :meth:`place_sceptres`, which forgets it)."""

    @classmethod
    def from_cells(cls, cubes: Cubes, sceptres: list[Sceptre]) -> Board:
        """A board from cubes and sceptres on ``(x, y, z)`` cells (see :func:`packable`)."""
        return cls(
            {pack(cell): value for cell, value in cubes.items()},
            [(owner, pack(cell), face) for owner, cell, face in sceptres],
        )

    def __reduce__(self) -> tuple[type[Board], tuple[object, ...]]:
        """Pickle support (the compiled accelerator's class has no instance dict)."""
        return (Board, (self.cubes, self.sceptres, self.entries, self.cells, self.ranks))

    @property
    def rank(self) -> dict[int, int]:
        """Each cube's rank by cell, made when first asked for: the move generator looks
        ranks up in its :class:`Grid` (compiled), so a playout mostly never needs it."""
        rank = self.ranks
        if rank is None:
            # (Any: the keys stay the cells' int objects, shared with the list)
            objects: list[Any] = self.cells
            rank = self.ranks = {cell: index for index, cell in enumerate(objects)}
        return rank

    def reindex(self, gone: Any = None, new: Any = None) -> None:
        """Rank the cubes again after one moved or left (ranks are sorted cell order): the
        cube that left ``gone`` and the one that arrived at ``new`` (``None``: none) change
        the sorted cells, which are kept sorted without sorting them again."""
        # (the cells typed Any stay the int objects they are: compiled, an int-typed key would
        # be boxed into a new object for each entry)
        objects: list[Any] = list(self.cells)
        if gone is not None:
            objects.remove(gone)
        if new is not None:
            insort(objects, new)
        self.cells = objects
        self.ranks = None  # (made anew when asked for: see rank)
        self.pieces = -1
        self.links = self.locks = None

    def place_sceptres(self, index: int, sceptres: list[PSceptre]) -> None:
        """Put sceptres ``sceptres`` in place from index ``index`` on (a move, or taking one
        back); the only way sceptres change once a board is built."""
        self.sceptres[index : index + len(sceptres)] = sceptres
        self.contexts = None

    def copy(self) -> Board:
        """An independent copy (``cells``, ``rank`` and ``contexts`` are replaced, never
        changed, so shared)."""
        other = Board(
            dict(self.cubes), list(self.sceptres), dict(self.entries), self.cells, self.ranks
        )
        other.contexts = self.contexts
        other.pieces = self.pieces
        other.links = self.links
        other.locks = self.locks
        return other

    def cube_cells(self) -> Cubes:
        """The cubes by ``(x, y, z)`` cell."""
        cubes = self.cubes
        return {unpack(cell): cubes[cell] for cell in self.cells}

    def sceptre_cells(self) -> list[Sceptre]:
        """The sceptres on ``(x, y, z)`` cells."""
        return [(owner, unpack(cell), face) for owner, cell, face in self.sceptres]


def _placed(cubes: dict[int, int], entries: dict[int, int], cell: int, value: int) -> None:
    """Update ``entries`` for a cube ``value`` now in ``cubes`` at ``cell``."""
    entries.pop(cell, None)
    for e in range(6):
        t = cell + STEP[e]
        if not t & ZMASK:
            continue
        key: Any = t  # (boxed once for the three lookups, when compiled)
        if key in cubes:
            continue
        found = entries.get(key)
        old = (GROUND if t & ZMASK == 1 else 0) if found is None else found
        entries[key] = old | neighbour_bits(e ^ 1, value)  # seen from t, the cube lies at e ^ 1


def neighbour_bits(d: int, value: int) -> int:
    """The target-entry bits of the cube ``value`` lying in direction ``d`` of a cell: the
    direction, and the dome bit when the cube shows a dome to the cell (its face ``d ^ 1``)."""
    return 1 << d | (1 << d << 6 if value >> (d ^ 1) & 1 else 0)


def surroundings(cubes: dict[int, int], cell: int) -> int:
    """The target entry ``cell`` has (or would have, were it empty) among ``cubes``."""
    entry = GROUND if cell & ZMASK == 1 else 0
    for e in range(6):
        value = cubes.get(cell + STEP[e])
        if value is not None:
            entry |= neighbour_bits(e, value)
    return entry


def _lifted(cubes: dict[int, int], entries: dict[int, int], cell: int) -> None:
    """Update ``entries`` for the cube at ``cell``, already taken out of ``cubes``: the cell
    gets its own entry (its :func:`surroundings`), and each empty neighbour loses the cube."""
    entry = GROUND if cell & ZMASK == 1 else 0
    for e in range(6):
        key: Any = cell + STEP[e]  # (boxed once for the lookups, when compiled)
        value = cubes.get(key)
        if value is not None:  # a cube next to the cell: part of the cell's entry
            entry |= neighbour_bits(e, value)
            continue
        found = entries.get(key)
        if found is not None:
            back = 1 << (e ^ 1)
            old: int = found & ~(back | back << 6)  # (a plain int, not an Optional, compiled)
            if old & 63:
                entries[key] = old
            else:
                del entries[key]
    if entry & 63:
        entries[cell] = entry


# --- the grid: cubes by place ----------------------------------------------------------------

GRID_SLOTS: Final = 64
"""Slots in a :class:`Grid`'s table (a power of two, well above the 12 cubes)."""


def grid_slot(cell: int) -> int:
    """The first slot of ``cell`` in a :class:`Grid`'s table: ``x * 25 + y * 5 + z`` modulo
    64, in which a cell and its 18 face and edge neighbours all differ."""
    # (i64: compiled, plain machine arithmetic; an int would be checked for size at each step)
    code: i64 = cell
    x, y, z = code >> XSHIFT & 63, code >> YSHIFT & 63, code & ZMASK
    return (x * 25 + y * 5 + z) & (GRID_SLOTS - 1)


NATIVE: Final = not isinstance(grid_slot, FunctionType)
"""Whether this module runs compiled (a compiled function is no Python function)."""


_NONE_BY_CELL: Final[dict[int, int]] = {}
_NONE_BY_RANK: Final[list[int]] = []
"""The empty tables of a :class:`Grid` that has no use for them (shared, never changed)."""


class Grid:
    """The cubes of one arrangement by cell, for the move generator's look-ups at computed
    cells, each cube as its *code* ``rank << 7 | value``. Compiled, a small open-addressing
    table of ranks: a look-up is a few machine operations, where a dict look-up at a computed
    cell first makes the ~2**46 int into an object and hashes it. Run as Python source, a dict
    (there a dict look-up is the cheapest there is). Made per move list, never kept on the
    board.
    """

    __slots__ = ("board", "by_cell", "by_rank", "cells", "cubes", "slots")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.cells = cells = board.cells
        self.cubes = cubes = board.cubes
        self.by_cell = _NONE_BY_CELL
        """Run as Python source: each cube's code by cell, else empty."""
        self.slots = self.by_rank = _NONE_BY_RANK
        """Compiled: the rank + 1 of the cube in each slot (0: free), else empty;
        ``by_rank``: the cubes' values, by rank."""
        if NATIVE:
            self._fill()
        else:
            self.by_cell = {cell: rank << 7 | cubes[cell] for rank, cell in enumerate(cells)}

    def _fill(self) -> None:
        """Put each cube's rank in its slot (the next free one when taken) and list the
        values by rank."""
        slots = [0] * GRID_SLOTS
        for rank, cell in enumerate(self.cells):
            slot = grid_slot(cell)
            while slots[slot]:
                slot = (slot + 1) & (GRID_SLOTS - 1)
            slots[slot] = rank + 1
        self.slots = slots
        by_rank = [0] * len(self.cells)
        for cell, value in self.cubes.items():  # (no look-up per cube: the pairs as they lie)
            by_rank[self.rank(cell)] = value  # (values, not codes: small ints make no objects)
        self.by_rank = by_rank

    def rank(self, cell: int) -> int:
        """The rank of the cube at ``cell``, or -1 when there is none."""
        if not NATIVE:
            return self.by_cell.get(cell, -1) >> 7
        cells, slots = self.cells, self.slots
        slot = grid_slot(cell)
        while True:
            found = slots[slot]
            if not found:
                return -1
            if cells[found - 1] == cell:
                return found - 1
            slot = (slot + 1) & (GRID_SLOTS - 1)

    def cube(self, cell: int) -> int:
        """The code (``rank << 7 | value``) of the cube at ``cell``, or -1 when there is
        none."""
        if not NATIVE:
            return self.by_cell.get(cell, -1)
        rank = self.rank(cell)
        return rank << 7 | self.by_rank[rank] if rank >= 0 else -1

    def value(self, cell: int) -> int:
        """The value of the cube at ``cell``, or 0 when there is none (every cube shows a
        dome, so no cube's value is 0)."""
        if not NATIVE:
            return self.cubes.get(cell, 0)
        rank = self.rank(cell)
        return self.by_rank[rank] if rank >= 0 else 0


# --- sceptres ---------------------------------------------------------------------------------

# reason codes of face_problem / stop_problem (each Final: compiled, a plain module name is
# looked up in the module's dict at every use)
NO_CUBE: Final = "no-cube"
DOME: Final = "dome"
ON_TABLE: Final = "on-table"
COVERED: Final = "covered"
TAKEN: Final = "taken"
SHARED_AIR: Final = "shared-air"
FAR_TABLE: Final = "far-table"
FAR_CUBE: Final = "far-cube"
FACING: Final = "facing"


def face_problem(
    grid: Grid,
    cell: int,
    face: int,
    taken: set[int],
    other_air: set[int],
    taken_sketch: int = -1,
    air_sketch: int = -1,
) -> str:
    """Why no sceptre may enter face ``face`` of ``cell`` (``""`` when it may).

    ``taken``: the faces (``cell << 3 | face``) sceptres stand on; ``other_air``: the air cells
    that block it (other sceptres' air cells with ``sceptre_clearance=air``, none when tall);
    the sketches: see :func:`open_face_problem`.
    """
    value = grid.value(cell)
    if not value:
        return NO_CUBE
    air = cell + STEP[face]
    if not value >> face & 1 and air & 31 and grid.value(air):
        return COVERED
    return open_face_problem(value, cell, face, taken, other_air, taken_sketch, air_sketch)


def open_face_problem(
    value: int,
    cell: int,
    face: int,
    taken: set[int],
    other_air: set[int],
    taken_sketch: int = -1,
    air_sketch: int = -1,
) -> str:
    """:func:`face_problem` of face ``face`` of the cube ``value`` at ``cell`` whose air cell
    is known to hold no cube (as on a sceptre's walk, see :func:`sceptre_faces`); the
    sketches, when given, are :func:`sketch` of ``taken`` and of ``other_air``."""
    if value >> face & 1:
        return DOME
    air = cell + STEP[face]
    if not air & 31:  # z = 0: the table
        return ON_TABLE
    # (a set is looked at only when the sketch, if any (-1: none), does not rule the code
    # out: compiled, a set look-up first makes the ~2**49 code into an object)
    code = cell << 3 | face
    if (taken_sketch == -1 or taken_sketch & sketch_bit(code)) and code in taken:
        return TAKEN
    if (air_sketch == -1 or air_sketch & sketch_bit(air)) and air in other_air:
        return SHARED_AIR
    return ""


def sketch_bit(code: int) -> int:
    """The bit that stands for a face code or a cell in a :func:`sketch`: its low bits mixed
    with those of its y and x (so that nearby codes get different bits)."""
    mixed: i64 = code  # (i64: plain machine arithmetic, compiled)
    return 1 << ((mixed ^ mixed >> 5 ^ mixed >> 13 ^ mixed >> 26) & 31)


def sketch(codes: Iterable[int]) -> int:
    """A 32-bit mask of the :func:`sketch_bit` of each code: a code whose bit is not in it is
    not among the codes."""
    bits = 0
    for code in codes:
        bits |= sketch_bit(code)
    return bits


def stop_problem(grid: Grid, cell: int, face: int, taken: set[int], other_air: set[int]) -> str:
    """Why a tall sceptre may pass face ``face`` of ``cell`` but not stop there (``""``: it may).

    ``taken`` includes the moving sceptre's origin; ``other_air`` excludes it.
    """
    step = STEP[face]
    air = cell + step
    if air in other_air:
        return SHARED_AIR
    far = air + step
    if not far & ZMASK:
        return FAR_TABLE
    if grid.value(far):
        return FAR_CUBE
    if (far + step) << 3 | (face ^ 1) in taken:
        return FACING
    return ""


def sceptre_context(board: Board, index: int) -> SceptreContext:
    """``(taken faces, other sceptres' air cells)`` and their sketches for moving sceptre
    ``index`` (kept in ``board.contexts`` until the sceptres move: shared, so read-only)."""
    contexts = board.contexts
    if contexts is None:
        sceptres = board.sceptres
        taken = {cell << 3 | face for _, cell, face in sceptres}
        airs = [cell + STEP[face] for _, cell, face in sceptres]
        contexts = []
        for i in range(len(airs)):
            other_air = set(airs[:i] + airs[i + 1 :])
            contexts.append((taken, other_air, sketch(taken), sketch(other_air)))
        board.contexts = contexts
    return contexts[index]


def sceptre_faces(
    opts: AxiomOptions, board: Board, index: int, grid: Grid | None = None
) -> set[int]:
    """The faces sceptre ``index`` may stop on, each as ``rank << 3 | face`` (the rank of the
    face's cube: a small int, so the set makes no int objects, compiled).

    Lateral walks (inside corner, flat, outside corner; until the table, a face it cannot
    enter, or a repeated (face, heading)) and diagonal walks (same plane, same level, unless
    squeezed between two cubes at air height). The moving sceptre still stands on its origin.
    ``grid``: the board's :class:`Grid` when the caller has it.
    """
    if grid is None:
        grid = Grid(board)
    _, p0, n0 = board.sceptres[index]
    taken, other_air, taken_sketch, air_sketch = sceptre_context(board, index)
    tall = opts.tall
    blocking = set() if tall else other_air  # a tall sceptre may pass another's air cell
    if tall:
        air_sketch = 0
    if not NATIVE:  # run as Python source, a set look-up costs less than a sketch's bit
        taken_sketch = air_sketch = -1
    concave = opts.concave_turns
    step = STEP
    found: set[int] = set()
    # (face, heading) states of long walks, shared by the four headings: from a state reached
    # before, a walk goes on exactly as it did then, so it may stop there
    seen: set[int] = set()
    # Each step's face has an empty air cell: the air cell of the face before (round an inside
    # corner), the empty corner cell (flat), or the empty cell ahead (round an outside corner).
    c0 = grid.cube(p0)
    for heading in PERPENDICULAR[n0]:
        p, n, h, cube = p0, n0, heading, c0
        steps = 0
        while True:
            ahead = p + step[h]
            if not ahead & ZMASK:
                break
            corner = ahead + step[n]
            found_cube = grid.cube(corner)
            if found_cube >= 0:
                if not concave:
                    break
                p, n, h, cube = corner, h ^ 1, n, found_cube
            else:
                found_cube = grid.cube(ahead)
                if found_cube >= 0:
                    p, cube = ahead, found_cube
                else:
                    n, h = h, n ^ 1
            if open_face_problem(cube & 127, p, n, taken, blocking, taken_sketch, air_sketch):
                break
            steps += 1
            if steps > 12:  # only a walk round a loop gets this long
                key = p << 6 | n << 3 | h
                if key in seen:
                    break
                seen.add(key)
            if not tall or not stop_problem(grid, p, n, taken, other_air):
                found.add((cube >> 7) << 3 | n)
    if opts.diagonal_moves:
        squeeze = opts.squeeze_normals >> n0 & 1
        up = step[n0]
        for a, b in DIAGONALS[n0]:
            da, db = step[a], step[b]
            p = p0
            while True:
                q = p + da + db
                if face_problem(grid, q, n0, taken, blocking, taken_sketch, air_sketch):
                    break
                if squeeze and grid.value(p + up + da) and grid.value(p + up + db):
                    break
                if not tall or not stop_problem(grid, q, n0, taken, other_air):
                    found.add(grid.rank(q) << 3 | n0)
                p = q
    return found


def landing(board: Board, index: int, target: int) -> Outcome | None:
    """Who wins when sceptre ``index`` ends on the cube at ``target`` (before or after it
    moves): its mover by capture if an opposing sceptre stands on that cube, the opponent by
    self-capture if the mover's other sceptre does, else nobody."""
    sceptres = board.sceptres
    mover = sceptres[index][0]
    there = [o for i, (o, c, _) in enumerate(sceptres) if c == target and i != index]
    if 1 - mover in there:
        return (mover, "capture")
    if mover in there:
        return (1 - mover, "self-capture")
    return None


def sceptre_index(board: Board, owner: int, cell: int) -> int:
    """The index of ``owner``'s sceptre on the cube at ``cell``, or -1."""
    return next((i for i, (o, c, _) in enumerate(board.sceptres) if o == owner and c == cell), -1)


def eliminable(opts: AxiomOptions, board: Board, cell: int) -> bool:
    """Whether the cube at ``cell`` may be eliminated: nothing on top, no sceptre on it, and
    (with ``allow_overhang``) every other cube still supported without it."""
    cubes = board.cubes
    if cell + UP in cubes or any(c == cell for _, c, _ in board.sceptres):
        return False
    return not opts.allow_overhang or supported(board, cell)


def move_sceptre(
    opts: AxiomOptions, board: Board, mover: int, source: int, target: int, face: int
) -> Outcome | None:
    """Move ``mover``'s sceptre from ``source`` to face ``face`` of ``target``: eliminate the
    cube it left when it went from an opposing cube to an own one, and say who won if it
    ended on a cube holding another sceptre."""
    index = sceptre_index(board, mover, source)
    board.place_sceptres(index, [(mover, target, face)])
    cubes = board.cubes
    if (
        cubes[source] >> 6 != mover
        and cubes[target] >> 6 == mover
        and eliminable(opts, board, source)
    ):
        del cubes[source]
        _lifted(cubes, board.entries, source)
        board.reindex(source)
    return landing(board, index, target)


# --- cubes ------------------------------------------------------------------------------------

# reason codes of lift_problem / cell_problem / mask_problem / connection (Final: see above)
NOT_OWN: Final = "not-own"
HOLDS_SCEPTRE: Final = "holds-sceptre"
UNDER: Final = "under"
HOLDS_UP: Final = "holds-up"
NO_CONTACT: Final = "no-contact"
BELOW_CUBE: Final = "below-cube"
FLOATS: Final = "floats"
DOME_TABLE: Final = "dome-table"
DOME_DOME: Final = "dome-dome"
LOOSE_BELOW: Final = "loose-below"
NO_LOCK: Final = "no-lock"
RECESSES: Final = "recesses"
SPLITS: Final = "splits"


def holders(board: Board) -> set[int]:
    """The cubes sceptres stand on."""
    return {cell for _, cell, _ in board.sceptres}


def lift_problem(
    opts: AxiomOptions, board: Board, cell: int, colour: int, held: set[int] | None = None
) -> str:
    """Why ``colour`` may not lift the cube at ``cell`` (``""`` when it may); ``held`` is
    :func:`holders` of the board when the caller has it."""
    cubes = board.cubes
    value = cubes.get(cell)
    if value is None:
        return NO_CUBE
    if value >> 6 != colour:
        return NOT_OWN
    if cell in (holders(board) if held is None else held):
        return HOLDS_SCEPTRE
    if cell + UP in cubes:
        return UNDER
    if opts.allow_overhang and not supported(board, cell):
        return HOLDS_UP
    return ""


def _holds_nothing(cubes: dict[int, int], cell: int) -> bool:
    """Whether no cube can depend on ``cell`` for support: every cube interlocked with it
    stands on an interlocked column down to the table that does not pass ``cell`` (a path to
    the table through ``cell`` would pass one of them, which needs no ``cell``)."""
    value = cubes[cell]
    for d in range(6):
        q = cell + STEP[d]
        other = cubes.get(q)
        if other is None or not (value >> d | other >> (d ^ 1)) & 1:
            continue
        while q & ZMASK != 1:  # down q's column
            below = cubes.get(q + DOWN)
            if below is None or q + DOWN == cell or not (other >> 5 | below >> 4) & 1:
                return False
            q, other = q + DOWN, below
    return True


def closed_cells(opts: AxiomOptions, board: Board) -> set[int]:
    """Empty cells no cube may be placed in: sceptres' air cells (and, tall, the cells two
    out from their faces)."""
    closed = {cell + STEP[face] for _, cell, face in board.sceptres}
    if opts.tall:
        closed.update(cell + 2 * STEP[face] for _, cell, face in board.sceptres)
    return closed


def cell_problem(opts: AxiomOptions, touching: int, ground: bool) -> str:
    """Why no cube fits an empty cell with neighbours ``touching`` (a direction mask)."""
    if touching >> 4 & 1:  # a cube above it
        return BELOW_CUBE
    if not opts.allow_overhang and not ground and not touching >> 5 & 1:
        return FLOATS
    if not touching:
        return NO_CONTACT
    return ""


def mask_problem(
    opts: AxiomOptions, ground: bool, touching: int, facing: int, mask: int
) -> tuple[str, int]:
    """Why dome set ``mask`` does not fit a cell whose neighbours are ``touching`` and whose
    neighbours' domes face it from ``facing``: ``(code, direction)``, ``("", -1)`` if it fits."""
    if ground and mask >> 5 & 1:
        return DOME_TABLE, 5
    if mask & facing:
        clash = mask & facing
        return DOME_DOME, next(d for d in ALL_DIRS if clash >> d & 1)
    locks = mask | facing
    if touching >> 5 & 1 and not locks >> 5 & 1:
        return LOOSE_BELOW, 5
    if not touching & locks:
        return NO_LOCK, -1
    if opts.forbid_recess_contact and touching & ~locks:
        return RECESSES, -1
    return "", -1


def fitting_masks(opts: AxiomOptions, entry: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The dome sets of one- and of two-domed cubes that fit an empty cell with target entry
    ``entry`` (the move generator keeps the answers, see :mod:`.generator`)."""
    touching, facing, ground = entry & 63, entry >> 6 & 63, bool(entry & GROUND)
    if cell_problem(opts, touching, ground):
        return ((), ())
    one, two = (
        tuple(m for m in masks_for(domes) if not mask_problem(opts, ground, touching, facing, m)[0])
        for domes in (1, 2)
    )
    return (one, two)


def entry_without(entry: int, e: int) -> int:
    """A target entry with its neighbour in direction ``e`` lifted away."""
    gone = 1 << e
    return entry & ~(gone | gone << 6)


def supported(board: Board, without: int = 0) -> bool:
    """Whether every cube (but ``without``) is joined by interlocks, through cubes, to a cube
    on the table (``without`` must be a cube of a supported structure, or 0)."""
    if without and _holds_nothing(board.cubes, without):
        return True
    cells = board.cells
    links = interlocks(board)
    count = len(cells)
    keep = (1 << count) - 1  # the cubes that must be reached, by rank
    if without:
        keep &= ~(1 << board.rank[without])
    reached = 0
    for i in range(count):
        if cells[i] & ZMASK == 1:  # on the table
            reached |= 1 << i
    return closure(links, reached, keep) == keep  # one layer of interlocked cubes at a time


def closure(links: list[int], start: int, allowed: int) -> int:
    """The ranks reached from the ranks of ``start`` (bit masks, as ``links[rank]`` holds a
    cube's linked ranks) by following links through ``allowed`` ranks only, a layer at a
    time."""
    reached = frontier = start & allowed
    count = len(links)
    while frontier:
        reach = 0
        for i in range(count):
            if frontier >> i & 1:
                reach |= links[i]
        frontier = reach & allowed & ~reached
        reached |= frontier
    return reached


def interlocks(board: Board) -> list[int]:
    """For each cube, by rank, the bit mask of the ranks of the cubes interlocked with it: they
    share a face and one of them shows a dome on it (once per arrangement, kept in
    ``board.locks``)."""
    links = board.locks
    if links is None:
        cells, cubes = board.cells, board.cubes
        objects: list[Any] = cells  # (looked up as the int objects they are)
        values = [cubes[cell] for cell in objects]
        faces = cube_links(board)
        links = [0] * len(cells)
        for i in range(len(cells)):
            later = faces[i] >> (i + 1)  # the face neighbours of higher rank, from rank i + 1
            j = i + 1
            while later:
                if later & 1:
                    d = face_direction(cells[j] - cells[i])  # j lies in direction d from i
                    if (values[i] >> d | values[j] >> (d ^ 1)) & 1:  # (not |=: see cube_links)
                        links[i] = links[i] | 1 << j
                        links[j] = links[j] | 1 << i
                later >>= 1
                j += 1
        board.locks = links
    return links


def face_direction(gap: int) -> int:
    """The direction (x+, y+ or z+) in which a cube lies from another whose packed cell is
    ``gap`` lower when the two share a face, else -1: the one face-sharing rule."""
    if gap == XSTEP:
        return 0
    if gap == YSTEP:
        return 2
    return 4 if gap == UP else -1


def components(cells: Iterable[int]) -> dict[int, int]:
    """Face-connected groups of ``cells``: cell → group number (0, 1, ...)."""
    left = set(cells)
    label: dict[int, int] = {}
    group = 0
    while left:
        start = left.pop()
        label[start] = group
        stack = [start]
        while stack:
            cell = stack.pop()
            for offset in STEP:
                q = cell + offset
                if q in left:
                    left.remove(q)
                    label[q] = group
                    stack.append(q)
        group += 1
    return label


def pieces(board: Board) -> int:
    """How many face-connected pieces the structure is in (counted once per arrangement)."""
    if board.pieces < 0:
        board.pieces = max(components(board.cubes).values(), default=-1) + 1
    return board.pieces


_CORNERS: Final[tuple[tuple[int, int], ...]] = tuple(
    (a, b) for a in ALL_DIRS for b in ALL_DIRS if a < b and a // 2 != b // 2
)
"""The 12 pairs of perpendicular directions: a cube at ``cell + a + b`` joins the neighbours
``cell + a`` and ``cell + b`` without ``cell``."""


def _locally_joined(cubes: dict[int, int], cell: int) -> bool:
    """Whether the cubes next to ``cell`` stay joined without it through the cells diagonal
    to it (then lifting it splits nothing: a path through it can go round that way)."""
    around = 0  # the directions of the cubes next to it, a bit mask
    for d in range(6):
        if cell + STEP[d] in cubes:
            around |= 1 << d
    if not around & (around - 1):
        return True  # fewer than two
    links: list[int] = []  # pairs of those directions joined through a diagonal cell
    for a, b in _CORNERS:
        pair = 1 << a | 1 << b
        if around & pair == pair and cell + STEP[a] + STEP[b] in cubes:
            links.append(pair)
    joined = around & -around  # the directions joined to the first one
    grown = True
    while grown:
        grown = False
        for pair in links:
            if joined & pair and pair & ~joined:
                joined |= pair
                grown = True
    return joined == around


def cube_links(board: Board) -> list[int]:
    """For each cube, by rank, the bit mask of the ranks of the cubes that share a face with
    it (computed once per arrangement, kept in ``board.links``)."""
    links = board.links
    if links is None:
        cells = board.cells
        count = len(cells)
        links = [0] * count
        for i in range(count):
            cell = cells[i]
            for j in range(i + 1, count):
                gap = cells[j] - cell  # (sorted: the gaps grow)
                if gap > XSTEP:
                    break
                if face_direction(gap) >= 0:  # (not |=: compiled, that is a generic call)
                    links[i] = links[i] | 1 << j
                    links[j] = links[j] | 1 << i
        board.links = links
    return links


Split = tuple[list[int], int]
"""What :func:`splitting` finds: the group of each cube without the lifted one, by rank, as
a bit (0 for the lifted cube), and how many groups a target must touch."""


def splitting(board: Board, source: int) -> Split | None:
    """With ``require_connected``: how lifting ``source`` splits the structure, or ``None``
    when every placement keeps the number of pieces (it is not a cut cube).

    The cube placed at a target joins the groups of other cubes it touches into one, and the
    structure may not end up in more pieces than before the move: a target must touch
    ``after - before + 1`` groups.
    """
    if _locally_joined(board.cubes, source):
        return None
    links = cube_links(board)
    count = len(links)
    lifted = board.rank[source]
    left = ((1 << count) - 1) & ~(1 << lifted)  # the cubes in no group yet
    groups = [0] * count
    bit = 1
    # Putting the lifted cube back joins the groups next to it into one: with k of them,
    # before = after - k + 1, so a target must touch after - before + 1 = k groups.
    need = 0
    while left:
        piece = closure(links, left & -left, left)  # the piece of the first cube left
        left &= ~piece
        for i in range(count):
            if piece >> i & 1:
                groups[i] = bit
        bit <<= 1
        if piece & links[lifted]:
            need += 1
    if need <= 1:
        return None  # not a cut cube: every placement keeps the number of pieces
    return groups, need


def connection_problem(
    board: Board, split: Split | None, target: int, touching: int = 63, grid: Grid | None = None
) -> str:
    """Why placing the lifted cube at ``target`` splits the structure (``""`` if it does not);
    ``touching``: the directions of the cubes next to ``target`` when the caller knows them
    (the lifted one may be among them), else all six are looked at; ``grid``: the board's
    :class:`Grid` when the caller has it."""
    if split is None:
        return ""
    groups, need = split
    if touching.bit_count() < need:
        return SPLITS  # (each cube touched is in one group at most)
    if grid is None:
        grid = Grid(board)
    found = 0
    for e in range(6):
        if touching >> e & 1:
            r = grid.rank(target + STEP[e])
            if r >= 0:
                found |= groups[r]
    return SPLITS if found.bit_count() < need else ""


def restore_cube(board: Board, cell: int, value: int) -> None:
    """Put an eliminated cube back (taking a move back)."""
    board.cubes[cell] = value
    _placed(board.cubes, board.entries, cell, value)
    board.reindex(None, cell)


def move_cube(board: Board, source: int, target: int, mask: int) -> None:
    """Lift the cube at ``source`` and place it at ``target`` with dome set ``mask``."""
    cubes, entries = board.cubes, board.entries
    value = cubes.pop(source)
    _lifted(cubes, entries, source)
    cubes[target] = value = (value & ~63) | mask
    _placed(cubes, entries, target, value)
    board.reindex(source, target)


# --- repetition -------------------------------------------------------------------------------


_PACKERS: Final[dict[int, Struct]] = {}


def repetition_key(board: Board, to_move: int) -> bytes:
    """The position up to translation in x and y, with the side to move, as bytes (compact to
    keep, exact to compare): native 8-byte ints, the side to move, the number of cubes, each
    cube (translated cell << 8 | value) in cell order, then the sceptres' codes sorted.
    :func:`key_digest` turns it into the digest people see."""
    cells, cubes = board.cells, board.cubes
    shift = BIAS
    if cells:
        my = YMASK
        for c in cells:
            y = c >> YSHIFT & YMASK
            if y < my:
                my = y
        shift = (cells[0] >> XSHIFT << XSHIFT) + (my << YSHIFT)
    codes = [to_move, len(cells)]
    # (Any: each cell looked up as the object the list holds; compiled, an int-typed cell
    # would be made into a new object for the lookup)
    objects: list[Any] = cells
    for cell in objects:
        value = cubes[cell]
        code: int = cell  # (the arithmetic on a plain int, compiled)
        codes.append((code - shift) << 8 | value)
    codes += sorted([s << 60 | (c - shift) << 3 | d for s, c, d in board.sceptres])
    count = len(codes)
    packer = _PACKERS.get(count)
    if packer is None:
        packer = _PACKERS[count] = Struct(f"{count}q")
    return packer.pack(*codes)


@lru_cache(maxsize=1 << 16)
def key_digest(key: bytes) -> str:
    """The 16-hex-digit digest of a repetition key, as ``position()`` lists it: a hash of the
    translated cubes and sceptres in tuple form (the format positions have always used).
    Memoised: ``position()`` lists every key a game has seen."""
    codes = array("q")
    codes.frombytes(key)
    to_move, count = codes[0], codes[1]

    def cell(code: int) -> tuple[int, int, int]:
        return (code >> XSHIFT, code >> YSHIFT & YMASK, code & ZMASK)

    content = (
        to_move,
        [(*cell(c >> 8), c & 255) for c in codes[2 : 2 + count]],
        [(s >> 60, *cell(s >> 3 & ((1 << 57) - 1)), s & 7) for s in codes[2 + count :]],
    )
    return blake2b(repr(content).encode(), digest_size=8).hexdigest()
