"""Cage threats: who has a line in one move (:func:`drop_win`, :func:`decisive_moves`, for
any number of players; the Cage searches' shared primitives) and, for two players, victory by
continuous threats (:class:`ThreatSearch`).

A Cage attack that wins is usually a chain of threats: every move of the attacker leaves a
line that its next move completes, so the defender has only the few moves that parry it, and
the last threat is one that no move parries. Such chains run eight to ten plies, past an
alpha-beta's horizon on the clock, yet their tree is narrow: the attacker tries only moves
that threaten, the defender only moves that parry. :class:`ThreatSearch` searches exactly that
tree. What it proves is a forced win under the rules (every legal reply of the defender is
tried, and the rules' own verdict decides each position); what it fails to prove may still be
won by quieter moves.

Approximations: a defender with more than :data:`MAX_PARRIES` parries is taken to escape
(cautious: the search claims nothing there), and the table keys positions by board, mover and
last move, not by the repetition counts or the ply (a chain of threats changes the board every
move, so a repetition draw inside one is all but impossible; a chain running into the ply cap
is the one way a claim could be wrong).
"""

from __future__ import annotations

import time
from collections.abc import Hashable

from gameshelf.games.cage import CageState
from gameshelf.games.cage.actions import DROP_ACTIONS, TURNS, result_of
from gameshelf.games.cage.board import line_colours
from gameshelf.games.cage.geometry import LINES_THROUGH, RING

TOP_CELLS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(LINES_THROUGH[RING * height + column] for height in range(3)) for column in range(RING)
)
"""``TOP_CELLS[column][height]``: the partner cell pairs of every line through the cell a drop
into ``column`` of that height lands on."""

MAX_PARRIES = 8
"""A threat that leaves the defender more parries than this is not followed (too wide to be a
forcing chain; the search claims nothing there)."""


def drop_win(state: CageState, player: int) -> int:
    """A drop that would complete a line of ``player``'s colour now (``-1`` if none).

    Only the board is read: a drop can complete only lines of the colour dropped, and only
    through the cell it lands on.
    """
    board, heights, left = state.board, state.heights, state.left
    for colour in state.game.config.colours[player]:
        if not left[colour]:
            continue
        value = colour + 1
        for column in range(RING):
            height = heights[column]
            if height < 3:
                for a, b in TOP_CELLS[column][height]:
                    if board[a] == value and board[b] == value:
                        return RING * colour + column
    return -1


def decisive_moves(state: CageState) -> tuple[list[int], list[int]]:
    """``(wins, self_defeats)`` among the legal moves: those after which the mover has won, and
    those after which another player has (a twist or flip completing only their lines).

    Moves are screened on the board (a drop completes only lines of its colour through the
    cell it lands on; a twist or flip must leave some one-colour line); each candidate is then
    played on a copy, so the rules' own verdict (simultaneous lines, draws) decides.
    """
    mover = state.player
    board, heights = state.board, state.heights
    wins: list[int] = []
    losses: list[int] = []
    for action in state.legal_actions():
        if action < DROP_ACTIONS:
            colour, column = divmod(action, RING)
            value = colour + 1
            if not any(
                board[a] == value and board[b] == value
                for a, b in TOP_CELLS[column][heights[column]]
            ):
                continue
        elif not line_colours(result_of(board, heights, action)):
            continue
        child = state.clone()
        child.apply_action(action)
        outcome = child.outcome
        if outcome is None or max(outcome) <= 0:
            continue
        if outcome[mover] >= max(outcome):
            wins.append(action)
        elif outcome[mover] < 0:
            losses.append(action)
    return wins, losses


class ThreatSearchOut(Exception):
    """The threat search's time or position budget is spent."""


class ThreatSearch:
    """Proves wins by continuous threats for the player to move, within a number of its moves.

    ``deadline`` (a :func:`time.perf_counter` value) and ``budget`` (positions played) bound the
    work; when either is spent, :class:`ThreatSearchOut` is raised. One instance keeps its table
    across questions about the same game, so later questions reuse earlier answers.
    """

    def __init__(self, deadline: float | None = None, budget: int | None = None) -> None:
        self.deadline = deadline
        self.budget = budget
        self.played = 0
        self._proved: dict[Hashable, int] = {}
        self._failed: dict[Hashable, int] = {}

    def size(self) -> int:
        """Positions the table holds answers for."""
        return len(self._proved) + len(self._failed)

    # --- questions ------------------------------------------------------------------------
    def winning_move(self, state: CageState, moves: int) -> int | None:
        """A move of the player to move that wins by continuous threats within ``moves`` of its
        own moves (this one included), or ``None`` if the search finds none."""
        wins, _ = decisive_moves(state)
        if wins:
            return wins[0]
        return self._threat_that_wins(state, moves)

    def wins(self, state: CageState, moves: int) -> bool:
        """Whether the player to move wins by continuous threats within ``moves`` own moves."""
        if state.outcome is not None:
            return False
        if drop_win(state, state.player) >= 0 or decisive_moves(state)[0]:
            return True
        return self._chain_wins(state, moves)

    # --- the tree -------------------------------------------------------------------------
    def _chain_wins(self, state: CageState, moves: int) -> bool:
        """:meth:`wins` for a mover known to have no line in one (the table's answer if it
        has one)."""
        if moves <= 1:
            return False
        key = (bytes(state.board), state.player, state.last)
        if self._proved.get(key, moves + 1) <= moves:
            return True
        if self._failed.get(key, 0) >= moves:
            return False
        found = self._threat_that_wins(state, moves) is not None
        if found:
            self._proved[key] = moves
        else:
            self._failed[key] = moves
        return found

    def _threat_that_wins(self, state: CageState, moves: int) -> int | None:
        """A threat of the mover (who has no line in one) that every reply loses to, at once or
        to a further chain within ``moves - 1`` of its moves."""
        if moves <= 1:
            return None
        attacker = state.player
        for action in state.legal_actions():
            child = self._after(state, action)
            if (
                child.outcome is None
                and self._threatens(child, attacker)
                and self._parries_fail(child, attacker, moves)
            ):
                return action
        return None

    def _parries_fail(self, child: CageState, attacker: int, moves: int) -> bool:
        """After the attacker's threat ``child``: whether every defender reply loses, at once
        or to a further chain of threats within ``moves - 1`` attacker moves."""
        parried: list[CageState] = []
        for reply in child.legal_actions():
            after = self._after(child, reply)
            outcome = after.outcome
            if outcome is not None:
                if outcome[attacker] > 0:
                    continue  # the reply completed the attacker's line
                return False  # the defender won, or drew
            if drop_win(after, attacker) >= 0 or decisive_moves(after)[0]:
                continue  # not a parry
            parried.append(after)
            if len(parried) > MAX_PARRIES:
                return False
        # A parried position's mover has no line in one: checked just above.
        return all(self._chain_wins(after, moves - 1) for after in parried)

    @staticmethod
    def _threatens(state: CageState, attacker: int) -> bool:
        """Whether ``attacker`` (not to move in ``state``) would have a line in one move if it
        were: a drop, or a twist or flip making only its lines (the board alone is read)."""
        if drop_win(state, attacker) >= 0:
            return True
        owner = state.game.owner
        board, heights = state.board, state.heights
        for turn in TURNS:
            colours = line_colours(result_of(board, heights, turn))
            if colours and all(owner[colour] == attacker for colour in colours):
                return True
        return False

    def _after(self, state: CageState, action: int) -> CageState:
        """``state`` after ``action`` (a copy), counted against the budget."""
        self.played += 1
        if self.budget is not None and self.played > self.budget:
            raise ThreatSearchOut
        deadline = self.deadline
        if deadline is not None and self.played & 31 == 0 and time.perf_counter() > deadline:
            raise ThreatSearchOut
        child = state.clone()
        child.apply_action(action)
        return child


__all__ = ["MAX_PARRIES", "ThreatSearch", "ThreatSearchOut", "decisive_moves", "drop_win"]
