"""The Cage's board and its transitions, as pure functions on plain lists.

The board is a list of 24 ints, ``board[8*z + r]`` = colour + 1 (0 = empty); columns are always
bottom-packed, so ``heights[r]`` says how many cubies column ``r`` holds. Nothing here knows
action ids, options or whose turn it is (see :mod:`.actions` and :mod:`.rules`).
"""

from __future__ import annotations

from .geometry import CELLS, FLIP_COLUMN, LAYERS, LINES, RING, TWISTS

Board = list[int]


def settle(board: Board) -> list[int]:
    """Let every cubie fall to the bottom of its column (in place); return the heights."""
    heights = [0] * RING
    for r in range(RING):
        values = [board[r], board[RING + r], board[2 * RING + r]]
        stacked = [v for v in values if v]
        heights[r] = len(stacked)
        if stacked != values[: len(stacked)]:
            stacked += [0] * (LAYERS - len(stacked))
            board[r], board[RING + r], board[2 * RING + r] = stacked
    return heights


def twisted(board: Board, twist_index: int) -> tuple[Board, list[int]]:
    """Board and heights after twist ``TWISTS[twist_index]`` and settling."""
    layer, direction = TWISTS[twist_index]
    base = RING * layer
    old = board[base : base + RING]
    shift = 2 if direction == 1 else RING - 2  # new[r] = old[r - shift]
    new = board[:]
    new[base : base + RING] = old[-shift:] + old[:-shift]
    # Only a hole under a cubie, or a cubie over a hole, in the turned layer needs settling.
    for r in range(RING):
        bottom, middle, top = new[r], new[RING + r], new[2 * RING + r]
        if (not bottom and (middle or top)) or (not middle and top):
            stacked = [v for v in (bottom, middle, top) if v] + [0, 0]
            new[r], new[RING + r], new[2 * RING + r] = stacked[0], stacked[1], stacked[2]
    return new, column_heights(new)


def column_heights(board: Board) -> list[int]:
    """Cubies per column of a bottom-packed board."""
    return [
        3 if board[2 * RING + r] else 2 if board[RING + r] else 1 if board[r] else 0
        for r in range(RING)
    ]


def open_mask(heights: list[int]) -> int:
    """Bit ``r`` set when column ``r`` can take a drop."""
    mask = 0
    for r in range(RING):
        if heights[r] < LAYERS:
            mask |= 1 << r
    return mask


def flipped(board: Board, heights: list[int]) -> tuple[Board, list[int]]:
    """Board and heights after turning the cage upside down (already settled)."""
    new = [0] * CELLS
    new_heights = [0] * RING
    for r in range(RING):
        height = heights[r]
        target = FLIP_COLUMN[r]
        new_heights[target] = height
        for z in range(height):
            new[RING * z + target] = board[RING * (height - 1 - z) + r]
    return new, new_heights


def line_colours(board: Board) -> set[int]:
    """Colours (0-based) that own at least one monochrome line."""
    found = set()
    for a, b, c in LINES:
        value = board[a]
        if value and value == board[b] and value == board[c]:
            found.add(value - 1)
    return found


def winning_lines(board: Board) -> list[tuple[int, int, int]]:
    """Every monochrome line on the board (for highlighting)."""
    return [
        line
        for line in LINES
        if board[line[0]] and board[line[0]] == board[line[1]] == board[line[2]]
    ]
