"""A strong Axiom player: principal-variation alpha-beta on a clock.

* **Iterative deepening** until the time (or node) budget is spent; the move of the last finished
  depth is played, or a better one the unfinished depth has already proven. No new depth starts
  once 60% of the time is gone (:data:`NEW_DEPTH_SHARE`) and the search stops at the deadline,
  so a move takes at most about its budget.
* **Captures seen through.** A side that can capture (move onto a cube holding an enemy sceptre)
  wins at once, so every node first looks for such a move and scores a win without searching.
  At the horizon a side whose sceptre is under a capture threat is searched one ply further
  (a threat extension, like a check extension in chess), so a leaf is never scored in the
  middle of a lost exchange.
* **Move ordering:** the transposition table's move, eliminations, killer moves, then the
  history heuristic; moves that capture one's own sceptre (a loss) are never searched when any
  other move exists. Late quiet moves are searched one ply shallower first (late move
  reductions) and again at full depth only if they look better.
* **Transposition table with repetition history:** the key is the position up to translation
  (the repetition rule's notion) *and* how often it has occurred in the game and on the search
  path, so a position met for the second time is a different node from the fresh one.
* **Mate distance:** a win in n plies scores ``WIN - n``; faster wins and slower losses are
  preferred, and a proven result stops the deepening.
* **Contempt:** in play a draw (repetition, ply cap) scores :data:`CONTEMPT` below an even
  position for the side choosing the move (and as much above for its opponent), so the agent
  plays on from a position a little worse rather than repeat; analysis scores draws at 0.
* **Evaluation** (:mod:`.axiom_eval`): material, sceptre and cube mobility, pressure on enemy
  sceptres, eliminations on offer, pinned cubes, trapped sceptres and capture threats.

The agent also analyses positions (:meth:`AxiomSearchAgent.analyse`) for the analysis board.
"""

from __future__ import annotations

import math
import time

from gameshelf.core.game import Game, State

from ..alphabeta import EXACT, LOWER, UPPER, OutOfBudget
from ..analysis import PV_LIMIT, MoveAnalysis
from ..base import Agent
from .book import book_move
from .learned import (
    DEFAULT_WEIGHTS,
    Weights,
    board_of,
    classify,
    evaluate,
    moves_of,
    position_hash,
    sceptre_facts,
    summarise,
)

WIN = 1_000_000
"""Score of a win now; a win in n plies scores ``WIN - n``."""
MATE_BOUND = WIN - 1_000
"""Scores beyond this (either sign) are proven results."""
INFINITY = WIN + 1
MAX_EXTENSIONS = 3
"""Threat extensions allowed on one path (they stop a leaf being judged mid-exchange)."""
VALUE_SCALE = 250.0
"""Centi-cubes per logistic unit when a score of the hand-written weights becomes a winning
chance (a cube up ~ 0.6); the levels use the scale their learned weights' fit measured."""
TABLE_LIMIT = 150_000
"""Entries kept in the transposition table before it is emptied between moves (an entry is a
position digest, a repetition count and four numbers: about 40 MB at the limit)."""


NEW_DEPTH_SHARE = 0.6
"""No new depth starts once this share of the move's time is spent (it would not finish)."""
CONTEMPT = 50
"""What a draw (repetition, ply cap) costs the player choosing a move, in centi-cubes: hard
plays on from positions a little worse rather than repeat. Analysis values draws at 0."""


class AxiomSearchAgent(Agent):
    """Iterative-deepening PVS alpha-beta for Axiom (see the module docstring).

    ``time_limit`` is seconds per move; ``node_budget`` caps the nodes per move (a seed plus a
    node budget and no time limit reproduces every move). With neither, one second a move.
    ``book``: play the opening book's move where it has one (:mod:`.axiom_book`; analysis never
    uses it). ``value_scale``: centi-cubes per logistic unit when :meth:`analyse` turns a score
    into a winning chance.
    """

    name = "axiom-search"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        time_limit: float | None = None,
        node_budget: int | None = None,
        max_depth: int = 64,
        weights: Weights = DEFAULT_WEIGHTS,
        book: bool = False,
        value_scale: float = VALUE_SCALE,
    ) -> None:
        super().__init__(game, seed)
        if game.spec.name != "axiom":
            raise ValueError(f"the Axiom search plays Axiom only, not {game.game_string}")
        if not value_scale > 0:
            raise ValueError(f"value_scale must be positive, got {value_scale}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit}")
        if node_budget is not None and node_budget < 1:
            raise ValueError(f"node_budget must be at least 1, got {node_budget}")
        if max_depth < 1:
            raise ValueError(f"max_depth must be at least 1, got {max_depth}")
        if time_limit is None and node_budget is None:
            time_limit = 1.0
        self.time_limit = time_limit
        self.node_budget = node_budget
        self.max_depth = max_depth
        self.weights = weights
        self.book = book
        self.value_scale = value_scale
        self.table: dict[tuple[int, int], tuple[int, int, int, int | None]] = {}
        self.killers: dict[int, list[int]] = {}
        self.history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self.completed_depth = 0
        self.last_value = 0
        self._reps: dict[int, int] = {}
        self._contempt = 0
        self._draw_for: tuple[int, int] | None = None  # (root player, contempt) of the table
        self._root_player = 0
        self._deadline: float | None = None
        self._budget = 0

    # --- playing --------------------------------------------------------------------------
    def step(self, state: State) -> int:
        """The opening book's move (with ``book``, where it has one), else the best move found
        within the budget."""
        if self.book:
            action = book_move(state)
            if action is not None:
                return action
        results = self._think(state, self.time_limit, 1, CONTEMPT)
        return results[0][0]

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The ``top`` best moves of ``state`` after about ``seconds`` of search, best first,
        each with its value for the player to move (in [0, 1]), whether it is proven, and its
        principal variation."""
        if not seconds > 0:
            raise ValueError(f"seconds must be positive, got {seconds}")
        if top < 1:
            raise ValueError(f"top must be at least 1, got {top}")
        if state.is_terminal():
            raise ValueError("the game is over: there is no move to analyse")
        results = self._think(state, seconds, top, 0)
        out = []
        for action, score in results[:top]:
            if score >= MATE_BOUND:
                value, solved = 1.0, "win"
            elif score <= -MATE_BOUND:
                value, solved = 0.0, "loss"
            else:
                value, solved = 1.0 / (1.0 + math.exp(-score / self.value_scale)), None
            out.append(
                MoveAnalysis(
                    action, state.action_to_string(action), value, solved, self._pv(state, action)
                )
            )
        return out

    def score_move(self, state: State, action: int, depth: int, contempt: int = 0) -> int:
        """The score of playing ``action`` in ``state`` for its mover, searched ``depth`` plies
        in all (no clock; the node budget, if any, still applies): centi-cubes, or beyond
        ``±MATE_BOUND`` a proven win or loss; a draw scores ``-contempt`` for the mover (play
        uses :data:`CONTEMPT`). The transposition table is kept between calls with the same
        mover and contempt."""
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        if action not in state.legal_actions():
            raise ValueError(f"action {action} is not a legal move here")
        self._deadline = None
        self._budget = self.node_budget or 1 << 62
        self.nodes = 0
        self._value_draws(state, contempt)
        self._reps = self._game_repetitions(state)
        child = state.clone()
        child.apply_action(action)
        key = self._enter(child)
        try:
            return -self._search(child, key, depth - 1, -INFINITY, INFINITY, 1, 0)
        finally:
            self._leave(key)

    # --- iterative deepening --------------------------------------------------------------
    def _think(
        self, state: State, seconds: float | None, multipv: int, contempt: int
    ) -> list[tuple[int, int]]:
        """Deepen on ``state`` (a draw worth ``-contempt`` to its mover); the root moves with
        their scores, best first."""
        start = time.perf_counter()
        self._value_draws(state, contempt)
        self._deadline = None if seconds is None else start + seconds
        self._budget = self.node_budget or 1 << 62
        self.nodes = 0
        self.killers.clear()
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        for key in list(self.history):
            self.history[key] //= 8  # old knowledge fades, but still orders the first depth
        self._reps = self._game_repetitions(state)
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the game is over: there is no move to choose")
        order = actions[:]
        self.rng.shuffle(order)  # seeded tie-breaking among equal moves
        facts = sceptre_facts(state, order)
        wins = [a for a in order if a in facts and facts[a].captures]
        if wins and multipv == 1:
            self.last_value, self.completed_depth = WIN - 1, 1
            return [(wins[0], WIN - 1)]
        safe = [a for a in order if not (a in facts and facts[a].self_capture)]
        if safe:
            order = safe + [a for a in order if a not in safe]
        if len(safe) == 1 and multipv == 1:
            self.completed_depth = 0
            return [(safe[0], 0)]
        scores: dict[int, int] = {a: -INFINITY for a in order}
        self.completed_depth = 0
        best: list[tuple[int, int]] = [(order[0], -INFINITY)]
        for depth in range(1, self.max_depth + 1):
            try:
                self._root(state, order, depth, multipv, scores)
            except OutOfBudget:
                # moves already searched at this depth with better scores are proven better
                partial = sorted(((a, scores[a]) for a in self._searched), key=lambda p: -p[1])
                if not self.completed_depth:
                    # not even one depth: only the moves searched have scores
                    best = partial or [(order[0], 0)]
                elif partial and partial[0][1] > best[0][1] and partial[0][0] != best[0][0]:
                    best = partial + [p for p in best if p[0] not in self._searched]
                break
            order.sort(key=lambda a: -scores[a])
            best = [(a, scores[a]) for a in order]
            self.completed_depth = depth
            self.last_value = best[0][1]
            top = best[:multipv]
            if all(abs(s) >= MATE_BOUND for _, s in top) and best[0][1] >= MATE_BOUND:
                break  # proven win: nothing deeper can beat it
            if all(abs(s) >= MATE_BOUND for _, s in best):
                break  # every move's result is proven
            if self._deadline is not None:
                spent = time.perf_counter() - start
                if seconds is not None and spent > seconds * NEW_DEPTH_SHARE:
                    break  # the next depth costs several times this one: it would not finish
        return best

    def _root(
        self, state: State, order: list[int], depth: int, multipv: int, scores: dict[int, int]
    ) -> None:
        """Search every root move to ``depth``; exact scores for the best ``multipv``."""
        self._searched: list[int] = []
        found: list[int] = []  # exact scores so far, descending
        for index, action in enumerate(order):
            child = state.clone()
            child.apply_action(action)
            key = self._enter(child)
            try:
                if index < multipv:
                    value = -self._search(child, key, depth - 1, -INFINITY, INFINITY, 1, 0)
                else:
                    alpha = found[multipv - 1]
                    value = -self._search(child, key, depth - 1, -alpha - 1, -alpha, 1, 0)
                    if value > alpha:
                        value = -self._search(child, key, depth - 1, -INFINITY, -alpha, 1, 0)
            finally:
                self._leave(key)
            scores[action] = value
            self._searched.append(action)
            if index < multipv or value > found[multipv - 1]:
                found.append(value)
                found.sort(reverse=True)
                del found[multipv:]

    # --- the search -----------------------------------------------------------------------
    def _search(
        self, state: State, pos: int, depth: int, alpha: int, beta: int, ply: int, extensions: int
    ) -> int:
        """Negamax score of ``state`` (whose :func:`position_hash` is ``pos``, as
        :meth:`_enter` gave it) for its player to move, within (alpha, beta)."""
        if self.nodes >= self._budget:
            raise OutOfBudget
        self.nodes += 1
        deadline = self._deadline
        if deadline is not None and time.perf_counter() > deadline:
            raise OutOfBudget
        if state.is_terminal():
            return self._terminal(state, ply)
        mover = state.to_move  # type: ignore[attr-defined]
        mine = state.legal_actions()
        board = board_of(state)
        if depth <= 0:
            side = summarise(board, mover, mine)
            if side.captures:
                return WIN - ply - 1
        else:
            wins, losing, eliminating = classify(board, mover, mine)
            if wins:
                return WIN - ply - 1
        # mate distance: nothing here can beat a win next move or lose faster than now
        alpha = max(alpha, -WIN + ply)
        beta = min(beta, WIN - ply - 1)
        if alpha >= beta:
            return alpha
        key = (pos, self._reps.get(pos, 0))
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                value = _from_table(e_value, ply)
                if e_flag == EXACT:
                    return value
                if e_flag == LOWER and value >= beta:
                    return value
                if e_flag == UPPER and value <= alpha:
                    return value
        if depth <= 0:
            theirs = moves_of(state, 1 - mover)
            other = summarise(board, 1 - mover, theirs)
            if not other.captures or extensions >= MAX_EXTENSIONS:
                return evaluate(state, mine, theirs, self.weights, (side, other))
            depth, extensions = 1, extensions + 1  # threatened: one ply more
            _, losing, eliminating = classify(board, mover, mine)
        moves = self._ordered(mine, losing, eliminating, tt_move, ply, mover)
        original_alpha = alpha
        best_value, best_move = -INFINITY, moves[0]
        for index, action in enumerate(moves):
            child = state.clone()
            child.apply_action(action)
            child_key = self._enter(child)
            try:
                quiet = action not in eliminating
                reduce = 1 if depth >= 3 and index >= 6 and quiet and action != tt_move else 0
                if index == 0:
                    value = -self._search(
                        child, child_key, depth - 1, -beta, -alpha, ply + 1, extensions
                    )
                else:
                    value = -self._search(
                        child,
                        child_key,
                        depth - 1 - reduce,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        extensions,
                    )
                    if value > alpha and reduce:
                        value = -self._search(
                            child, child_key, depth - 1, -alpha - 1, -alpha, ply + 1, extensions
                        )
                    if alpha < value < beta:
                        value = -self._search(
                            child, child_key, depth - 1, -beta, -alpha, ply + 1, extensions
                        )
            finally:
                self._leave(child_key)
            if value > best_value:
                best_value, best_move = value, action
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._cutoff(action, ply, depth, mover)
                        break
        flag = UPPER if best_value <= original_alpha else LOWER if best_value >= beta else EXACT
        self.table[key] = (depth, _to_table(best_value, ply), flag, best_move)
        return best_value

    def _ordered(
        self,
        moves: list[int],
        losing: set[int],
        eliminating: set[int],
        tt_move: int | None,
        ply: int,
        mover: int,
    ) -> list[int]:
        """Moves in search order; own-sceptre captures (``losing``) left out unless forced."""
        killers = self.killers.get(ply, ())
        history = self.history
        keyed = []
        for action in moves:
            if action in losing:
                continue
            if action == tt_move:
                rank = 0
            elif action in eliminating:
                rank = 1
            elif action in killers:
                rank = 2
            else:
                rank = 3
            keyed.append((rank, -history.get((mover, action), 0), action))
        if not keyed:
            return sorted(losing)
        keyed.sort()
        return [a for _, _, a in keyed]

    def _cutoff(self, action: int, ply: int, depth: int, mover: int) -> None:
        """Remember a move that refuted a line: a killer at this ply and in the history."""
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        key = (mover, action)
        self.history[key] = self.history.get(key, 0) + depth * depth

    def _terminal(self, state: State, ply: int) -> int:
        """Score of a finished game for the player who would move next."""
        mover = state.to_move  # type: ignore[attr-defined]
        value = state.returns()[mover]
        if value > 0:
            return WIN - ply
        if value < 0:
            return -WIN + ply
        return -self._contempt if mover == self._root_player else self._contempt

    def _value_draws(self, state: State, contempt: int) -> None:
        """Score draws ``-contempt`` for ``state``'s mover (and ``+contempt`` for the other) in
        the searches to come; the table's scores hold for one such choice only, so another
        empties it."""
        root = state.to_move  # type: ignore[attr-defined]
        if self._draw_for != (root, contempt):
            self.table.clear()
            self._draw_for = (root, contempt)
        self._root_player, self._contempt = root, contempt

    # --- repetitions ----------------------------------------------------------------------
    def _game_repetitions(self, state: State) -> dict[int, int]:
        """How often each position has occurred in the game so far (replayed from the start
        when the state's history reaches back to it; else only the position itself)."""
        counts: dict[int, int] = {}
        history = state.history()
        if len(history) == state.ply:  # type: ignore[attr-defined]
            replay = self.game.new_initial_state()
            try:
                for action in history:
                    key = position_hash(replay)
                    counts[key] = counts.get(key, 0) + 1
                    replay.apply_action(action)
            except Exception:  # a history that does not replay: count the position alone
                counts = {}
        key = position_hash(state)
        counts[key] = counts.get(key, 0) + 1
        return counts

    def _enter(self, state: State) -> int:
        """Count ``state``'s position on the search path; its key."""
        key = position_hash(state)
        self._reps[key] = self._reps.get(key, 0) + 1
        return key

    def _leave(self, key: int) -> None:
        """Undo :meth:`_enter`."""
        count = self._reps[key] - 1
        if count:
            self._reps[key] = count
        else:
            del self._reps[key]

    def _pv(self, state: State, action: int) -> tuple[str, ...]:
        """The principal variation starting with ``action``, read from the table."""
        line = [state.action_to_string(action)]
        node = state.clone()
        node.apply_action(action)
        reps = dict(self._reps)
        seen = set()
        while len(line) < PV_LIMIT and not node.is_terminal():
            pos = position_hash(node)
            reps[pos] = reps.get(pos, 0) + 1
            entry = self.table.get((pos, reps[pos]))
            if entry is None or entry[3] is None or (pos, reps[pos]) in seen:
                break
            seen.add((pos, reps[pos]))
            move = entry[3]
            if move not in node.legal_actions():
                break
            line.append(node.action_to_string(move))
            node.apply_action(move)
        return tuple(line)


def _to_table(value: int, ply: int) -> int:
    """A mate score stored relative to the node (so it is right at any depth it is read)."""
    if value >= MATE_BOUND:
        return value + ply
    if value <= -MATE_BOUND:
        return value - ply
    return value


def _from_table(value: int, ply: int) -> int:
    """Undo :func:`_to_table` at ``ply``."""
    if value >= MATE_BOUND:
        return value - ply
    if value <= -MATE_BOUND:
        return value + ply
    return value
