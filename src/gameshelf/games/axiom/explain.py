"""Why a move is illegal, in words: the reason codes of :mod:`.board`'s rules put into text.

Nothing here generates moves or restates a rule: each function asks the rule functions of
:mod:`.board` in the order a person would check them and words the first one that fails.
"""

from __future__ import annotations

from .board import (
    BELOW_CUBE,
    COVERED,
    DOME,
    DOME_DOME,
    DOME_TABLE,
    FACING,
    FAR_TABLE,
    FLOATS,
    GROUND,
    HOLDS_SCEPTRE,
    HOLDS_UP,
    LOOSE_BELOW,
    NO_CONTACT,
    NO_CUBE,
    NO_LOCK,
    NOT_OWN,
    ON_TABLE,
    RECESSES,
    SHARED_AIR,
    SPLITS,
    STEP,
    TAKEN,
    UNDER,
    ZMASK,
    Board,
    Grid,
    cell_problem,
    closed_cells,
    connection_problem,
    entry_without,
    face_problem,
    landing,
    lift_problem,
    mask_problem,
    sceptre_context,
    sceptre_index,
    splitting,
    stop_problem,
    unpack,
)
from .geometry import COLOR_NAMES, DIR_NAMES, format_cell, is_valid_mask, popcount
from .options import AxiomOptions

FORCED_ONLY = "self-capture is allowed only when no other move exists"
NO_PATH = (
    "no straight lateral or diagonal path of open recesses leads there "
    "(a dome, a sceptre, the table or a squeeze is in the way, or the face is not clear)"
)


def _at(cell: int) -> str:
    return format_cell(unpack(cell))


def _face(cell: int, face: int) -> str:
    return f"face {DIR_NAMES[face]} of {_at(cell)}"


def face_text(code: str, cell: int, face: int) -> str:
    """A :func:`.board.face_problem` code in words."""
    if code == NO_CUBE:
        return f"there is no cube at {_at(cell)}"
    if code == DOME:
        return f"{_face(cell, face)} is a dome"
    if code == ON_TABLE:
        return f"{_face(cell, face)} lies on the table"
    if code == COVERED:
        return f"{_face(cell, face)} is covered by the cube at {_at(cell + STEP[face])}"
    if code == TAKEN:
        return f"a sceptre already stands on {_face(cell, face)}"
    assert code == SHARED_AIR
    return f"its air cell {_at(cell + STEP[face])} is another sceptre's air cell"


def stop_text(code: str, cell: int, face: int) -> str:
    """A :func:`.board.stop_problem` code in words."""
    step = STEP[face]
    far = cell + 2 * step
    if code == SHARED_AIR:
        return f"its air cell {_at(cell + step)} is another sceptre's air cell"
    if code == FACING:
        return f"it would face the sceptre on {_at(far + step)}{DIR_NAMES[face ^ 1]} with no gap"
    what = "the table" if code == FAR_TABLE else "a cube"
    return f"it would reach {format_cell(unpack(far))}, where {what} is"


def sceptre_problem(
    opts: AxiomOptions, board: Board, mover: int, source: int, target: int, face: int
) -> str:
    """Why ``mover``'s sceptre may not go from ``source`` to ``face`` of ``target``, checked
    rule by rule; :data:`NO_PATH` when every single rule allows the face (so no walk
    reaches it)."""
    index = sceptre_index(board, mover, source)
    if index < 0:
        return f"no {COLOR_NAMES[mover]} sceptre stands on the cube at {_at(source)}"
    taken, other_air, _, _ = sceptre_context(board, index)
    grid = Grid(board)
    code = face_problem(grid, target, face, taken, set() if opts.tall else other_air)
    if code:
        return face_text(code, target, face)
    outcome = landing(board, index, target)
    if opts.forced_self_capture and outcome is not None and outcome[1] == "self-capture":
        return FORCED_ONLY
    if opts.tall:
        code = stop_problem(grid, target, face, taken, other_air)
        if code:
            return "a tall sceptre may not stop there: " + stop_text(code, target, face)
    return NO_PATH


_CUBE_TEXTS = {
    NO_CONTACT: "at {t} the cube would touch no other cube",
    FLOATS: "{t} has no cube below it (gravity)",
    DOME_TABLE: "a dome may not face the table",
    NO_LOCK: "it interlocks with no cube (a dome must meet a recess)",
    RECESSES: "it would put a recess against a recess (forbid_recess_contact)",
    SPLITS: "the structure would split into more pieces (require_connected)",
}


def lift_text(code: str, board: Board, source: int, colour: int) -> str:
    """A :func:`.board.lift_problem` code in words."""
    if code == NO_CUBE:
        return f"there is no cube at {_at(source)}"
    if code == NOT_OWN:
        owner = COLOR_NAMES[board.cubes[source] >> 6]
        return f"the cube at {_at(source)} is {owner}'s; {COLOR_NAMES[colour]} moves only own cubes"
    if code == HOLDS_SCEPTRE:
        return f"a sceptre stands on the cube at {_at(source)}"
    if code == UNDER:
        return f"the cube at {_at(source)} is under the cube at {_at(source + STEP[4])}"
    assert code == HOLDS_UP
    return (
        f"lifting the cube at {_at(source)} would leave other cubes hanging "
        "with no interlocked path to the table"
    )


def placement_problem(
    opts: AxiomOptions, board: Board, colour: int, source: int, target: int, mask: int
) -> str:
    """Why ``colour`` may not move the cube at ``source`` to ``target`` with domes ``mask``
    (``""`` when every cube rule allows it)."""
    code = lift_problem(opts, board, source, colour)
    if code:
        return lift_text(code, board, source, colour)
    domes = popcount(board.cubes[source] & 63)
    if popcount(mask) != domes or not is_valid_mask(mask):
        kind = "single-domed" if domes == 1 else "double-domed (two adjacent domes)"
        return f"the cube at {_at(source)} is {kind}; {popcount(mask)} dome(s) given"
    at = _at(target)
    if target == source:
        return "a cube cannot be re-orientated in the same place"
    if not target & ZMASK:
        return f"{at} is below the table"
    if target in board.cubes:
        return f"{at} is occupied by a cube"
    entry = board.entries.get(target, GROUND if target & ZMASK == 1 else 0)
    for e, offset in enumerate(STEP):
        if target + offset == source:
            entry = entry_without(entry, e)
    code = cell_problem(opts, entry & 63, bool(entry & GROUND))
    if code == BELOW_CUBE:
        return (
            f"a cube may not be placed under another cube ({at} is under {_at(target + STEP[4])})"
        )
    if target in closed_cells(opts, board):
        if any(target == c + STEP[f] for _, c, f in board.sceptres):
            return f"{at} is the air cell of a sceptre"
        return f"{at} is within the reach of a tall sceptre (two cells out from its face)"
    if code:
        return _CUBE_TEXTS[code].format(t=at)
    code, d = mask_problem(opts, bool(entry & GROUND), entry & 63, entry >> 6 & 63, mask)
    if code == DOME_DOME:
        return f"its {DIR_NAMES[d]} dome would touch a dome of the cube at {_at(target + STEP[d])}"
    if code == LOOSE_BELOW:
        return f"it must interlock with the cube below at {_at(target + STEP[5])}"
    if code:
        return _CUBE_TEXTS[code]
    if opts.require_connected:
        split = splitting(board, source)
        code = connection_problem(board, split, target)
        if code:
            return _CUBE_TEXTS[code]
    return ""
