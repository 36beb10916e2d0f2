"""Perft: the number of move sequences of exactly ``depth`` plies from a state.

Standard perft: a game that ends before ``depth`` plies contributes nothing. At chance nodes
each outcome counts as one branch, like a move.
"""

from __future__ import annotations

from .game import State


def perft(state: State, depth: int) -> int:
    """Count the move sequences of exactly ``depth`` plies from ``state``."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """Perft split by first move: ``[(notation, count)]`` (python-chess's ``divide``)."""
    rows = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        rows.append((state.action_to_string(action), perft(child, depth - 1)))
    return rows
