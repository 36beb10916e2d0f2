"""Axiom positions as text: the agreed setup, the headers of ``position()``, and the checks
that a listed board could occur.

A position is headers (``to-move``, ``ply``, ``result``, ``seen``) followed by the play-by-email
listing of :mod:`.notation`. ``seen`` lists how often each position occurred, by the digest of
its repetition key (:func:`.board.key_digest`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gameshelf.core import InvalidPosition
from gameshelf.core.options import parse_decimal

from .board import (
    DOME_DOME,
    DOME_TABLE,
    FLOATS,
    GROUND,
    LIMIT,
    STEP,
    Board,
    Grid,
    cell_problem,
    face_problem,
    mask_problem,
    packable,
    supported,
    surroundings,
    unpack,
)
from .explain import face_text
from .geometry import (
    BLACK,
    COLOR_NAMES,
    DIR_NAMES,
    WHITE,
    ZP,
    Cell,
    Cubes,
    Sceptre,
    format_cell,
    is_valid_mask,
    mirror_cell,
    mirror_mask,
    popcount,
)
from .notation import dirs_to_mask, parse_listing_line
from .options import AxiomOptions

#: Black's half of the standard start (White's is its half-turn).
STANDARD_SETUP = (
    "C(-1,0,1)x- z+; C(0,0,1)x- y-; C(1,0,1)x- z+; "
    "C(-1,0,2)x+; C(0,0,2)z-; C(1,0,2)x+; S(-1,0,2)z+; S(1,0,2)z+"
)
RESULT_REASONS = ("capture", "self-capture", "no-move", "repetition", "ply-cap")
_MAX_COUNT_DIGITS = 6
"""Digits of a ``ply`` (the option ``max_plies`` has fewer)."""
_HEADER_RE = re.compile(r"^\s*(to-move|ply|result|seen)\s*:\s*(.*?)\s*$", re.IGNORECASE)


def parse_setup(text: str) -> tuple[Cubes, list[Sceptre]]:
    """Black's half as ``C(x,y,z)domes; ...; S(x,y,z)face``, mirrored for White.

    Raises ``ValueError`` with the reason (the option machinery names the option).
    """
    if text.strip().lower() == "standard":
        text = STANDARD_SETUP
    cubes: Cubes = {}
    sceptres: list[Sceptre] = []
    for number, part in enumerate(text.split(";"), start=1):
        if not part.strip():
            continue
        piece = part.strip()
        line = f"(black) {piece[0]} {piece[1:]}" if piece[:1] in "CScs" else piece
        try:
            parsed = parse_listing_line(line, number)
        except InvalidPosition as exc:
            raise ValueError(f"setup item {piece!r}: {exc}") from None
        if parsed is None:
            continue
        mirror = mirror_cell(parsed.cell)
        if parsed.piece == "C":
            mask = dirs_to_mask(list(parsed.dirs))
            for cell, value in ((parsed.cell, mask), (mirror, WHITE << 6 | mirror_mask(mask))):
                if cell in cubes:
                    raise ValueError(f"two cubes in cell {format_cell(cell)}")
                cubes[cell] = value
        else:
            d = parsed.dirs[0]
            sceptres.append((BLACK, parsed.cell, d))
            sceptres.append((WHITE, mirror, mirror_mask(1 << d).bit_length() - 1))
    return cubes, sceptres


def parse_listing(text: str) -> tuple[Cubes, list[Sceptre]]:
    """Cubes and sceptres of a listing; :class:`InvalidPosition` names the bad line."""
    cubes: Cubes = {}
    sceptres: list[Sceptre] = []
    lines: dict[Cell, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        parsed = parse_listing_line(raw, number)
        if parsed is None:
            continue
        if parsed.piece == "C":
            if parsed.cell in cubes:
                raise InvalidPosition(
                    f"line {number}: two cubes in one cell {format_cell(parsed.cell)} "
                    f"(also on line {lines[parsed.cell]})"
                )
            mask = dirs_to_mask(list(parsed.dirs))
            if not is_valid_mask(mask):
                raise InvalidPosition(
                    f"line {number}: a cube's two domes lie on adjacent faces, not opposite"
                )
            cubes[parsed.cell] = parsed.color << 6 | mask
            lines[parsed.cell] = number
        else:
            sceptres.append((parsed.color, parsed.cell, parsed.dirs[0]))
    return cubes, sceptres


@dataclass
class Headers:
    """The header lines of a position text."""

    to_move: int
    ply: int
    outcome: tuple[int, str] | None
    seen: dict[str, int] | None
    listing: str


def parse_headers(text: object) -> Headers:
    """Split ``position()`` text into its headers and the listing (a bare listing: Black to
    move, ply 0, no result)."""
    if not isinstance(text, str):
        raise InvalidPosition(f"a position must be text, not {type(text).__name__}")
    headers: dict[str, str] = {}
    body = []
    for line in text.splitlines():
        match = _HEADER_RE.match(line)
        if match:
            headers[match.group(1).lower()] = match.group(2)
            body.append("")  # keep line numbers of the listing for error messages
        else:
            body.append(line)
    to_move = parse_colour(headers.get("to-move", "black"))
    try:
        ply = parse_decimal(headers.get("ply", "0"), max_digits=_MAX_COUNT_DIGITS)
    except ValueError as exc:
        raise InvalidPosition(f"ply {headers['ply'][:24]!r}: {exc}") from None
    outcome = parse_result(headers.get("result", "-"))
    seen = parse_seen(headers["seen"]) if "seen" in headers else None
    return Headers(to_move, ply, outcome, seen, "\n".join(body))


def parse_colour(text: str) -> int:
    """0 for ``black``, 1 for ``white``."""
    low = text.strip().lower()
    if low not in COLOR_NAMES:
        raise InvalidPosition(f"side to move {text!r} must be black or white")
    return COLOR_NAMES.index(low)


def parse_result(text: str) -> tuple[int, str] | None:
    """``-`` or ``black-wins|white-wins|draw REASON``."""
    words = text.split()
    if words in ([], ["-"]):
        return None
    winners = {"black-wins": BLACK, "white-wins": WHITE, "draw": -1}
    if len(words) != 2 or words[0] not in winners or words[1] not in RESULT_REASONS:
        raise InvalidPosition(
            f"result {text!r} must be '-' or 'black-wins|white-wins|draw REASON' with REASON one "
            f"of {', '.join(RESULT_REASONS)}"
        )
    return winners[words[0]], words[1]


def format_result(outcome: tuple[int, str] | None) -> str:
    """The ``result`` header."""
    if outcome is None:
        return "-"
    winner, reason = outcome
    who = "draw" if winner < 0 else f"{COLOR_NAMES[winner]}-wins"
    return f"{who} {reason}"


def parse_seen(text: str) -> dict[str, int]:
    """``HEX16:COUNT`` words.

    Only their form is checked here; that they count the position to move is checked with the
    board (:func:`check_result`, ``count``): the engine's map always holds the current
    position once it has occurred, so a ``seen`` without it is refused, not completed.
    """
    seen = {}
    for word in text.split():
        key, _, count = word.partition(":")
        # (ASCII digits only: str.isdigit and int also take other scripts' digits)
        if not re.fullmatch(r"[0-9a-f]{16}", key) or not re.fullmatch(r"[1-9][0-9]{0,5}", count):
            raise InvalidPosition(f"seen entry {word[:40]!r} must be HEX16:COUNT (COUNT 1..999999)")
        seen[key] = int(count)
    return seen


def check_result(
    opts: AxiomOptions,
    board: Board,
    to_move: int,
    ply: int,
    stated: tuple[int, str] | None,
    count: int,
) -> None:
    """Refuse a ``ply`` and ``result`` that the engine would not have written for this board.

    The stored result is the one the engine sets when a move ends the game, and a position
    must carry exactly that (the move's mover is the side *not* to move):

    * ``capture`` / ``self-capture`` when, and only when, one cube holds two sceptres: the
      mover's and an opposing one (the mover wins), or both of the mover's (the mover loses);
    * otherwise ``draw repetition`` when, and only when, the position to move has occurred
      ``repetition_draw`` times (``count``, from ``seen``; once without it);
    * otherwise ``draw ply-cap`` when, and only when, ``ply`` reached ``max_plies``;
    * otherwise ``-``. A no-move end is never stored (the engine reads it off the board), so
      ``no-move`` is refused: write ``-``.

    ``ply`` above ``max_plies`` is refused (the game ends at ``max_plies``).

    ``count`` is how often ``seen`` lists the position to move (1 without a ``seen`` header).
    The engine counts every position as it arises, the start and a loaded position included,
    so it is at least 1 unless the last move ended the game by a capture (the engine records
    no position after a move that captured, and such a position could not have occurred
    before it: it is at most 1). A ``seen`` without the position to move (``count`` 0) would
    reach ``repetition_draw`` one occurrence late, and is refused.
    """
    if ply > opts.max_plies:
        raise InvalidPosition(
            f"ply {ply} is beyond max_plies={opts.max_plies}: the game ends there"
        )
    if stated is not None and stated[1] == "no-move":
        raise InvalidPosition(
            f"result {format_result(stated)!r} is never stored: a game without a legal move is "
            "over by the board itself; write 'result: -'"
        )
    mover = 1 - to_move
    expected: tuple[int, str] | None = None
    on: dict[int, list[int]] = {}
    for owner, cell, _ in board.sceptres:
        on.setdefault(cell, []).append(owner)
    shared = [(cell, owners) for cell, owners in on.items() if len(owners) > 1]
    if shared:
        cell, owners = shared[0]
        where = format_cell(unpack(cell))
        if len(shared) > 1 or len(owners) > 2 or mover not in owners:
            raise InvalidPosition(
                f"the sceptres on the cube at {where} cannot stand there after one move by "
                f"{COLOR_NAMES[mover]} (the side that moved last, since {COLOR_NAMES[to_move]} "
                "is to move)"
            )
        expected = (mover, "capture") if to_move in owners else (to_move, "self-capture")
    elif opts.repetition_draw and count >= opts.repetition_draw:
        expected = (-1, "repetition")
    elif ply >= opts.max_plies:
        expected = (-1, "ply-cap")
    if stated != expected:
        why = {
            None: "the game is still in progress",
            "capture": "a sceptre captured an opposing one",
            "self-capture": "a sceptre ended on its own other sceptre's cube",
            "repetition": f"the position occurred {count} times "
            f"(repetition_draw={opts.repetition_draw})",
            "ply-cap": f"ply {ply} reached max_plies={opts.max_plies}",
        }[None if expected is None else expected[1]]
        raise InvalidPosition(
            f"result {format_result(stated)!r} disagrees with the position: it is "
            f"{format_result(expected)!r} there ({why})"
        )
    captured = stated is not None and stated[1] in ("capture", "self-capture")
    if count < 1 and not captured:
        raise InvalidPosition(
            "seen does not count the position to move: the engine counts every position as "
            "it arises (list its digest with its count, at least 1)"
        )
    if count > 1 and captured:
        raise InvalidPosition(
            f"seen counts the position to move {count} times, but a position that ended with "
            f"{stated[1] if stated else ''} cannot have occurred before (at most once)"
        )


def check_seen(opts: AxiomOptions, seen: dict[str, int], current: str, ply: int) -> None:
    """Refuse ``seen`` counts the engine could not have written ``ply`` plies into a game.

    Every position is counted as it arises, one a ply and the start once, so the counts add up
    to at most ``ply + 1``; and a position counted ``repetition_draw`` times ended the game
    there, so only the position to move (``current``, its digest) may reach that count, and
    none may pass it. (:func:`check_result` ties the current count to the stated result.)
    """
    total = sum(seen.values())
    if total > ply + 1:
        raise InvalidPosition(
            f"seen counts {total} occurrences, but at ply {ply} only {ply + 1} positions have "
            "arisen (one a ply and the start)"
        )
    limit = opts.repetition_draw
    if not limit:
        return
    for digest, count in seen.items():
        most = limit if digest == current else limit - 1
        if count > most:
            raise InvalidPosition(
                f"seen counts position {digest} {count} times, but with repetition_draw={limit} "
                f"the game ends when a position occurs {limit} times"
                + ("" if digest == current else " (and this one is not the position to move)")
            )


def build_board(opts: AxiomOptions, cubes: Cubes, sceptres: list[Sceptre], finished: bool) -> Board:
    """The board of a listed position; :class:`InvalidPosition` names the first thing that
    makes it impossible (a finished game may hold two sceptres on one cube)."""
    counts = [[0, 0], [0, 0]]
    for cell, value in sorted(cubes.items()):
        where = format_cell(cell)
        mask = value & 63
        if not is_valid_mask(mask):
            raise InvalidPosition(f"the cube at {where} has domes on opposite faces")
        counts[value >> 6][popcount(mask) - 1] += 1
        if cell[2] < 1:
            raise InvalidPosition(f"the cube at {where} is below the table (z must be >= 1)")
    for color in (0, 1):
        for kind, name in ((0, "single"), (1, "double")):
            if counts[color][kind] > 3:
                raise InvalidPosition(
                    f"{COLOR_NAMES[color]} has {counts[color][kind]} {name}-domed cubes (at most 3)"
                )
    if not packable(cubes) or not packable(cell for _, cell, _ in sceptres):
        raise InvalidPosition(f"every piece must lie within |x|, |y| < {LIMIT} and z <= 12")
    board = Board.from_cells(cubes, sceptres)
    _check_cubes(opts, board)
    _check_sceptres(opts, board, finished)
    return board


def _check_cubes(opts: AxiomOptions, board: Board) -> None:
    """The placement rules a standing cube must still meet: no dome on the table or against a
    dome, and (without overhang) a cube below it; recess contacts and loose joints are
    allowed (the standard start has them)."""
    cubes = board.cubes
    for cell in board.cells:
        value = cubes[cell]
        where = format_cell(unpack(cell))
        entry = surroundings(cubes, cell)
        ground, touching, facing = bool(entry & GROUND), entry & 63, entry >> 6 & 63
        code, d = mask_problem(opts, ground, touching, facing, value & 63)
        if code == DOME_TABLE:
            raise InvalidPosition(f"the cube at {where} has a dome facing the table")
        if code == DOME_DOME:
            raise InvalidPosition(
                f"the cubes at {where} and {format_cell(unpack(cell + STEP[d]))} touch dome to dome"
            )
        if cell_problem(opts, touching & ~(1 << ZP), ground) == FLOATS:
            raise InvalidPosition(f"the cube at {where} floats: no cube below it (gravity)")
    if opts.allow_overhang and not supported(board):
        raise InvalidPosition("some cube has no interlocked path to a cube on the table")


def _check_sceptres(opts: AxiomOptions, board: Board, finished: bool) -> None:
    sceptres = board.sceptres
    for color in (0, 1):
        number = sum(1 for s in sceptres if s[0] == color)
        if number > 2:
            raise InvalidPosition(f"{COLOR_NAMES[color]} has {number} sceptres (at most 2)")
    grid = Grid(board)
    for index, (color, cell, d) in enumerate(sceptres):
        earlier = sceptres[:index]
        taken = {c << 3 | e for _, c, e in earlier}
        code = face_problem(grid, cell, d, taken, set())
        if code:
            raise InvalidPosition(
                f"the {COLOR_NAMES[color]} sceptre on {format_cell(unpack(cell))}{DIR_NAMES[d]}: "
                f"{face_text(code, cell, d)}"
            )
        for _, c, e in earlier:
            if not opts.tall and c + STEP[e] == cell + STEP[d]:
                raise InvalidPosition(
                    f"sceptres on {format_cell(unpack(c))}{DIR_NAMES[e]} and "
                    f"{format_cell(unpack(cell))}{DIR_NAMES[d]} share one air cell"
                )
            if c == cell and not finished:
                raise InvalidPosition(
                    f"two sceptres stand on the cube at {format_cell(unpack(cell))}: the game "
                    "would be over"
                )
