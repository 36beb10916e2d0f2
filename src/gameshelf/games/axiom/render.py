"""Pictures of an Axiom state: a layer-by-layer terminal view and an isometric SVG.

Terminal view: each layer (z) is a grid with its x coordinates across and y down the side, north
(y+) up and east (x+) to the right, so a cell's place in the grid is the ``(x,y,z)`` that moves
name. In a cell, a cube is its colour letter (``b``/``w``) then its dome directions as arrows
(``>`` x+, ``<`` x-, ``^`` y+, ``v`` y-, ``+`` z+, ``-`` z-); a sceptre on the cube follows as
``B`` or ``W`` and the arrow of the face it stands on. A legend under the layers says so.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .geometry import ALL_DIRS, COLOR_NAMES, DIR_NAMES, VECTORS, XP, YM, ZP, Cell, format_cell

if TYPE_CHECKING:
    from .state import AxiomState

ARROWS = (">", "<", "^", "v", "+", "-")
_RESET = "\x1b[0m"
_CUBE_STYLE = ("\x1b[97;40m", "\x1b[30;47m")
_SCEPTRE_STYLE = "\x1b[1;33m"

LEGEND = (
    "legend: b black cube, w white cube, then the faces with domes (all others are recesses):",
    "          > x+ east   < x- west   ^ y+ north   v y- south   + z+ up   - z- down",
    "        B black sceptre, W white sceptre, then the face it stands on (same arrows)",
    "        moves name cells by (x,y,z): C(0,0,2) is the cube at x=0, y=0 in layer z=2,",
    "        S(0,0,2) the sceptre standing on it",
)


def _cell_parts(state: AxiomState, cell: Cell) -> tuple[str, str]:
    """The cube and sceptre tokens of ``cell`` (``("", "")`` when it is empty)."""
    value = state.cubes.get(cell)
    if value is None:
        return "", ""
    domes = "".join(ARROWS[d] for d in ALL_DIRS if value >> d & 1)
    sceptres = " ".join(
        f"{'BW'[owner]}{ARROWS[face]}" for owner, where, face in state.sceptres if where == cell
    )
    return f"{'bw'[value >> 6]}{domes}", sceptres


def _cell_text(state: AxiomState, cell: Cell, width: int, color: bool) -> str:
    """One grid cell, ``width`` characters wide, coloured when asked (padding stays plain)."""
    cube, sceptre = _cell_parts(state, cell)
    if not cube:
        return f" {'.':<{width - 1}}"
    plain = f"{cube} {sceptre}".rstrip()
    padding = " " * (width - 1 - len(plain))
    if color:
        value = state.cubes[cell]
        cube = f"{_CUBE_STYLE[value >> 6]}{cube}{_RESET}"
        if sceptre:
            sceptre = f"{_SCEPTRE_STYLE}{sceptre}{_RESET}"
    return f" {cube}{' ' + sceptre if sceptre else ''}{padding}"


def _layer(state: AxiomState, z: int, xs: range, ys: range, width: int, color: bool) -> list[str]:
    """One layer as a boxed grid with x across the top and y down the left side."""
    rule = "        +" + "+".join("-" * width for _ in xs) + "+"
    top = "z=" + str(z) + (" (top)" if z == max(c[2] for c in state.cubes) else "")
    top += " (bottom)" if z == 1 else ""
    lines = [f"layer {top}", "         " + " ".join(f"{'x=' + str(x):^{width}}" for x in xs)]
    lines.append(rule)
    for y in ys:
        row = "|".join(_cell_text(state, (x, y, z), width, color) for x in xs)
        lines.append(f"  {'y=' + str(y):<6}|{row}|")
        lines.append(rule)
    return lines


def render_text(state: AxiomState, color: bool = False) -> str:
    """Layers from the top down, each a labelled grid with north up; a legend; the side to
    move or the result."""
    cells = list(state.cubes)
    if not cells:
        return f"(no cubes)\n{state.result_text()}\n"
    xs = range(min(c[0] for c in cells), max(c[0] for c in cells) + 1)
    ys = range(max(c[1] for c in cells), min(c[1] for c in cells) - 1, -1)
    longest = max(len(" ".join(_cell_parts(state, c)).rstrip()) for c in cells)
    width = max(longest + 2, 6)
    lines: list[str] = []
    for z in range(max(c[2] for c in cells), 0, -1):
        lines.extend(_layer(state, z, xs, ys, width, color))
        lines.append("")
    lines.extend(LEGEND)
    if state.is_terminal():
        lines.append(f"game over: {state.result_text()}")
    else:
        lines.append(f"{COLOR_NAMES[state.to_move]} to move, ply {state.ply}")
    return "\n".join(lines) + "\n"


# --- SVG -------------------------------------------------------------------------------------

_SIZE = 40.0
_FILL = {
    (0, ZP): "#3a3a3a",
    (0, YM): "#262626",
    (0, XP): "#1a1a1a",
    (1, ZP): "#f4f1ea",
    (1, YM): "#d9d4c7",
    (1, XP): "#c2bcad",
}
_SCEPTRE_FILL = ("#c0392b", "#2e86de")


def _project(x: float, y: float, z: float) -> tuple[float, float]:
    """Isometric view from the south-east, above: x+ and y+ run right, z up."""
    return ((x + y) * _SIZE * math.cos(math.pi / 6), ((x - y) * 0.5 - z) * _SIZE)


def _points(corners: list[tuple[float, float, float]]) -> str:
    return " ".join("{:.1f},{:.1f}".format(*_project(*c)) for c in corners)


def _face_corners(cell: Cell, d: int) -> list[tuple[float, float, float]]:
    x, y, z = cell
    if d == ZP:
        return [(x, y, z), (x + 1, y, z), (x + 1, y + 1, z), (x, y + 1, z)]
    if d == YM:
        return [(x, y, z - 1), (x + 1, y, z - 1), (x + 1, y, z), (x, y, z)]
    return [(x + 1, y, z - 1), (x + 1, y + 1, z - 1), (x + 1, y + 1, z), (x + 1, y, z)]


def _centre(cell: Cell, d: int, out: float = 0.0) -> tuple[float, float, float]:
    dx, dy, dz = VECTORS[d]
    x, y, z = cell
    return (x + 0.5 + dx * (0.5 + out), y + 0.5 + dy * (0.5 + out), z - 0.5 + dz * (0.5 + out))


def _feature(cell: Cell, d: int, dome: bool) -> str:
    """A dome (raised disc) or a recess (sunken ring) drawn on a visible face."""
    cx, cy, cz = _centre(cell, d)
    u, v = [a for a in (0, 2, 4) if a // 2 != d // 2]
    ring = []
    for k in range(16):
        angle = 2 * math.pi * k / 16
        p = [cx, cy, cz]
        for axis, amount in ((u, math.cos(angle) * 0.28), (v, math.sin(angle) * 0.28)):
            p[axis // 2] += amount
        ring.append((p[0], p[1], p[2]))
    if dome:
        return f'<polygon class="dome" points="{_points(ring)}" fill="#b8860b" stroke="#6b4e07"/>'
    return f'<polygon class="recess" points="{_points(ring)}" fill="none" stroke="#888"/>'


def _cube_svg(cell: Cell, value: int) -> str:
    color = value >> 6
    parts = [f'<g class="cube {COLOR_NAMES[color]}" data-cell="{format_cell(cell)}">']
    for d in (ZP, YM, XP):
        parts.append(
            f'<polygon points="{_points(_face_corners(cell, d))}" fill="{_FILL[(color, d)]}" '
            'stroke="#555" stroke-width="1"/>'
        )
        parts.append(_feature(cell, d, bool(value >> d & 1)))
    parts.append("</g>")
    return "".join(parts)


def _sceptre_svg(owner: int, cell: Cell, face: int) -> str:
    base = _project(*_centre(cell, face))
    tip = _project(*_centre(cell, face, out=0.75))
    name = COLOR_NAMES[owner]
    return (
        f'<g class="sceptre {name}" data-face="{format_cell(cell)}{DIR_NAMES[face]}">'
        f'<line x1="{base[0]:.1f}" y1="{base[1]:.1f}" x2="{tip[0]:.1f}" y2="{tip[1]:.1f}" '
        f'stroke="{_SCEPTRE_FILL[owner]}" stroke-width="5" stroke-linecap="round"/>'
        f'<circle cx="{tip[0]:.1f}" cy="{tip[1]:.1f}" r="7" fill="{_SCEPTRE_FILL[owner]}" '
        'stroke="#222"/></g>'
    )


def render_svg(state: AxiomState) -> str:
    """An isometric SVG of the cubes (domes as discs, recesses as rings) and sceptres."""
    items: list[tuple[float, int, str]] = []
    for cell, value in state.cubes.items():
        items.append((cell[0] - cell[1] + cell[2], 0, _cube_svg(cell, value)))
    for owner, cell, face in state.sceptres:
        air = tuple(c + v for c, v in zip(cell, VECTORS[face], strict=True))
        items.append((air[0] - air[1] + air[2] + 0.5, 1, _sceptre_svg(owner, cell, face)))
    items.sort(key=lambda item: (item[0], item[1]))
    xs, ys = [0.0], [0.0]
    for cell in state.cubes:
        for corner in ((0, 0, -1), (1, 1, -1), (1, 0, 1), (0, 1, 1), (1, 0, -1), (0, 1, 0)):
            px, py = _project(cell[0] + corner[0], cell[1] + corner[1], cell[2] + corner[2])
            xs.append(px)
            ys.append(py)
    margin = _SIZE * 1.5
    left, top = min(xs) - margin, min(ys) - margin
    width, height = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin + 20
    caption = (
        f"game over: {state.result_text()}"
        if state.is_terminal()
        else f"{COLOR_NAMES[state.to_move]} to move, ply {state.ply}"
    )
    body = "\n".join(item[2] for item in items)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} '
        f'{height:.1f}" width="{width:.0f}" height="{height:.0f}">\n'
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" '
        'fill="#eef2f5"/>\n'
        f"{body}\n"
        f'<text x="{left + 10:.1f}" y="{top + height - 10:.1f}" font-family="sans-serif" '
        f'font-size="14">{caption}</text>\n</svg>\n'
    )
