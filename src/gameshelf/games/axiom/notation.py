"""Play-by-email notation of Axiom: the position listing and the two kinds of move.

Listing lines (one piece a line, dome lists are sets)::

    (black) C (0,0,1)x- y-
    (white) S (1,1,2)z+

Moves::

    S(-1,0,2) S(0,0,2)z+          a sceptre from the cube it stands on to a cube and face
    C(0,0,2) C(0,2,1)x+ y+        a cube from its cell to a cell with its new dome set

Input is forgiving about spaces, commas between directions and the Unicode minus sign; output
is canonical: no spaces inside cells, directions in the order ``x+ x- y+ y- z+ z-``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gameshelf.core import InvalidMove, InvalidPosition

from .geometry import (
    BLACK,
    COLOR_NAMES,
    DIR_INDEX,
    DIR_NAMES,
    WHITE,
    Cell,
    Cubes,
    Sceptre,
    format_cell,
    mask_names,
)

# ASCII digits only: ``\d`` also matches other scripts' digits, which ``int`` then reads.
_INT = r"\s*([+-]?[0-9]+)\s*"
#: Digits a coordinate may have: every cell a piece can reach has far fewer, and ``int`` refuses
#: text over 4300 digits with a bare ``ValueError``.
_MAX_DIGITS = 9
_CELL = rf"\({_INT},{_INT},{_INT}\)"
_LISTING_RE = re.compile(rf"^\(\s*(black|white)\s*\)\s*([CS])\s*{_CELL}\s*(.*)$", re.IGNORECASE)
_SCEPTRE_MOVE_RE = re.compile(rf"^\s*S\s*{_CELL}\s*S\s*{_CELL}\s*(.*?)\s*$", re.IGNORECASE)
_CUBE_MOVE_RE = re.compile(rf"^\s*C\s*{_CELL}\s*C\s*{_CELL}\s*(.*?)\s*$", re.IGNORECASE)
_DIR_RE = re.compile(r"^[xyz][+-]$")


def _clean(text: str) -> str:
    return text.replace("\u2212", "-").replace("\u2013", "-")


def parse_dirs(text: str) -> list[int]:
    """Direction names separated by spaces or commas → indices; ``ValueError`` names the bad one."""
    words = [w for w in re.split(r"[\s,]+", _clean(text).strip().lower()) if w]
    dirs = []
    for word in words:
        if not _DIR_RE.match(word):
            raise ValueError(f"{word!r} is not a direction (use x+ x- y+ y- z+ z-)")
        index = DIR_INDEX[word]
        if index in dirs:
            raise ValueError(f"direction {word} is given twice")
        dirs.append(index)
    return dirs


def dirs_to_mask(dirs: list[int]) -> int:
    """A dome mask from direction indices."""
    mask = 0
    for d in dirs:
        mask |= 1 << d
    return mask


def _cell(groups: tuple[str | None, ...], start: int) -> Cell:
    """The cell of three captured coordinates; ``ValueError`` names one too long to be a cell."""
    texts = [str(groups[start + i]) for i in range(3)]
    for text in texts:
        if len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
            raise ValueError(f"coordinate {text[:12]}... has more than {_MAX_DIGITS} digits")
    return (int(texts[0]), int(texts[1]), int(texts[2]))


@dataclass(frozen=True)
class ListingLine:
    """One parsed line of a position listing."""

    color: int
    piece: str  # "C" or "S"
    cell: Cell
    dirs: tuple[int, ...]
    line: int


def parse_listing_line(raw: str, number: int) -> ListingLine | None:
    """Parse one listing line (``None`` for a blank or ``#`` comment line)."""
    text = _clean(raw).strip()
    if not text or text.startswith("#"):
        return None
    match = _LISTING_RE.match(text)
    if match is None:
        raise InvalidPosition(
            f"line {number} {raw.strip()!r} is not a listing line; expected e.g. "
            "'(black) C (0,0,1)x- y-' or '(white) S (1,1,2)z+'"
        )
    groups = match.groups()
    color = COLOR_NAMES.index(str(groups[0]).lower())
    piece = str(groups[1]).upper()
    try:
        cell = _cell(groups, 2)
        dirs = parse_dirs(str(groups[5]))
    except ValueError as exc:
        raise InvalidPosition(f"line {number} {raw.strip()!r}: {exc}") from None
    if piece == "S" and len(dirs) != 1:
        raise InvalidPosition(
            f"line {number} {raw.strip()!r}: a sceptre needs exactly one face direction"
        )
    if piece == "C" and len(dirs) not in (1, 2):
        raise InvalidPosition(
            f"line {number} {raw.strip()!r}: a cube has one or two domes, not {len(dirs)}"
        )
    return ListingLine(color, piece, cell, tuple(dirs), number)


def format_cube_line(cell: Cell, value: int) -> str:
    """``(black) C (0,0,1)x- y-``."""
    return f"({COLOR_NAMES[value >> 6]}) C {format_cell(cell)}{mask_names(value & 63)}"


def format_sceptre_line(sceptre: Sceptre) -> str:
    """``(white) S (1,1,2)z+``."""
    color, cell, direction = sceptre
    return f"({COLOR_NAMES[color]}) S {format_cell(cell)}{DIR_NAMES[direction]}"


def format_listing(cubes: Cubes, sceptres: list[Sceptre]) -> list[str]:
    """Canonical listing lines: per colour, cubes by cell then sceptres by cell."""
    lines = []
    for color in (BLACK, WHITE):
        for cell in sorted(c for c, v in cubes.items() if v >> 6 == color):
            lines.append(format_cube_line(cell, cubes[cell]))
        for sceptre in sorted(s for s in sceptres if s[0] == color):
            lines.append(format_sceptre_line(sceptre))
    return lines


def format_sceptre_move(source: Cell, target: Cell, face: int) -> str:
    """``S(-1,0,2) S(0,0,2)z+``."""
    return f"S{format_cell(source)} S{format_cell(target)}{DIR_NAMES[face]}"


def format_cube_move(source: Cell, target: Cell, mask: int) -> str:
    """``C(0,0,2) C(0,2,1)x+ y+``."""
    return f"C{format_cell(source)} C{format_cell(target)}{mask_names(mask)}"


@dataclass(frozen=True)
class ParsedMove:
    """A move read from text, not yet checked against any position."""

    piece: str  # "S" or "C"
    source: Cell
    target: Cell
    dirs: tuple[int, ...]


def parse_move(text: object) -> ParsedMove:
    """Read ``S(..) S(..)d`` or ``C(..) C(..)d1 [d2]``; :class:`InvalidMove` says what is wrong."""
    if not isinstance(text, str):
        raise InvalidMove(f"an Axiom move must be text, not {type(text).__name__}")
    clean = _clean(text)
    for piece, regex in (("S", _SCEPTRE_MOVE_RE), ("C", _CUBE_MOVE_RE)):
        match = regex.match(clean)
        if match is None:
            continue
        groups = match.groups()
        try:
            source, target = _cell(groups, 0), _cell(groups, 3)
            dirs = parse_dirs(str(groups[6]))
        except ValueError as exc:
            raise InvalidMove(f"move {text!r}: {exc}") from None
        if piece == "S" and len(dirs) != 1:
            raise InvalidMove(
                f"move {text!r}: a sceptre move names exactly one face, e.g. S(-1,0,2) S(0,0,2)z+"
            )
        if piece == "C" and len(dirs) not in (1, 2):
            raise InvalidMove(
                f"move {text!r}: a cube move names its one or two dome directions, "
                "e.g. C(0,0,2) C(0,2,1)x+ y+"
            )
        return ParsedMove(piece, source, target, tuple(dirs))
    raise InvalidMove(
        f"{text!r} is not an Axiom move; expected 'S(x,y,z) S(x,y,z)d' for a sceptre or "
        "'C(x,y,z) C(x,y,z)d1 d2' for a cube"
    )
