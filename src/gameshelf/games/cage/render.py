"""Terminal picture of the cage: its six faces as a net, readable with or without colour.

```
            top
 left    front   right   back
            bottom
```
Side faces show layers top to bottom as seen from outside; the top face is seen from above
(front edge down), the bottom face from below (front edge up). ``#`` is the axle, ``.`` an empty
cell; cells of a winning line are shown in brackets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import TWIST_BASE, inverse_action
from .board import winning_lines
from .geometry import COLOURS, LAYERS, RING, face_columns
from .notation import action_to_text

if TYPE_CHECKING:
    from .rules import CageState

AXLE = -1
# Background, foreground per colour (256-colour ANSI), chosen to stay distinct for most readers.
_ANSI = {
    "W": (255, 16),
    "Y": (226, 16),
    "R": (160, 231),
    "O": (208, 16),
    "B": (27, 231),
    "G": (34, 231),
}
_RESET = "\x1b[0m"

TOP_ROWS = ((6, 5, 4), (7, AXLE, 3), (0, 1, 2))
BOTTOM_ROWS = ((0, 1, 2), (7, AXLE, 3), (6, 5, 4))
SIDE_ORDER = (3, 0, 1, 2)  # left, front, right, back
SIDE_NAMES = {0: "front", 1: "right", 2: "back", 3: "left"}


def _cell_text(value: int, highlighted: bool, color: bool) -> str:
    if value == AXLE:
        return " # "
    if value == 0:
        return " . "
    letter = COLOURS[value - 1]
    text = f"[{letter}]" if highlighted else f" {letter} "
    if not color:
        return text
    background, foreground = _ANSI[letter]
    bold = "\x1b[1m" if highlighted else ""
    return f"\x1b[48;5;{background}m\x1b[38;5;{foreground}m{bold}{text}{_RESET}"


def _face_row(board: list[int], cells: tuple[int, ...], marked: set[int], color: bool) -> str:
    parts = []
    for index in cells:
        value = AXLE if index == AXLE else board[index]
        parts.append(_cell_text(value, index in marked, color))
    return "".join(parts)


def render_net(board: list[int], marked: set[int] | None = None, color: bool = False) -> str:
    """The six faces of ``board`` as a net (``marked`` cells are bracketed)."""
    marked = marked or set()
    pad = " " * 10
    lines = [pad + "   top"]
    for row in TOP_ROWS:
        cells = tuple(AXLE if r == AXLE else RING * 2 + r for r in row)
        lines.append(pad + "|" + _face_row(board, cells, marked, color) + "|")
    lines.append("  " + "".join(f"{SIDE_NAMES[k]:^10}" for k in SIDE_ORDER))
    for z in reversed(range(LAYERS)):
        text = " z" + str(z)
        for k in SIDE_ORDER:
            cells = tuple(RING * z + r for r in face_columns(k))
            text += "|" + _face_row(board, cells, marked, color)
        lines.append(text + "|")
    columns = "   " + "".join(" " + "".join(f"{r:^3}" for r in face_columns(k)) for k in SIDE_ORDER)
    lines.append(columns + "   <- column")
    for row in BOTTOM_ROWS:
        cells = tuple(AXLE if r == AXLE else r for r in row)
        lines.append(pad + "|" + _face_row(board, cells, marked, color) + "|")
    lines.append(pad + "  bottom")
    return "\n".join(lines)


def render_state(state: CageState, color: bool = False) -> str:
    """Net of the board plus the players' colours, cubies left, last move and status."""
    marked = {i for line in winning_lines(state.board) for i in line}
    lines = [render_net(state.board, marked, color), ""]
    config = state.game.config
    for player, colours in enumerate(config.colours):
        stock = " ".join(f"{COLOURS[c]}{state.left[c]}" for c in colours)
        arrow = "->" if player == state.player and not state.is_terminal() else "  "
        lines.append(f"{arrow} {state.describe_player(player)}: {stock}")
    lines.append(_last_move_line(state))
    lines.append(
        "result: " + state.result_text()
        if state.is_terminal()
        else f"ply {state.ply}, {state.describe_player(state.player)} to move"
    )
    return "\n".join(lines)


def _last_move_line(state: CageState) -> str:
    if state.last < 0:
        return "last move: none"
    text = f"last move: {action_to_text(state.last)}"
    mode = state.game.config.no_reverse
    if state.last >= TWIST_BASE and mode == "syntactic" and not state.is_terminal():
        text += f" ({action_to_text(inverse_action(state.last))} is forbidden)"
    elif state.last >= TWIST_BASE and mode == "semantic" and not state.is_terminal():
        text += " (moves that undo it are forbidden)"
    return text
