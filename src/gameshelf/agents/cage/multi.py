"""The Cage for three and four players: a paranoid alpha-beta with the threat evaluator.

In a multi-player Cage any other player's line is the searching player's loss, so the search
treats the others as one side (the *paranoid* assumption): it maximises at its own turns and
minimises at every other player's, in the real turn order. That is what makes the Cage's short
tactics exact for it: it takes a line in one, blocks any player's immediate line (a drop or a
twist, for the next player or one further on), and never plays a move that lets the next player
hand the line to someone else. Leaves are scored by :func:`~.cage_search.threat_scores`, the
searching player's lead over the best other player, and a leaf whose mover can complete a line
by a drop counts as (almost) decided. A draw is worth little more than a loss (:data:`DRAW_VALUE`),
and so is a leaf where the searcher has dropped all its cubies while others hold some: the search
keeps its last cubie back, so that no one else can end the game with the last drop.

:class:`CageParanoidAgent` deepens iteratively on the clock (``time_limit``) or on a node count
alone (``time_limit=None``: a seed reproduces every decision), with a transposition table that
keeps no value a repetition draw decided, killer moves and the history heuristic.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gameshelf.core.game import Game, State
from gameshelf.games.cage import CageState

from ..alphabeta import EXACT, LOWER, UPPER, OutOfBudget, SearchBookkeeping
from ..base import Agent
from .evaluation import cage_key
from .search import TO_MOVE_WINS, decisive_moves, drop_win, threat_scores

if TYPE_CHECKING:
    from ..analysis import MoveAnalysis

WIN = 10_000.0
"""A won line at ply 0 (wins sooner score higher, losses later score higher)."""
PROVEN = WIN - 1000.0
"""Values beyond this are forced results."""
DRAW_VALUE = -90.0
"""A draw for the searching player, near the bottom of the +-100 evaluation scale: a draw is not
a win at the table. The lead over the *best* of two or three others is below zero in most even
positions, so at -30 the search took a draw (simultaneous lines made by its own twist, its last
cubie dropped) in positions it judged only a little behind; the real others are not the one
colluding side it assumes and seldom convert such positions
(docs/decisions/007-cage-multiplayer-paranoid-search.md)."""
TEMPERATURE = 30.0
"""Lead in threat points that maps to ``tanh(1)`` of the +-100 evaluation scale."""
REPEAT_PENALTY = 40.0
"""What a root move back to an already seen position costs (the horizon misses threefold)."""
SURRENDER_PENALTY = 10.0
"""What a root move that drops the searcher's last cubie while others hold some costs: it hands
the end of the game to them (the last drop, a draw unless it makes a line, is then theirs to
play when they like), where an equal value found deeper is a draw only if they all play for it.
Without it hard, seeing every move at the draw value, sometimes dropped its last cubie first
while safe twists were left, and those games were drawn."""


@dataclass
class _Entry:
    depth: int
    value: float
    flag: int
    best: int | None
    winner: int


class CageParanoidAgent(SearchBookkeeping, Agent):
    """Multi-player Cage: iterative-deepening paranoid alpha-beta on the threat evaluator."""

    name = "cage-paranoid"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        node_budget: int = 20_000,
        time_limit: float | None = None,
        max_depth: int = 12,
        rational: bool = True,
    ) -> None:
        if game.spec.name != "cage":
            raise ValueError(f"the Cage search plays the Cage, not {game.game_string}")
        super().__init__(game, seed)
        self.node_budget = node_budget
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.rational = rational
        """Whether other players are assumed not to set up a third player's line."""
        self.table: dict[Hashable, _Entry] = {}
        self._leaves: dict[tuple[tuple[int, ...], int], float] = {}
        self.killers: dict[int, list[int]] = {}
        self.history_score: dict[int, int] = {}
        self.nodes = 0
        self.completed_depth = 0
        self.last_value = 0.0
        self._me = 0
        self._deadline: float | None = None
        self._path_dependent = False
        self._partial: tuple[float, int] | None = None
        """Best value and move so far of the root iteration in progress."""
        self._winner = -1

    # --- public ---------------------------------------------------------------------------
    def step(self, state: State) -> int:
        """Deepen until the budget is spent; play the best move of the last finished depth, or
        of the unfinished one where a move has already beaten that (it is searched first)."""
        assert isinstance(state, CageState)
        self._me = state.current_player()
        self.nodes = 0
        self.table.clear()
        self._leaves.clear()
        self.killers.clear()
        self._path_dependent = False
        self._deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        wins, _ = decisive_moves(state)
        if wins:
            self.last_value, self.completed_depth = WIN - 1, 1
            return wins[0]
        order = self._root_moves(state)
        best = order[0]
        self.completed_depth = 0
        for depth in range(1, self.max_depth + 1):
            self._partial = None
            try:
                value, move = self._root(state, order, depth)
            except OutOfBudget:
                best = self._partial_best(best)
                break
            if value <= -PROVEN and self.completed_depth:
                break  # "lost" only if the others all play for one of them: keep the last move
            best, self.last_value, self.completed_depth = move, value, depth
            order.remove(move)
            order.insert(0, move)
            if abs(value) >= PROVEN:
                break  # a forced result is known; deeper search cannot change it
        return best

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The best ``top`` moves of ``state``, by the Cage MCTS-Solver (expected scores in
        ``[0, 1]`` and exact proofs, which the paranoid values are not)."""
        from .search import CageSearchAgent

        helper = CageSearchAgent(self.game, self.rng.randrange(2**31))
        return helper.analyse(state, seconds, top)

    def _root_moves(self, state: CageState) -> list[int]:
        """The legal moves in a seeded random order (ties among equal moves), without those
        that end the game in a draw or let the next player complete a line at once, unless
        every move does one or the other.

        The search proves losses that need the others to play for one of them (leaving a
        threat of another unblocked, which real players seldom do); with every move "lost" it
        took a draw (its own twist into simultaneous lines, its last cubie dropped) where moves
        that lose nothing at once were left, or kept a shallower depth's move that the next
        player answered with a line."""
        order = state.legal_actions()
        self.rng.shuffle(order)
        kept = [action for action in order if not self._concedes(state, action)]
        return kept or order

    def _concedes(self, state: CageState, action: int) -> bool:
        """Whether ``action`` ends the game without a win for the searcher (a winning move is
        taken before this is asked) or lets the next player complete a line at once."""
        child = state.clone()
        child.apply_action(action)
        if child.outcome is not None:
            return True
        return child.player != self._me and bool(decisive_moves(child)[0])

    def _partial_best(self, best: int) -> int:
        """The unfinished iteration's best move if it already searched the last depth's move
        (always first) and is not lost there, else ``best``."""
        partial = self._partial
        if partial is not None and partial[0] > -PROVEN:
            return partial[1]
        return best

    # --- the search -----------------------------------------------------------------------
    def _root(self, state: CageState, order: list[int], depth: int) -> tuple[float, int]:
        """Best move and value at ``depth``; a move back to a position seen since the last drop
        scores :data:`REPEAT_PENALTY` less."""
        alpha, beta = -WIN - 1, WIN + 1
        best_move, best_value = order[0], -WIN - 1
        for action in order:
            child = state.clone()
            child.apply_action(action)
            value = self._search(child, depth - 1, alpha, beta, 1)
            if abs(value) < PROVEN:
                if _repeats(child):
                    value -= REPEAT_PENALTY
                elif self._empty_handed(child):
                    value -= SURRENDER_PENALTY
            if value > best_value:
                best_value, best_move = value, action
            alpha = max(alpha, value)
            self._partial = (best_value, best_move)
        return best_value, best_move

    def _search(self, state: CageState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Paranoid value of ``state`` for the searching player (max at its turns, min else);
        :attr:`_winner` names the player a forced result goes to (``-1``: none)."""
        self._tick()
        self._winner = -1
        if state.outcome is not None:
            return self._terminal_value(state, ply)
        if depth <= 0:
            return self._static_value(state)
        key = cage_key(state)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            tt_move = entry.best
            if entry.depth >= depth:
                self._winner = entry.winner
                if entry.flag == EXACT:
                    return entry.value
                if entry.flag == LOWER and entry.value >= beta:
                    return entry.value
                if entry.flag == UPPER and entry.value <= alpha:
                    return entry.value
                self._winner = -1
        outer = self._path_dependent
        self._path_dependent = False
        value, best = self._children(state, depth, alpha, beta, ply, tt_move)
        if not self._path_dependent:
            flag = UPPER if value <= alpha else LOWER if value >= beta else EXACT
            self.table[key] = _Entry(depth, value, flag, best, self._winner)
        self._path_dependent = outer or self._path_dependent
        return value

    def _children(
        self, state: CageState, depth: int, alpha: float, beta: float, ply: int, tt_move: int | None
    ) -> tuple[float, int | None]:
        """The value of ``state``'s best child for its mover (paranoid) and that move.

        Another player takes a move that forces someone else's line (their loss as much as the
        searcher's), the searcher's included, only when every move they have loses: then the
        worst of those for the searcher. Unless a third player can already complete a line by a
        drop (a threat the mover may overlook: the search blocks it). A player who loses whatever
        they do is not assumed to hand the searcher the game: the search once dropped into a
        position where each of the next player's moves gave a line to it or to the player after,
        and scored it as won (a measured game; that player gave the line to the other)."""
        mover = state.player
        maximising = mover == self._me
        rational = self.rational and not maximising and not self._third_threatens(state)
        best_value = -WIN - 1 if maximising else WIN + 1
        best_move, best_winner = None, -1
        given: list[tuple[float, int, int]] = []
        for action, child in self._replies(state, tt_move, ply, maximising):
            value = self._search(child, depth - 1, alpha, beta, ply + 1)
            winner = self._winner
            if rational and abs(value) >= PROVEN and winner != mover:
                given.append((value, action, winner))
                continue
            if (value > best_value) if maximising else (value < best_value):
                best_value, best_move, best_winner = value, action, winner
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                self._remember_cutoff(action, ply, depth)
                break
        if best_move is None and given:
            best_value, best_move, best_winner = min(given)
        self._winner = best_winner if abs(best_value) >= PROVEN else -1
        return best_value, best_move

    def _third_threatens(self, state: CageState) -> bool:
        """Whether a player other than the mover and the searcher can complete a line by a
        drop now."""
        mover, me = state.player, self._me
        return any(
            drop_win(state, player) >= 0
            for player in range(state.game.players)
            if player not in (mover, me)
        )

    def _replies(
        self, state: CageState, tt_move: int | None, ply: int, mine: bool
    ) -> Iterator[tuple[int, CageState]]:
        """Each move in search order with the position it leads to. Another player keeps back
        the moves that hand a third player the game (a line of theirs at once, or a drop that
        completes one next turn): those are their loss too, so they come only if nothing else
        is left. A threat the next player already has is not screened (the mover may not see
        it: the search blocks it itself), nor are the searching player's own turns."""
        kept: list[tuple[int, CageState]] = []
        mover = state.player
        screen = self.rational and not mine
        if screen:
            following = state.game.next_player[mover]
            screen = following == self._me or drop_win(state, following) < 0
        searched = False
        for action in self._ordered(state, tt_move, ply):
            child = state.clone()
            child.apply_action(action)
            if screen and self._hands_over(child, mover):
                kept.append((action, child))
                continue
            searched = True
            yield action, child
        if not searched:
            yield from kept

    def _hands_over(self, child: CageState, mover: int) -> bool:
        """Whether ``mover``'s move gives the game to a player other than the searcher."""
        outcome = child.outcome
        if outcome is not None:
            return outcome[mover] < 0 and outcome[self._me] < 0
        nxt = child.player
        return nxt != self._me and drop_win(child, nxt) >= 0

    def _ordered(self, state: CageState, tt_move: int | None, ply: int) -> list[int]:
        """Legal moves: the table's move, a winning drop, killers, then by history."""
        win = drop_win(state, state.player)
        killers = self.killers.get(ply, ())
        history = self.history_score

        def rank(action: int) -> tuple[bool, bool, bool, int]:
            return (
                action != win,
                action != tt_move,
                action not in killers,
                -history.get(action, 0),
            )

        return sorted(state.legal_actions(), key=rank)

    def _terminal_value(self, state: CageState, ply: int) -> float:
        """A win of the searching player, any loss, or a draw (path-dependent when cubies are
        left: a repetition, the ply cap or simultaneous lines)."""
        returns = state.returns()
        mine = returns[self._me]
        if mine != 0:
            self._winner = returns.index(1.0)
            return WIN - ply if mine > 0 else -WIN + ply
        if any(state.left):
            self._path_dependent = True
        return DRAW_VALUE

    def _static_value(self, state: CageState) -> float:
        """The searching player's lead in threat points over the best other player, on the
        +-100 scale; a mover who can complete a line by a drop has (almost) won. Cached by
        board and mover (the cubies left follow from the board), since leaves transpose."""
        key = (tuple(state.board), state.player)
        value = self._leaves.get(key)
        if value is None:
            value = self._leaves[key] = self._score(state)
        return value

    def _score(self, state: CageState) -> float:
        if drop_win(state, state.player) >= 0:
            return TO_MOVE_WINS if state.player == self._me else -TO_MOVE_WINS
        scores = threat_scores(state)
        mine = scores[self._me]
        best_other = max(s for p, s in enumerate(scores) if p != self._me)
        value = 100.0 * math.tanh((mine - best_other) / TEMPERATURE)
        if self._empty_handed(state):
            value = min(value, DRAW_VALUE)  # the others now decide when the game ends
        return value

    def _empty_handed(self, state: CageState) -> bool:
        """Whether the searching player has no cubie left while another player has one.

        Whoever drops the last cubie in play ends the game, a draw unless that drop makes a line
        (the default rules), so a player without cubies has handed the ending to the others
        (half the draws of a measured four-player run were an opponent's last drop after hard
        had dropped all of its own). Such a leaf is worth no more than a draw, so the search keeps a
        cubie back (a drop that completes a line is a win, not a leaf) and the game can then end
        only by a line, a repetition or the ply cap."""
        left = state.left
        return any(left) and not any(left[c] for c in state.game.config.colours[self._me])


def _repeats(state: CageState) -> bool:
    """Whether ``state``'s position occurred before, since the last drop."""
    return state.outcome is None and state.seen.get(state.position_key(), 0) >= 2


__all__ = ["CageParanoidAgent"]
