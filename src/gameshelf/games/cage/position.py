"""Cage position strings.

``<columns> <left> <to-move> <last> <ply> <status> [<before>]``, for example
``WR/-/Y/-/-/-/-/- W3Y4R3O4B4G4 1 Y2 3 *``:

- columns 0..7 bottom→top as colour letters, ``-`` for an empty column, separated by ``/``;
- cubies left per colour in play;
- the player to move; the last move in notation (``-`` for none), which fixes the move the
  no-reverse rule forbids; the number of plies played;
- status ``*`` (in play), ``=`` (drawn) or ``+0`` / ``+0,2`` (won by those players);
- with ``no_reverse=semantic`` after a twist or flip, the board before that move (same column
  syntax), since the forbidden moves are defined by it.

The repetition count starts afresh from a position read this way (the state module counts it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gameshelf.core.errors import InvalidMove, InvalidPosition
from gameshelf.core.options import parse_decimal

from .actions import DROP_ACTIONS, NO_MOVE, TWIST_BASE
from .board import column_heights, line_colours, open_mask
from .geometry import CELLS, COLOURS, LAYERS, RING
from .notation import action_to_text, text_to_action

if TYPE_CHECKING:
    from .rules import CageState


def format_columns(board: list[int], heights: list[int]) -> str:
    """The columns field: bottom→top letters per column, ``-`` for an empty column."""
    parts = []
    for r in range(RING):
        letters = "".join(COLOURS[board[RING * z + r] - 1] for z in range(heights[r]))
        parts.append(letters or "-")
    return "/".join(parts)


def format_position(state: CageState) -> str:
    """The position string of ``state``."""
    config = state.game.config
    left = "".join(f"{COLOURS[c]}{state.left[c]}" for c in config.colours_in_play)
    last = action_to_text(state.last) if state.last >= 0 else "-"
    fields = [
        format_columns(state.board, state.heights),
        left,
        str(state.player),
        last,
        str(state.ply),
        _status(state),
    ]
    if state.prev_board is not None:
        fields.append(format_columns(state.prev_board, column_heights(state.prev_board)))
    return " ".join(fields)


def _status(state: CageState) -> str:
    if state.outcome is None:
        return "*"
    winners = [str(p) for p, value in enumerate(state.outcome) if value > 0]
    return "+" + ",".join(winners) if winners else "="


def parse_columns(text: str, allowed: set[int]) -> list[int]:
    """Read a columns field into a board, checking column count, height and colours."""
    columns = text.split("/")
    if len(columns) != RING:
        raise InvalidPosition(
            f"{text!r} must list {RING} columns separated by '/', not {len(columns)}"
        )
    board = [0] * CELLS
    for r, column in enumerate(columns):
        if column == "-":
            continue
        if len(column) > LAYERS:
            raise InvalidPosition(f"column {r} holds {len(column)} cubies; a column holds {LAYERS}")
        for z, letter in enumerate(column):
            colour = COLOURS.find(letter.upper())
            if colour < 0 or colour not in allowed:
                in_play = " ".join(COLOURS[c] for c in sorted(allowed))
                raise InvalidPosition(f"column {r}: {letter!r} is not a colour in play ({in_play})")
            board[RING * z + r] = colour + 1
    return board


def parse_position(state: CageState, text: object) -> CageState:
    """Read a position string into ``state``, a fresh initial state of the game it belongs to.

    :class:`InvalidPosition` names the first problem found (the caller then drops ``state``).
    """
    if not isinstance(text, str):
        raise InvalidPosition("a position must be text")
    fields = text.split()
    if len(fields) not in (6, 7):
        raise InvalidPosition(
            f"a Cage position has 6 fields (columns left to-move last ply status) and an "
            f"optional 7th, not {len(fields)}: {text!r}"
        )
    config = state.game.config
    in_play = set(config.colours_in_play)
    state.board = parse_columns(fields[0], in_play)
    state.heights = column_heights(state.board)
    state.open = open_mask(state.heights)
    state.left = _parse_left(fields[1], config.colours_in_play, config.stock, state.board)
    state.player = _parse_int(fields[2], "player to move", 0, config.players - 1)
    state.last = _parse_last(fields[3])
    state.ply = _parse_int(fields[4], "ply", 0, config.max_plies)
    if len(fields) == 7:
        if config.no_reverse != "semantic" or state.last < TWIST_BASE:
            raise InvalidPosition(
                "the 7th field (board before the last move) is only used with "
                "no_reverse=semantic after a twist or flip"
            )
        state.prev_board = parse_columns(fields[6], in_play)
    elif config.no_reverse == "semantic" and state.last >= TWIST_BASE:
        raise InvalidPosition(
            "with no_reverse=semantic after a twist or flip, the position needs "
            "a 7th field: the board before that move"
        )
    state.outcome = _parse_status(fields[5], state, line_colours(state.board))
    return state


def _parse_int(text: str, name: str, low: int, high: int) -> int:
    """A plain ASCII decimal in ``low..high`` (``int`` alone also reads ``+5``, ``1_0``, ``٣``)."""
    try:
        value = parse_decimal(text, max_digits=len(str(high)))
    except ValueError as exc:
        raise InvalidPosition(f"{name} {text[:24]!r} is not a number: {exc}") from None
    if not low <= value <= high:
        raise InvalidPosition(f"{name} {value} is outside {low}..{high}")
    return value


def _parse_left(
    text: str, colours: tuple[int, ...], stock: tuple[int, ...], board: list[int]
) -> list[int]:
    expected = "".join(f"{COLOURS[c]}([0-9]{{1,2}})" for c in colours)
    match = re.fullmatch(expected, text.upper())
    if match is None:
        wanted = "".join(f"{COLOURS[c]}n" for c in colours)
        raise InvalidPosition(
            f"cubies left {text!r} must read {wanted} (one count per colour in play)"
        )
    left = [0] * len(COLOURS)
    for colour, count in zip(colours, match.groups(), strict=True):
        on_board = board.count(colour + 1)
        left[colour] = int(count)
        if on_board + left[colour] != stock[colour]:
            raise InvalidPosition(
                f"{COLOURS[colour]}: {on_board} in the cage + {left[colour]} left makes "
                f"{on_board + left[colour]}, but this game has {stock[colour]}"
            )
    return left


def _parse_last(text: str) -> int:
    if text == "-":
        return NO_MOVE
    try:
        return text_to_action(text)
    except InvalidMove as exc:
        raise InvalidPosition(f"last move: {exc}") from None


def _parse_status(text: str, state: CageState, colours: set[int]) -> list[float] | None:
    """Check the status field against what the board says."""
    config = state.game.config
    players = config.players
    if colours:
        mover = (state.player - 1) % players
        owners = {state.game.owner[c] for c in colours}
        derived = state.line_outcome(mover, owners)
        if text == "*":
            raise InvalidPosition("the board shows a line, so the game cannot be in play")
        if _status_values(text, players) != derived:
            raise InvalidPosition(f"status {text!r} disagrees with the lines on the board")
        return derived
    if text == "*":
        last_drop_draw = (
            state.last >= 0
            and state.last < DROP_ACTIONS
            and not any(state.left)
            and not config.continue_after_last_drop
        )
        if last_drop_draw or state.ply >= config.max_plies:
            raise InvalidPosition("this position is already drawn, so its status cannot be '*'")
        return None
    if text == "=":
        return [0.0] * players
    raise InvalidPosition(f"status {text!r} claims a win but the board has no line")


def _status_values(text: str, players: int) -> list[float] | None:
    if text == "=":
        return [0.0] * players
    if not text.startswith("+"):
        return None
    try:
        winners = {int(p) for p in text[1:].split(",")}
    except ValueError:
        return None
    return [1.0 if p in winners else -1.0 for p in range(players)]
