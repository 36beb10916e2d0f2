"""The rules of tic-tac-toe, written against gameshelf's public game protocol only."""

from __future__ import annotations

from gameshelf.core.errors import IllegalMove, InvalidMove, InvalidPosition
from gameshelf.core.game import TERMINAL, Game, State
from gameshelf.core.spec import GameSpec

MARKS = "xo"
EMPTY = "."
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip
"""The eight lines of three cells (cells numbered 0-8 row by row from a1)."""
COLUMNS = "abc"


def cell_name(cell: int) -> str:
    """``a1`` for cell 0, ``c3`` for cell 8: column letter, then row number."""
    row, column = divmod(cell, 3)
    return f"{COLUMNS[column]}{row + 1}"


class TicTacToeGame(Game):
    """Tic-tac-toe: X (seat 0) and O (seat 1); a win is worth 1, a loss -1, a draw 0."""

    def __init__(self) -> None:
        self.spec = GameSpec(
            name="tictactoe",
            title="Tic-tac-toe",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=False,
            hidden_information=False,
            simultaneous=False,
            num_distinct_actions=9,
            max_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=9,
            rules_version="1",
        )

    def new_initial_state(self, seed: int | None = None) -> TicTacToeState:
        """The empty grid, X to move."""
        return TicTacToeState(self)

    def state_from_position(self, text: str) -> TicTacToeState:
        """A state from :meth:`TicTacToeState.position` (nine cells ``x``, ``o`` or ``.``)."""
        cells = text.strip()
        if len(cells) != 9 or set(cells) - set(MARKS + EMPTY):
            raise InvalidPosition(f"a tic-tac-toe position is nine of x, o and '.', not {text!r}")
        if cells.count("x") - cells.count("o") not in (0, 1):
            raise InvalidPosition(f"X moves first: X has as many marks as O or one more: {text!r}")
        state = TicTacToeState(self)
        state.cells = list(cells)
        return state


class TicTacToeState(State):
    """A grid and the moves that made it."""

    game: TicTacToeGame

    def __init__(self, game: TicTacToeGame) -> None:
        self.game = game
        self.cells = [EMPTY] * 9
        self.moves: list[int] = []

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] != EMPTY and self.cells[a] == self.cells[b] == self.cells[c]:
                return MARKS.index(self.cells[a])
        return None

    def current_player(self) -> int:
        """0 for X, 1 for O, or :data:`TERMINAL`."""
        if self.is_terminal():
            return TERMINAL
        return 0 if self.cells.count("x") == self.cells.count("o") else 1

    def legal_actions(self) -> list[int]:
        """The empty cells (none once the game is over)."""
        if self.is_terminal():
            return []
        return [cell for cell, mark in enumerate(self.cells) if mark == EMPTY]

    def apply_action(self, action: int) -> None:
        """Mark cell ``action`` for the player to move."""
        if action not in self.legal_actions():
            raise IllegalMove(f"{action} is not an empty cell of a game in progress")
        self.cells[action] = MARKS[self.current_player()]
        self.moves.append(action)

    def is_terminal(self) -> bool:
        """Three in a row, or a full grid."""
        return self._winner() is not None or EMPTY not in self.cells

    def returns(self) -> list[float]:
        """1 for the winner and -1 for the loser; 0 each for a draw or a game in progress."""
        winner = self._winner()
        if winner is None:
            return [0.0, 0.0]
        return [1.0 if seat == winner else -1.0 for seat in range(2)]

    def clone(self) -> TicTacToeState:
        """An independent copy."""
        copy = TicTacToeState(self.game)
        copy.cells = list(self.cells)
        copy.moves = list(self.moves)
        return copy

    def action_to_string(self, action: int) -> str:
        """The cell's name, ``a1`` to ``c3``."""
        return cell_name(action)

    def parse_action(self, text: str) -> int:
        """The cell named ``text`` (``b2``); :class:`InvalidMove` names the form otherwise."""
        name = text.strip().lower()
        for cell in range(9):
            if cell_name(cell) == name:
                return cell
        raise InvalidMove(f"{text!r} is not a cell: write a column a-c and a row 1-3, e.g. b2")

    def position(self) -> str:
        """The nine cells row by row from a1: ``x``, ``o`` or ``.``."""
        return "".join(self.cells)

    def history(self) -> list[int]:
        """The moves played since the start (or since the loaded position)."""
        return list(self.moves)

    def describe_player(self, player: int) -> str:
        """``X`` and ``O`` for the seats."""
        return MARKS[player].upper() if 0 <= player < 2 else super().describe_player(player)

    def render(self, color: bool = False) -> str:
        """The grid, row 3 on top, with its coordinates."""
        rows = [
            f"{row + 1} " + " ".join(self.cells[row * 3 : row * 3 + 3]) for row in range(2, -1, -1)
        ]
        return "\n".join([*rows, "  " + " ".join(COLUMNS)])
