"""Cage-specific search: MCTS that sees the Cage's short, exact threats.

Cage threats are one move deep and exact (a line either completes or it does not), which plain
UCT with random playouts handles badly: a playout rarely punishes a missed block, so the tree
needs many visits to learn what a one-ply look shows at once. :class:`CageSearchAgent` adds:

* **Decisive moves in the tree.** A node whose mover can complete a line at once gets that move
  as its only child (so MCTS-Solver proves it on the first visit); moves that complete only an
  opponent's line are dropped unless nothing else is left. A position where the opponent keeps
  a winning reply is then proven lost one visit after its reply is tried, so blocks are found
  by the tree instead of by statistics.
* **Threat-aware playouts.** Each playout move completes the mover's line by a drop when it can,
  else drops onto the next player's winning column (a block), else is uniformly random; the
  line tests read the board directly (no cloning), so a playout costs about twice a random one.
* **A solver pass at the root** (two players): the exact depth-bounded
  :class:`~gameshelf.agents.solver.Solver`, iteratively deepened in a share of the move's time,
  proves short forced wins (taken at once) and losses (never chosen while another move is open).
  Where the cage is nearly full the horizon reaches the last drop, so endgames are solved.
* **An opponent model** (``model_opponents``, the three- and four-player levels): an opponent
  whose every move so far is one the one-ply ``greedy`` bot could have chosen (with enough
  evidence: :data:`GREEDY_EVIDENCE`) is expected to go on so, and its tree nodes hold only
  greedy's choices. At three or four players whoever moves right after a careless player is
  handed lines that a tree expecting every opponent to defend never sees coming; with the model
  the search sees them, both the ones it must keep from the others and the ones it can get.

It keeps the base agent's budget semantics: ``iterations`` counts playouts (a seed with no
``time_limit`` reproduces every decision; the solver pass then has a node budget instead of a
time share), and ``time_limit`` is the time per move.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

from gameshelf.core.game import Game, State
from gameshelf.games.cage import CageState
from gameshelf.games.cage.geometry import LINES, RING

from ..alphabeta import WIN, AlphaBetaAgent
from ..evaluators import relative, scale
from ..mcts import MCTSAgent, Node
from ..simple import GreedyAgent
from ..solver import Solver
from .learned import CageWeights
from .threats import ThreatSearch, ThreatSearchOut, decisive_moves, drop_win

if TYPE_CHECKING:
    from ..analysis import MoveAnalysis

SOLVER_SHARE = 0.3
"""Share of a clocked move's time the root solver may use (the rest goes to the tree)."""
SOLVER_NODES = 3000
"""The root solver's node budget in fixed-budget mode (reproducible, no clock)."""
SOLVER_DEPTH = 9
"""Deepest root solver horizon tried (plies)."""
GREEDY_EVIDENCE = math.log(20.0)
"""An opponent is predicted as ``greedy`` once its moves so far are this much likelier (a
likelihood ratio of 20) under greedy's choice than under a uniform one, none outside it."""
_SOLVED_VALUE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def threat_playout(state: CageState, rng: random.Random, max_plies: int) -> int:
    """Play at most ``max_plies`` threat-aware moves in place; return the plies played.

    Each move: a drop completing the mover's line; else a drop onto the column where the next
    player could complete a line by a drop (with a random own colour that has cubies left);
    else a uniformly random legal move.
    """
    game = state.game
    colours_of = game.config.colours
    following = game.next_player
    choice = rng.choice
    plies = 0
    while plies < max_plies and state.outcome is None:
        mover = state.player
        action = drop_win(state, mover)
        if action < 0:
            mine = [c for c in colours_of[mover] if state.left[c]]
            if mine:
                threat = drop_win(state, following[mover])
                if threat >= 0:
                    action = RING * choice(mine) + threat % RING
        if action < 0:
            action = choice(state.legal_actions())
        state.apply_action(action)
        plies += 1
    return plies


class CageSearchAgent(MCTSAgent):
    """MCTS-Solver with decisive moves, threat-aware playouts and a root solver (the Cage)."""

    name = "cage-search"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        iterations: int = 1500,
        time_limit: float | None = None,
        exploration: float = 1.0,
        rollout_depth: int = 60,
        root_solver: bool = True,
        model_opponents: bool = False,
    ) -> None:
        if game.spec.name != "cage":
            raise ValueError(f"the Cage search plays the Cage, not {game.game_string}")
        super().__init__(
            game,
            seed,
            iterations=iterations,
            exploration=exploration,
            rollout_depth=rollout_depth,
            time_limit=time_limit,
        )
        self.root_solver = root_solver
        self._search_root: Node | None = None
        self._banned: set[int] = set()
        self.solved: dict[int, str] = {}
        """Solver verdicts (for the mover) of root moves after the last search."""
        self.model_opponents = model_opponents
        self._greedy = GreedyAgent(game)
        self._observed: list[int] = []
        self._replay: State = game.new_initial_state()
        self._from_start = True
        self.evidence = [0.0] * self.players
        """Per seat: log-likelihood ratio of its moves so far under ``greedy`` against a uniform
        choice (``-inf`` once a move fell outside greedy's choice)."""
        self.modeled: frozenset[int] = frozenset()
        """Opponents whose moves the last search predicted as ``greedy`` would play them."""

    # --- public ---------------------------------------------------------------------------
    def step(self, state: State) -> int:
        """Search from ``state`` for the move's time (or budget) and return the chosen action."""
        return self._search(state, self.time_limit)

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The best ``top`` moves of ``state`` after searching about ``seconds``, best first.

        ``value`` is the tree's mean score for the mover in ``[0, 1]`` (or the proven result),
        ``solved`` the solver's or the tree's proof, ``pv`` the most visited line.
        """
        from ..analysis import MoveAnalysis

        if state.is_terminal():
            raise ValueError("the game is over; there is no move to analyse")
        keep = self.iterations
        self.iterations = max(keep, 10_000_000)  # the clock decides here
        try:
            self._search(state, seconds)
        finally:
            self.iterations = keep
        root = self._search_root
        assert root is not None
        me = state.current_player()
        rows: list[tuple[float, int, MoveAnalysis]] = []
        for action in state.legal_actions():
            child = root.children.get(action)
            solved = self.solved.get(action) or self._tree_proof(child, me)
            if solved in _SOLVED_VALUE:
                value = _SOLVED_VALUE[solved]
            elif child is not None and child.visits:
                value = child.mean(me)
            else:
                continue
            visits = child.visits if child is not None else 0
            pv = self._principal_variation(state, action)
            rows.append(
                (
                    value,
                    visits,
                    MoveAnalysis(action, state.action_to_string(action), value, solved, pv),
                )
            )
        rows.sort(key=lambda row: (row[0], row[1]), reverse=True)
        return [row[2] for row in rows[:top]]

    # --- the search -----------------------------------------------------------------------
    def _search(self, state: State, seconds: float | None) -> int:
        clock = time.perf_counter()
        deadline = None if seconds is None else clock + seconds
        legal = state.legal_actions()
        assert isinstance(state, CageState)
        modeled = self._greedy_seats(state) if self.model_opponents else frozenset()
        if modeled != self.modeled:
            self._root = None  # the kept tree was grown under another model
        self.modeled = modeled
        root = self._find_root(state)
        self._search_root = root
        self.solved = {}
        self._banned = set()
        self.reused_visits = root.visits
        self.last_iterations = 0
        if len(legal) == 1:
            self._advance_root(root, legal[0], state)
            return legal[0]
        wins, _ = decisive_moves(state)
        if wins:
            self.solved = {action: "win" for action in wins}
            self._advance_root(root, wins[0], state)
            return wins[0]
        if self.root_solver and self.players == 2:
            solver_deadline = None if seconds is None else clock + SOLVER_SHARE * seconds
            winning = self._solve_root(state, legal, solver_deadline)
            if winning is not None:
                self._advance_root(root, winning, state)
                return winning
        done = 0
        while done < self.iterations and root.proven is None:
            self.iterate(root, state.clone())
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_iterations = done
        action = self._best_action(root, state)
        self._advance_root(root, action, state)
        return action

    def _solve_root(self, state: State, legal: list[int], deadline: float | None) -> int | None:
        """Classify root moves by the exact solver, deepening while time (or nodes) last.

        Returns a move proven to win, if any; moves proven lost are banned from the tree.
        """
        solver = _BudgetSolver(self.game, deadline, None if deadline else SOLVER_NODES)
        children = []
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            children.append((action, child))
        verdicts: dict[int, str] = {}
        for depth in range(1, SOLVER_DEPTH + 1):
            solver.me = state.current_player()
            found: dict[int, str] = {}
            try:
                for action, child in children:
                    found[action] = solver.classify(child, depth - 1)
            except _SolverOut:
                # A partial pass still proves what it reached: proofs stay true deeper.
                verdicts.update({a: v for a, v in found.items() if v in ("win", "loss")})
                break
            verdicts = found
            if all(v in ("win", "loss", "draw") for v in found.values()) or "win" in found.values():
                break
        self.solved = {a: v for a, v in verdicts.items() if v in ("win", "loss", "draw")}
        for action, verdict in verdicts.items():
            if verdict == "win":
                return action
        lost = {a for a, v in verdicts.items() if v == "loss"}
        if len(lost) < len(legal):
            self._banned = lost
        return None

    # --- opponent model -------------------------------------------------------------------
    def _greedy_seats(self, state: CageState) -> frozenset[int]:
        """The opponents whose every move so far was one ``greedy`` could have chosen, with
        enough evidence (:data:`GREEDY_EVIDENCE`); the tree then expects greedy's moves of them.

        At three or four players the seat right after a careless player is handed lines; a
        tree that expects every opponent to defend cannot see it coming.
        """
        self._observe(state)
        me = state.current_player()
        return frozenset(
            seat
            for seat, evidence in enumerate(self.evidence)
            if seat != me and evidence >= GREEDY_EVIDENCE
        )

    def _observe(self, state: CageState) -> None:
        """Replay the game's new moves, weighing each seat's move against greedy's choice."""
        history = state.history()
        if not self._from_start or history[: len(self._observed)] != self._observed:
            self._from_start = True  # a new game (or a new try at one set up by hand)
            self._observed = []
            self._replay = self.game.new_initial_state()
            self.evidence = [0.0] * self.players
        replay = self._replay
        for action in history[len(self._observed) :]:
            seat = replay.current_player()
            if self.evidence[seat] > -math.inf:
                choices = self._greedy.best_moves(replay)
                if action in choices:
                    ratio = len(replay.legal_actions()) / len(choices)
                    self.evidence[seat] += math.log(ratio)
                else:
                    self.evidence[seat] = -math.inf
            replay.apply_action(action)
            self._observed.append(action)
        assert isinstance(replay, CageState)
        if replay.board != state.board or replay.player != state.player:
            # A position set up by hand: its history does not start from the empty cage.
            self._from_start = False
            self.evidence = [-math.inf] * self.players

    # --- tree hooks -----------------------------------------------------------------------
    def _select_or_expand(self, node: Node, state: State) -> tuple[Node, bool]:
        if node.untried is None and state.current_player() in self.modeled:
            # Greedy's own choice already puts a line in one first and a self-defeat last.
            node.untried = self._greedy.best_moves(state)
            self.rng.shuffle(node.untried)
        if node.untried is None:
            assert isinstance(state, CageState)
            wins, self_defeats = decisive_moves(state)
            if wins:
                actions = wins[:1]
            else:
                actions = state.legal_actions()
                if node is self._search_root and self._banned:
                    actions = [a for a in actions if a not in self._banned] or actions
                if self_defeats:
                    actions = [a for a in actions if a not in self_defeats] or actions
                self.rng.shuffle(actions)
            node.untried = [a for a in actions if a not in node.children]
        return super()._select_or_expand(node, state)

    def _uct_child(self, node: Node, mover: int) -> Node:
        if mover in self.modeled:  # greedy picks at random among its best moves
            return self.rng.choice(list(node.children.values()))
        return super()._uct_child(node, mover)

    def _update_proof(self, node: Node) -> None:
        if node is self._search_root and self._banned:
            return  # the root's children are a pruned list; its value is left to the tree
        if (
            self.modeled
            and node.children
            and next(iter(node.children.values())).mover in self.modeled
        ):
            self._update_chance_proof(node)
            return
        super()._update_proof(node)

    @staticmethod
    def _update_chance_proof(node: Node) -> None:
        """A greedy seat's node is a chance among its tied best moves: known only when every
        one of them ends the same."""
        if node.proven is not None or node.untried != []:
            return
        outcomes = [child.proven for child in node.children.values()]
        if outcomes[0] is not None and all(value == outcomes[0] for value in outcomes):
            node.proven = outcomes[0]

    def _leaf_value(self, node: Node, state: State) -> list[float]:
        if state.is_terminal():
            node.proven = self._normalise(state.returns())
            return node.proven
        assert isinstance(state, CageState)
        threat_playout(state, self.rng, self.rollout_depth)
        if state.is_terminal():
            return self._normalise(state.returns())
        return self._normalise(self.evaluator(state))

    def _best_action(self, root: Node, state: State) -> int:
        if self._banned:
            for action in self._banned:
                child = root.children.get(action)
                if child is not None:
                    child.visits = -1  # never the most visited
        action = super()._best_action(root, state)
        if action in self._banned:  # only lost moves were searched: any open one is better
            open_moves = [a for a in state.legal_actions() if a not in self._banned]
            action = open_moves[0] if open_moves else action
        return action

    # --- analysis helpers -----------------------------------------------------------------
    @staticmethod
    def _tree_proof(child: Node | None, me: int) -> str | None:
        if child is None or child.proven is None:
            return None
        value = child.proven[me]
        if value >= 1.0:
            return "win"
        if value <= 0.0:
            return "loss"
        return "draw" if value == 0.5 else None

    def _principal_variation(self, state: State, action: int, limit: int = 12) -> tuple[str, ...]:
        line = [state.action_to_string(action)]
        root = self._search_root
        node = root.children.get(action) if root is not None else None
        walk = state.clone()
        walk.apply_action(action)
        while node is not None and node.children and len(line) < limit and not walk.is_terminal():
            best = max(node.children.values(), key=lambda c: c.visits)
            if best.visits <= 0:
                break
            line.append(walk.action_to_string(best.action))
            walk.apply_action(best.action)
            node = best
        return tuple(line)


IMMEDIATE = 20.0
"""Weight of a line with two cubies of one colour whose empty cell a drop of that colour
fills now (the colour has cubies left and the cell is its column's lowest free one)."""
LATENT = 6.0
"""Weight of a two-cubie line whose third cell cannot be filled by the next drop."""
SINGLE = 1.0
"""Weight of a line holding one cubie and nothing else."""
TO_MOVE_WINS = 900.0
"""Static value (on the alpha-beta's +-100 scale) of a position whose mover can complete a
line by a drop: all but proven, yet short of the forced-result range."""


TWIST = 8.0
"""Weight of a line that one twist completes: two cubies of one colour and, in the third cell,
another colour, with a cubie of the line's colour two ring places away in that cell's layer.
A full cage has no empty cells, so these are its only threats."""


def _twist_threat_lines() -> tuple[tuple[int, int, int, int, int], ...]:
    """``(kept, kept, target, source, source)`` for each line whose cells lie in three layers
    (verticals and diagonals) and each of its cells: a twist of the target's layer brings the
    cubie of either source cell into the target and leaves the two kept cells where they are.
    (A row lies in one layer: a twist moves it whole, so it never completes one.)"""
    rows = []
    for line in LINES:
        if len({cell // RING for cell in line}) < 3:
            continue
        for target in line:
            kept = [cell for cell in line if cell != target]
            layer, ring = divmod(target, RING)
            sources = [RING * layer + (ring + step) % RING for step in (2, -2)]
            rows.append((kept[0], kept[1], target, sources[0], sources[1]))
    return tuple(rows)


TWIST_THREATS = _twist_threat_lines()
"""Every (line, cell) pair a twist may complete, see :func:`_twist_threat_lines`."""


def twist_threats(board: list[int]) -> set[tuple[int, int]]:
    """``(colour value, target cell)`` of each line that a single twist would complete (its
    target cell filled with another colour; gravity after the twist is not modelled)."""
    found = set()
    for a, b, target, left_source, right_source in TWIST_THREATS:
        value = board[a]
        if not value or board[b] != value:
            continue
        there = board[target]
        if there and there != value and value in (board[left_source], board[right_source]):
            found.add((value, target))
    return found


def threat_scores(state: CageState) -> list[float]:
    """Per player: weighted one-colour lines, immediate threats above all, and lines one twist
    completes."""
    scores, _ = line_tally(state)
    add_twist_threats(scores, state)
    return scores


def line_tally(state: CageState) -> tuple[list[float], int]:
    """Per player the weighted one-colour lines of :func:`threat_scores` (twist threats not
    yet added) and, as a bit mask over the players, whose lines a drop completes now (bit ``p``
    set exactly when :func:`drop_win` of ``p`` finds a drop: a ready line is such a drop)."""
    board, heights, left = state.board, state.heights, state.left
    owner = state.game.owner
    scores = [0.0] * state.game.players
    ready_owners = 0
    for a, b, c in LINES:
        va, vb, vc = board[a], board[b], board[c]
        colour = va or vb or vc
        if not colour or (va and va != colour) or (vb and vb != colour) or (vc and vc != colour):
            continue
        filled = (va != 0) + (vb != 0) + (vc != 0)
        if filled == 1:
            scores[owner[colour - 1]] += SINGLE
            continue
        empty = a if not va else b if not vb else c
        column = empty % RING
        player = owner[colour - 1]
        if left[colour - 1] > 0 and RING * heights[column] + column == empty:
            scores[player] += IMMEDIATE
            ready_owners |= 1 << player
        else:
            scores[player] += LATENT
    return scores, ready_owners


def position_terms(state: CageState) -> list[int] | None:
    """The learned evaluation's terms (:data:`~.cage_eval.TERMS`, from the mover's side) of a
    two-player position, or ``None`` when the mover can complete a line by a drop (a win in
    one: :func:`drop_win`, which the weights do not score)."""
    board, heights, left = state.board, state.heights, state.left
    owner = state.game.owner
    mover = state.player
    # index 0 counts the mover's lines, 1 the opponent's
    single, open_, dead, ready, twist = [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]
    for a, b, c in LINES:
        va, vb, vc = board[a], board[b], board[c]
        colour = va or vb or vc
        if not colour or (va and va != colour) or (vb and vb != colour) or (vc and vc != colour):
            continue
        side = owner[colour - 1] != mover
        if (va != 0) + (vb != 0) + (vc != 0) == 1:
            single[side] += 1
        elif not left[colour - 1]:
            dead[side] += 1
        else:
            empty = a if not va else b if not vb else c
            column = empty % RING
            if RING * heights[column] + column == empty:
                ready[side] += 1
            else:
                open_[side] += 1
    if ready[0]:
        return None
    for value, _ in twist_threats(board):
        twist[owner[value - 1] != mover] += 1
    cubies = 0
    for colour, count in enumerate(left):
        cubies += count if owner[colour] == mover else -count
    return [
        single[0], single[1], open_[0], open_[1], dead[0], dead[1], ready[1],
        twist[0], twist[1], cubies, 1,
    ]  # fmt: skip


def learned_value(state: CageState, weights: tuple[float, ...]) -> float:
    """The learned evaluation of a two-player position for its mover on the alpha-beta's
    +-100 scale (``100 * tanh(v / 2)``, ``v`` the weights times :func:`position_terms`: twice
    the mover's winning chance less one), or :data:`TO_MOVE_WINS` for a mover with a line in
    one drop. The terms are weighed as they are counted (the leaves are half the search's
    time); a test holds it to the weighted :func:`position_terms`."""
    (
        single_mine, single_theirs, open_mine, open_theirs, dead_mine, dead_theirs,
        ready_theirs, twist_mine, twist_theirs, per_cubie, logit,
    ) = weights  # fmt: skip
    board, heights, left = state.board, state.heights, state.left
    owner = state.game.owner
    mover = state.player
    for a, b, c in LINES:
        va, vb, vc = board[a], board[b], board[c]
        colour = va or vb or vc
        if not colour or (va and va != colour) or (vb and vb != colour) or (vc and vc != colour):
            continue
        mine = owner[colour - 1] == mover
        if (va != 0) + (vb != 0) + (vc != 0) == 1:
            logit += single_mine if mine else single_theirs
        elif not left[colour - 1]:
            logit += dead_mine if mine else dead_theirs
        else:
            empty = a if not va else b if not vb else c
            column = empty % RING
            if RING * heights[column] + column != empty:
                logit += open_mine if mine else open_theirs
            elif mine:
                return TO_MOVE_WINS
            else:
                logit += ready_theirs
    for value, _ in twist_threats(board):
        logit += twist_mine if owner[value - 1] == mover else twist_theirs
    for colour, count in enumerate(left):
        logit += per_cubie * count if owner[colour] == mover else -per_cubie * count
    return 100.0 * math.tanh(logit / 2.0)


def add_twist_threats(scores: list[float], state: CageState) -> None:
    """Add :data:`TWIST` to ``scores`` for each line one twist completes, to its owner."""
    owner = state.game.owner
    for value, _ in twist_threats(state.board):
        scores[owner[value - 1]] += TWIST


THREAT_TEMPERATURE = 30.0
"""The lead in weighted lines (:func:`threat_scores`) that the threat evaluator maps to
``tanh(1)`` of a win."""


def threat_evaluator(state: State) -> list[float]:
    """The Cage by threats: each player's lead in weighted one-colour lines, in the game's
    utility range."""
    assert isinstance(state, CageState)
    return scale(state.game, relative(threat_scores(state), THREAT_TEMPERATURE))


REPEAT_PENALTY = 40.0
"""What a root move back to an already seen position costs (on the +-100 evaluation scale)."""
CONTEMPT = 150.0
"""What a draw is worth to the searching player, below even (on the +-100 evaluation scale):
below every position the evaluation can score (+-100) short of a mover with a line in one
(:data:`TO_MOVE_WINS`), so the search plays on from any position not lost at its horizon instead
of repeating, dropping the last cubie or running into the ply cap, and its opponent is assumed
glad of a draw. (A draw is no win: at a smaller contempt the level took threefold repetitions
in positions it judged a little worse; docs/decisions/005-cage-two-player-alpha-beta.md.)"""


def _repeats(state: State) -> bool:
    """Whether ``state``'s position occurred before, since the last drop."""
    assert isinstance(state, CageState)
    return not state.is_terminal() and state.seen.get(state.position_key(), 0) >= 2


THREAT_MOVES = 5
"""How many of its own moves a chain of threats may take (the attacker's last one completing
the line): nine plies. Five reaches the chains that decided the games the alpha-beta lost to
OpenSpiel's MCTS; three missed most of them."""
OWN_CHAIN_SHARE = 0.05
"""Share of the move's budget for the mover's own chain of threats (before the alpha-beta)."""
CHECK_SHARE = 0.05
"""Share of the move's budget for one check of a move for the opponent's chains."""
CHECKS_SHARE = 0.2
"""Share of the move's budget for all those checks together."""
MAX_DROPPED = 2
"""Moves a search may drop for allowing the opponent a chain (a position where more do is
lost to chains anyway: the time goes to the alpha-beta instead)."""
THREAT_NODES = 1.0
"""Without a clock: positions the threat search may play per alpha-beta node of the budget,
times the share (a position of the threat search costs about what a node does)."""
THREAT_TABLE_LIMIT = 200_000
"""Answers the threat search's table keeps before it starts afresh."""


class CageAlphaBetaAgent(AlphaBetaAgent):
    """Two-player Cage: iterative-deepening alpha-beta on the clock; at the horizon a mover who
    can complete a line by a drop counts as (almost) winning, and other positions are scored by
    ``weights`` (the learned evaluation, :mod:`.cage_eval`) or, without them, by the
    hand-written threat evaluator."""

    name = "cage-alphabeta"
    principal_variation = True

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        node_budget: int = 20_000,
        time_limit: float | None = None,
        max_depth: int = 12,
        weights: CageWeights | None = None,
    ) -> None:
        if game.spec.name != "cage":
            raise ValueError(f"the Cage search plays the Cage, not {game.game_string}")
        super().__init__(
            game,
            seed,
            max_depth=max_depth,
            node_budget=node_budget,
            evaluator=threat_evaluator,
            time_limit=time_limit,
        )
        self.weights = weights
        self._weight_vector = None if weights is None else weights.vector()
        self._me = 0
        self._path_dependent = False
        self._overtaker: int | None = None  # the depth being searched: who beat its first move

    def step(self, state: State) -> int:
        """Search ``state``, reusing the table of earlier moves (it holds no value a repetition
        decided) unless the searching seat changed: a draw's worth depends on who searches
        (:data:`CONTEMPT`)."""
        me = state.current_player()
        if me != self._me:
            self.table.clear()
        self._me = me
        self._path_dependent = False
        return super().step(state)

    def _search(
        self, state: State, depth: int, alpha: float, beta: float, ply: int, me: int
    ) -> float:
        """As the base negamax, but a value that a repetition draw in its subtree decided is not
        stored in the table: it holds only on this path (the position's history), and a stored
        one would hide a win reached another way."""
        outer = self._path_dependent
        self._path_dependent = False
        value = super()._search(state, depth, alpha, beta, ply, me)
        if self._path_dependent and depth > 0 and not state.is_terminal():
            self.table.pop(self.key(state), None)
        self._path_dependent = outer or self._path_dependent
        return value

    def _terminal_value(self, state: State, me: int, ply: int) -> float:
        """Wins and losses as the base search; a draw is :data:`CONTEMPT` below even for the
        searching player (above for the other). A draw with cubies left (a repetition, the ply
        cap, simultaneous lines) marks the value as path-dependent."""
        if any(state.returns()):
            return super()._terminal_value(state, me, ply)
        assert isinstance(state, CageState)
        if any(state.left):
            self._path_dependent = True
        return -CONTEMPT if me == self._me else CONTEMPT

    def _root(self, state: State, order: list[int], depth: int) -> tuple[float, int]:
        """As the base search, but a move back to a position already seen since the last drop
        scores :data:`REPEAT_PENALTY` less: the search cannot see a threefold repetition coming
        (its horizon is shorter than a twisting cycle), and without this it drifts into one
        from positions it leads."""
        alpha, beta = -WIN - 1, WIN + 1
        best_move, best_value = order[0], -WIN - 1
        other = 1 - state.current_player()
        self._overtaker = None
        for action in order:
            child = state.clone()
            child.apply_action(action)
            if self.principal_variation and action != order[0]:
                value = self._scout(child, depth - 1, alpha, beta, 1, other)
            else:
                value = -self._search(child, depth - 1, -beta, -alpha, 1, other)
            if abs(value) < WIN - 1000 and _repeats(child):
                value -= REPEAT_PENALTY
            if value > best_value:
                best_value, best_move = value, action
                if action != order[0]:
                    self._overtaker = action
            alpha = max(alpha, value)
        return best_value, best_move

    def _unfinished_choice(self, best: int) -> int:
        """A move that the cut-short depth searched in full and found better than the last
        depth's best (searched first at that depth), else that best: the deeper search has
        already refuted it."""
        return best if self._overtaker is None else self._overtaker

    def analyse(self, state: State, seconds: float, top: int = 3) -> list[MoveAnalysis]:
        """The best ``top`` moves of ``state``, by the Cage MCTS-Solver (its values are expected
        scores in ``[0, 1]`` and its proofs exact, which the alpha-beta's scores are not)."""
        helper = CageSearchAgent(self.game, self.rng.randrange(2**31))
        return helper.analyse(state, seconds, top)

    def _static_value(self, state: State, me: int) -> float:
        """:data:`TO_MOVE_WINS` for a mover with a line in one drop, else the learned value
        (:func:`learned_value`) or, without weights, the threat evaluator's value
        (``100 * tanh(lead / 30)``, as :func:`threat_evaluator` scaled), both from one pass
        over the lines (the leaves are half the search's time)."""
        assert isinstance(state, CageState)
        if self._weight_vector is not None:
            value = learned_value(state, self._weight_vector)
            return value if state.player == me else -value
        scores, ready_owners = line_tally(state)
        mover = state.player
        if ready_owners >> mover & 1:
            return TO_MOVE_WINS if mover == me else -TO_MOVE_WINS
        add_twist_threats(scores, state)
        return 100.0 * math.tanh((scores[me] - scores[1 - me]) / THREAT_TEMPERATURE)


class CageThreatsAgent(CageAlphaBetaAgent):
    """The Cage alpha-beta with the threat search (:mod:`.cage_threats`) around it, in small
    bounded shares of the move: first it looks for a chain of threats of the mover's own
    (played at once when found); then, before each depth, the last depth's best move is checked
    for a chain of the opponent's after it, and a move that allows one is dropped from the
    search (at most :data:`MAX_DROPPED` a move, and never the last); a final choice not yet
    checked is checked, and replaced by the last best move found free of chains if it allows
    one. Not a level: as the arena agent ``cage-hard-threats`` (hard's budget) it did worse
    against OpenSpiel's MCTS at equal time than hard without it
    (docs/decisions/005-cage-two-player-alpha-beta.md)."""

    name = "cage-hard-threats"
    threat_moves = THREAT_MOVES
    """Length (own moves, the last completing the line) of the chains searched."""

    def __init__(self, game: Game, seed: int | None = None, **search: Any) -> None:
        """``search``: the Cage alpha-beta's ``node_budget``, ``time_limit`` and ``max_depth``."""
        super().__init__(game, seed, **search)
        self._threats = ThreatSearch()
        self._checked: set[int] = set()  # moves checked for the opponent's chains, this move
        self._dropped = 0
        self._check_left = CHECKS_SHARE
        self._last_safe: int | None = None  # the last best move found free of chains

    def step(self, state: State) -> int:
        """The mover's own chain if the threat search finds one, else the alpha-beta's move
        with the checks for the opponent's chains (see the class)."""
        assert isinstance(state, CageState)
        self._reset_checks()
        start = time.perf_counter()
        try:
            win = self._bounded(OWN_CHAIN_SHARE).winning_move(state, self.threat_moves)
        except ThreatSearchOut:
            win = None
        if win is not None:
            self.last_value = WIN
            return win
        best = self._alpha_beta(state, start)
        if (
            best not in self._checked
            and self._last_safe is not None
            and abs(self.last_value) < WIN - 1000
            and self._allows_chain(state, best)
        ):
            return self._last_safe
        return best

    def _root(self, state: State, order: list[int], depth: int) -> tuple[float, int]:
        """As the Cage alpha-beta's root, after dropping a last best move that allows the
        opponent a chain (:meth:`_vet`)."""
        if depth > 1:
            assert isinstance(state, CageState)
            self._vet(state, order)
        return super()._root(state, order, depth)

    def _reset_checks(self) -> None:
        """Forget the last move's checks for the opponent's chains."""
        self._checked.clear()
        self._dropped = 0
        self._check_left = CHECKS_SHARE
        self._last_safe = None

    def _alpha_beta(self, state: CageState, start: float) -> int:
        """The alpha-beta, on the clock until all but :data:`CHECK_SHARE` of the move from
        ``start`` is spent (that is kept for checking its choice)."""
        clock = self.time_limit
        if clock is not None:
            self.time_limit = start + clock * (1.0 - CHECK_SHARE) - time.perf_counter()
            self.time_limit = max(self.time_limit, 0.0)
        try:
            return super().step(state)
        finally:
            self.time_limit = clock

    def _bounded(self, share: float) -> ThreatSearch:
        """The agent's threat search (its table kept from move to move), bounded to ``share``
        of the move: of the clock from now, else of the node budget in positions."""
        threats = self._threats
        if threats.size() > THREAT_TABLE_LIMIT:
            threats = self._threats = ThreatSearch()
        threats.played = 0
        if self.time_limit is None:
            threats.deadline, threats.budget = None, int(self.node_budget * share * THREAT_NODES)
        else:
            threats.deadline = time.perf_counter() + self.time_limit * share
            threats.budget = None
        return threats

    def _allows_chain(self, state: CageState, action: int) -> bool:
        """Whether the opponent wins by a chain of threats after ``action`` (``False`` when the
        check's share of the move, :data:`CHECK_SHARE`, or what is left of
        :data:`CHECKS_SHARE`, ends first)."""
        after = state.clone()
        after.apply_action(action)
        share = min(CHECK_SHARE, self._check_left)
        if after.outcome is not None or share <= 0:
            return False
        self._checked.add(action)
        threats = self._bounded(share)
        started = time.perf_counter()
        try:
            return threats.wins(after, self.threat_moves)
        except ThreatSearchOut:
            return False
        finally:
            if self.time_limit is None:
                self._check_left -= threats.played / (self.node_budget * THREAT_NODES)
            else:
                self._check_left -= (time.perf_counter() - started) / self.time_limit

    def _vet(self, state: CageState, order: list[int]) -> None:
        """Drop from the front of ``order`` (the last depth's best first) a move after which
        the opponent wins by a chain of threats, while another move is left, at most
        :data:`MAX_DROPPED` in all this move (after that the position is taken as lost to
        chains anyway, and the alpha-beta's choice stands)."""
        while len(order) > 1 and self._dropped < MAX_DROPPED and order[0] not in self._checked:
            if not self._allows_chain(state, order[0]):
                self._last_safe = order[0]
                return
            order.pop(0)
            self._dropped += 1


class _SolverOut(Exception):
    """The root solver's time or node budget is spent."""


class _BudgetSolver(Solver):
    """The exact solver, stopped by a deadline or a node budget (checked every 64 nodes)."""

    def __init__(self, game: Game, deadline: float | None, nodes: int | None) -> None:
        super().__init__(game)
        self.deadline = deadline
        self.node_budget = nodes

    def force(self, state: State, remaining: int, mine: bool, target: float) -> bool:
        """As :meth:`Solver.force`, raising :class:`_SolverOut` when the budget is spent."""
        if self.nodes & 63 == 0:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _SolverOut
            if self.node_budget is not None and self.nodes >= self.node_budget:
                raise _SolverOut
        return super().force(state, remaining, mine, target)


__all__ = [
    "CageAlphaBetaAgent",
    "CageSearchAgent",
    "CageThreatsAgent",
    "decisive_moves",
    "drop_win",
    "threat_playout",
]
