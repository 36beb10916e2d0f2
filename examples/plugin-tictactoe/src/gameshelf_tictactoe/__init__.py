"""Tic-tac-toe as a gameshelf plug-in: the registration the entry point names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameshelf.core.game import Game
from gameshelf.core.registry import GameEntry, NotationExample, RulesSection

from .game import TicTacToeGame


def make_game(values: Mapping[str, Any]) -> Game:
    """The registry's factory (tic-tac-toe has no options)."""
    return TicTacToeGame()


def rules_summary(values: Mapping[str, Any]) -> list[RulesSection]:
    """The rules in short (they do not depend on options: there are none)."""
    return [
        RulesSection(
            "Play",
            (
                "X and O take turns marking an empty cell of the 3x3 grid; X moves first.",
                "Three of your marks in a row, column or diagonal win.",
                "A full grid without three in a row is a draw.",
            ),
        )
    ]


ENTRY = GameEntry(
    name="tictactoe",
    title="Tic-tac-toe",
    summary="two players mark a 3x3 grid; three in a row wins",
    options=(),
    factory=make_game,
    notation=(
        NotationExample("b2", "mark the centre cell"),
        NotationExample("a1", "mark the cell in column a, row 1 (a corner)"),
    ),
    rules=rules_summary,
)
"""The registration that the ``gameshelf.games`` entry point names."""

__all__ = ["ENTRY", "TicTacToeGame"]
