"""The Axiom game and state: turns, the one way a move is applied, and the end of the game.

A state holds one :class:`~.board.Board` (the only representation of the position), the side
to move, the ply count, the result once there is one, and how often each position occurred
(keyed by :func:`~.board.repetition_key`). Legal moves come from the game's
:class:`~.generator.MoveGenerator`, refusals are worded by :mod:`.explain`, text forms by
:mod:`.position` and :mod:`.notation`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from gameshelf.core import (
    TERMINAL,
    Game,
    GameSpec,
    IllegalMove,
    InvalidOption,
    InvalidPosition,
    State,
)
from gameshelf.core import Move as MoveObject

from .actions import (
    CUBE,
    NUM_ACTIONS,
    SCEPTRE,
    Move,
    anchor_code,
    decode,
    encode,
)
from .board import (
    HALF,
    Board,
    key_digest,
    landing,
    move_cube,
    move_sceptre,
    pack,
    repetition_key,
    restore_cube,
    unpack,
)
from .explain import FORCED_ONLY, placement_problem, sceptre_problem
from .generator import MoveGenerator
from .geometry import BLACK, COLOR_NAMES, WHITE, Cell, Cubes, Sceptre, format_cell, is_valid_mask
from .notation import (
    ParsedMove,
    dirs_to_mask,
    format_cube_move,
    format_listing,
    format_sceptre_move,
    parse_move,
)
from .options import AxiomOptions
from .position import (
    build_board,
    check_result,
    check_seen,
    format_result,
    parse_headers,
    parse_listing,
    parse_setup,
)
from .render import render_text
from .view import build_view

Outcome = tuple[int, str]


class AxiomGame(Game):
    """Axiom with its options fixed (built by the registry from a game string)."""

    def __init__(self, values: Mapping[str, Any], specs: tuple[Any, ...] = ()) -> None:
        self.options = AxiomOptions.from_values(values)
        self.generator = MoveGenerator(self.options)
        """This game's legal-move generator (it keeps what it learns about target cells)."""
        self.setup_text = self.options.setup
        try:
            cubes, sceptres = parse_setup(self.setup_text)
            self.setup = build_board(self.options, cubes, sceptres, finished=False)
        except (ValueError, InvalidPosition) as exc:
            raise InvalidOption(
                f"option setup={self.setup_text!r} is not a valid start: {exc}"
            ) from None
        self.spec = GameSpec(
            name="axiom",
            title="Axiom",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=False,
            hidden_information=False,
            simultaneous=False,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.options.max_plies,
            rules_version="axiom-2008-1",
            options=specs,
            params=dict(values),
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by its option values (a compiled game has no ``__dict__`` to pickle)."""
        return AxiomGame, (self.spec.params, self.spec.options)

    def new_initial_state(self, seed: int | None = None) -> AxiomState:
        """The agreed start (``setup``), Black to move."""
        return AxiomState(self, self.setup.copy(), BLACK)

    def state_from_position(self, text: object) -> AxiomState:
        """Read :meth:`AxiomState.position` text, or a bare listing (then Black to move).

        The ``ply`` and ``result`` headers must be what the engine itself would have written
        for the listed board (see :func:`.position.check_result`): ``ply`` at most
        ``max_plies``, and the result the one its last move gave, else ``-``.
        """
        headers = parse_headers(text)
        cubes, sceptres = parse_listing(headers.listing)
        board = build_board(self.options, cubes, sceptres, finished=True)
        digest = key_digest(repetition_key(board, headers.to_move))
        count = 1 if headers.seen is None else headers.seen.get(digest, 0)
        check_result(self.options, board, headers.to_move, headers.ply, headers.outcome, count)
        if headers.seen is not None:
            check_seen(self.options, headers.seen, digest, headers.ply)
        state = AxiomState(self, board, headers.to_move, outcome=headers.outcome)
        state.ply = headers.ply
        if headers.seen is not None:
            state.seen = headers.seen
        return state

    def from_listing(self, text: str, to_move: int, outcome: Outcome | None = None) -> AxiomState:
        """A state from a play-by-email listing; :class:`InvalidPosition` names the bad line."""
        cubes, sceptres = parse_listing(text)
        board = build_board(self.options, cubes, sceptres, finished=outcome is not None)
        return AxiomState(self, board, to_move, outcome=outcome)


class AxiomActionInfo(NamedTuple):
    """What one action id does, read in the position it belongs to (see
    :meth:`AxiomState.action_info`)."""

    kind: str
    """``"sceptre"`` or ``"cube"``."""
    source: Cell
    """The cube the sceptre leaves, or the cell the cube is lifted from."""
    target: Cell
    """The cube the sceptre goes to, or the cell the cube is placed in."""
    captures: bool
    """A sceptre move that ends on a cube holding an opposing sceptre: it wins."""
    self_capture: bool
    """A sceptre move that ends on a cube holding the mover's other sceptre: it loses."""


@lru_cache(maxsize=1 << 16)
def _parse_move_cached(text: str) -> ParsedMove:
    return parse_move(text)


def _in_range(cell: Cell) -> bool:
    """Whether a cell named in a move can be packed (far cells cannot hold anything)."""
    x, y, z = cell
    return -HALF // 2 < x < HALF // 2 and -HALF // 2 < y < HALF // 2 and 0 <= z < 31


class AxiomState(State):
    """An Axiom position: cubes, sceptres, side to move, ply count and repetition counts.

    Public fields (read-only for callers; change the state only through actions):

    * ``to_move`` — 0 (Black) or 1 (White), the side whose turn it is (also after the end);
    * ``ply`` — plies played since the start (or as loaded);
    * ``cubes`` — cell ``(x, y, z)`` → cube code ``colour << 6 | dome mask`` (a fresh dict);
    * ``sceptres`` — list of ``(owner, cell of its cube, face direction)`` (a fresh list).

    :meth:`moves_of` and :meth:`action_info` let a bot look at either side's moves.
    """

    game: AxiomGame

    def __init__(
        self,
        game: AxiomGame,
        board: Board,
        to_move: int,
        outcome: Outcome | None = None,
        seen: dict[bytes, int] | None = None,
    ) -> None:
        self.game = game
        self.board = board
        self.to_move = to_move
        self.ply = 0
        self.outcome = outcome
        self._history: list[int] = []
        self._legal: list[int] | None = None
        # repetition counts by key and, for a loaded position, by digest; both shared with
        # clones until one side moves (copy on write)
        self._seen: dict[bytes, int] = {repetition_key(board, to_move): 1} if seen is None else seen
        self._seen_hex: dict[str, int] = {}
        # what undo() needs of each move applied to this state (shared with clones like the
        # history): the move, the sceptres before it (None: a cube move), the cube it lifted or
        # eliminated, the result before it and the repetition key it counted (None: none)
        self._undo: list[
            tuple[Move, list[tuple[int, int, int]] | None, int, Outcome | None, bytes | None]
        ]
        self._undo = []
        self._owned = True
        self._cubes: Cubes | None = None
        self._sceptres: list[Sceptre] | None = None

    # --- the position -----------------------------------------------------------------------
    @property
    def cubes(self) -> Cubes:
        """The cubes by ``(x, y, z)`` cell, read from the board once per position (read-only:
        changing the dict changes nothing but what later reads of it see)."""
        cubes = self._cubes
        if cubes is None:
            cubes = self._cubes = self.board.cube_cells()
        return cubes

    @property
    def sceptres(self) -> list[Sceptre]:
        """The sceptres as ``(owner, cell, face)``, once per position (read-only)."""
        sceptres = self._sceptres
        if sceptres is None:
            sceptres = self._sceptres = self.board.sceptre_cells()
        return sceptres

    def position_key(self) -> bytes:
        """The position up to translation in x and y, with the side to move, exactly as the
        repetition rule counts it: equal keys are the same position for the rules (compact
        bytes; searches keep them, or their hash, in their tables)."""
        return repetition_key(self.board, self.to_move)

    @property
    def seen(self) -> dict[str, int]:
        """How often each position (its 16-hex-digit digest) has occurred."""
        counts = dict(self._seen_hex)
        for key, count in self._seen.items():
            digest = key_digest(key)
            counts[digest] = counts.get(digest, 0) + count
        return counts

    @seen.setter
    def seen(self, counts: dict[str, int]) -> None:
        self._seen_hex = dict(counts)
        self._seen = {}
        self._owned = False  # the old key dict may be shared; the next move copies

    # --- moves ------------------------------------------------------------------------------
    def _legal_ids(self) -> list[int]:
        legal = self._legal
        if legal is None:
            if self.outcome is not None:
                legal = []
            else:
                legal = self.game.generator.legal_ids(self.board, self.to_move)
            self._legal = legal
        return legal

    def moves_of(self, player: int) -> list[int]:
        """The action ids ``player`` (0 or 1) would have if it were ``player``'s turn here,
        ascending; for the player to move this equals :meth:`legal_actions`.

        The ids decode in this position (:meth:`action_info`, :meth:`action_to_string` of the
        cells they name). A finished game has no moves for either side.
        """
        if player not in (BLACK, WHITE):
            raise ValueError(f"player {player!r} must be 0 (black) or 1 (white)")
        if player == self.to_move:
            return list(self._legal_ids())
        if self.outcome is not None:
            return []
        return self.game.generator.legal_ids(self.board, player)

    def action_info(self, action: int) -> AxiomActionInfo:
        """What ``action`` (an id of :meth:`legal_actions` or :meth:`moves_of`) does here.

        The mover is the owner of the piece it moves; ``IllegalMove`` when the id names no
        move of a piece in this position.
        """
        move = decode(self.board, action) if isinstance(action, int) else None
        if move is None:
            raise IllegalMove(f"action {action!r} names no move in this position")
        kind, source, target, _ = move
        if kind == CUBE:
            return AxiomActionInfo("cube", unpack(source), unpack(target), False, False)
        board = self.board
        index = next((i for i, (_, c, _) in enumerate(board.sceptres) if c == source), -1)
        if index < 0:
            where = format_cell(unpack(source))
            raise IllegalMove(f"action {action}: no sceptre stands on {where}")
        outcome = landing(board, index, target)
        reason = None if outcome is None else outcome[1]
        return AxiomActionInfo(
            "sceptre",
            unpack(source),
            unpack(target),
            reason == "capture",
            reason == "self-capture",
        )

    def _apply(self, move: Move) -> None:
        """Apply a decoded move: the one way the position changes."""
        kind, source, target, extra = move
        mover = self.to_move
        board = self.board
        before = self.outcome
        opts = self.game.options
        if kind == SCEPTRE:
            sceptres: list[tuple[int, int, int]] | None = list(board.sceptres)
            value = board.cubes[source]
            self.outcome = move_sceptre(opts, board, mover, source, target, extra)
            if source in board.cubes:
                value = 0  # not eliminated
        else:
            sceptres = None  # a cube move leaves the sceptres where they are
            value = board.cubes[source]
            move_cube(board, source, target, extra)
        self.to_move = mover = 1 - mover
        self.ply += 1
        self._legal = None
        self._cubes = self._sceptres = None
        key = None
        if self.outcome is None:
            key = repetition_key(board, mover)
            seen = self._seen
            seen[key] = count = seen.get(key, 0) + 1
            if self._seen_hex:
                count += self._seen_hex.get(key_digest(key), 0)
            if opts.repetition_draw and count >= opts.repetition_draw:
                self.outcome = (-1, "repetition")
            elif self.ply >= opts.max_plies:
                self.outcome = (-1, "ply-cap")
        self._undo.append((move, sceptres, value, before, key))

    def undo(self) -> None:
        """Take back the last action applied to this state (or to the state it was cloned
        from), exactly: board, side to move, ply, result and repetition counts.

        ``IllegalMove`` (state unchanged) when no move was applied since the start or since
        the position was loaded.
        """
        if not self._undo:
            raise IllegalMove("there is no move to take back: none was played from here")
        self._own()
        move, sceptres, value, before, key = self._undo.pop()
        if key is not None:
            count = self._seen.get(key, 0) - 1
            if count > 0:
                self._seen[key] = count
            else:
                self._seen.pop(key, None)
        kind, source, target, _ = move
        board = self.board
        if kind == SCEPTRE:
            if value:
                restore_cube(board, source, value)
        else:
            move_cube(board, target, source, value & 63)
        if sceptres is not None:
            board.place_sceptres(0, sceptres)
        self.outcome = before
        self.to_move = 1 - self.to_move
        self.ply -= 1
        self._legal = None
        self._cubes = self._sceptres = None
        self._history.pop()

    def _own(self) -> None:
        """Copy what this state shares with its clones before changing it."""
        if not self._owned:
            self._seen = dict(self._seen)
            self._history = list(self._history)
            self._undo = list(self._undo)
            self._owned = True

    def apply_action(self, action: int) -> None:
        """Apply a legal action id (unchecked beyond naming a move)."""
        move = decode(self.board, action)
        if move is None:
            raise IllegalMove(f"action {action} is not a move here")
        self._own()
        self._apply(move)
        self._history.append(action)

    def random_rollout(self, rng: random.Random, max_plies: int) -> int:
        """Play uniformly random legal moves in place for at most ``max_plies`` plies or until
        the game ends; return the plies played (the contract of :meth:`State.random_rollout`:
        one ``randrange(len(legal))`` a ply, as ``rng.choice`` draws)."""
        plies = 0
        randrange = rng.randrange
        while plies < max_plies:
            legal = self._legal_ids()
            if not legal:
                break
            self.apply_action(legal[randrange(len(legal))])
            plies += 1
        return plies

    def clone(self) -> AxiomState:
        """An independent copy (the board copied; counts and history copied on write)."""
        # through __init__, not __new__: the accelerator compiles this class too (a compiled
        # class has no __dict__ and builds only through its constructor)
        copy = AxiomState(self.game, self.board.copy(), self.to_move, self.outcome, self._seen)
        copy.ply = self.ply
        copy._seen_hex = self._seen_hex
        copy._history = self._history
        copy._undo = self._undo
        copy._cubes = self._cubes
        copy._sceptres = self._sceptres
        copy._owned = self._owned = False
        copy._legal = self._legal
        return copy

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle field by field (a compiled state has no ``__dict__`` for pickle to take)."""
        fields = (self.ply, self._history, self._seen_hex, self._undo, self._legal)
        return _unpickle, (self.game, self.board, self.to_move, self.outcome, self._seen, fields)

    def history(self) -> list[int]:
        """Action ids applied since this state's game began (or since it was loaded)."""
        return list(self._history)

    # --- protocol primitives ----------------------------------------------------------------
    def current_player(self) -> int:
        """0 (Black) or 1 (White), or ``TERMINAL``."""
        return TERMINAL if self.is_terminal() else self.to_move

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        return list(self._legal_ids())

    def is_terminal(self) -> bool:
        """Over by capture, self-capture, repetition, ply cap, or no legal move."""
        return self.outcome is not None or not self._legal_ids()

    def returns(self) -> list[float]:
        """+1 / -1 for the winner / loser, 0 each for a draw or an unfinished game."""
        winner = self.winner()
        if winner is None or winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == BLACK else [-1.0, 1.0]

    def winner(self) -> int | None:
        """``None`` while the game runs, ``-1`` for a draw, else the winning colour."""
        if self.outcome is not None:
            return self.outcome[0]
        if self._legal_ids():
            return None
        return -1 if self.game.options.no_move_result == "draw" else 1 - self.to_move

    def end_reason(self) -> str | None:
        """Why the game ended (one of ``RESULT_REASONS``), or ``None``."""
        if self.outcome is not None:
            return self.outcome[1]
        return None if self._legal_ids() else "no-move"

    # --- notation ---------------------------------------------------------------------------
    def move_text(self, move: Move) -> str:
        """Notation of a decoded move."""
        kind, source, target, extra = move
        if kind == SCEPTRE:
            return format_sceptre_move(unpack(source), unpack(target), extra)
        return format_cube_move(unpack(source), unpack(target), extra)

    def action_to_string(self, action: object) -> str:
        """``S(..) S(..)f`` or ``C(..) C(..)d1 d2`` of a legal move of either side here (the
        ids of :meth:`legal_actions` and :meth:`moves_of`).

        :class:`IllegalMove` for any other id: a bool, a negative or out-of-range id, or one
        that decodes to cells but is no legal move (ids are state-relative, and a
        non-canonical cube-move id would print the text of another, legal move).
        """
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMove(f"action {action!r} is not an action id (an int)")
        if action not in self._legal_ids() and action not in self.moves_of(1 - self.to_move):
            raise IllegalMove(f"action {action} is no legal move in this position")
        move = decode(self.board, action)
        assert move is not None  # a legal id of either side decodes
        return self.move_text(move)

    def legal_moves(self) -> list[MoveObject]:
        """The legal moves with their notation (without checking each id again)."""
        board = self.board
        moves = []
        for action in self._legal_ids():
            move = decode(board, action)
            assert move is not None
            moves.append(MoveObject(action, self.move_text(move)))
        return moves

    def parse_action(self, text: object) -> int:
        """The action id of ``text``; :class:`InvalidMove` when it is not Axiom notation."""
        parsed = _parse_move_cached(text) if isinstance(text, str) else parse_move(text)
        board = self.board
        cells = (parsed.source, parsed.target) if parsed.piece == "S" else (parsed.source,)
        for cell in cells:
            if not _in_range(cell) or pack(cell) not in board.cubes:
                raise IllegalMove(f"move {text!r}: there is no cube at {format_cell(cell)}")
        source = pack(parsed.source)
        if parsed.piece == "S":
            return encode(board, (SCEPTRE, source, pack(parsed.target), parsed.dirs[0]))
        mask = dirs_to_mask(list(parsed.dirs))
        if not is_valid_mask(mask):
            raise IllegalMove(f"move {text!r}: no cube has domes on opposite faces")
        if parsed.target == parsed.source:
            raise IllegalMove(f"move {text!r}: a cube cannot be re-orientated in the same place")
        if not _in_range(parsed.target) or parsed.target[2] < 1:
            where = format_cell(parsed.target)
            reason = f"{where} is {'below the table' if parsed.target[2] < 1 else 'out of reach'}"
            raise IllegalMove(f"move {text!r} is illegal: {reason}")
        target = pack(parsed.target)
        if anchor_code(board, source, target) < 0:
            reason = placement_problem(self.game.options, board, self.to_move, source, target, mask)
            raise IllegalMove(f"move {text!r} is illegal: {reason}")
        return encode(board, (CUBE, source, target, mask))

    def explain_illegal(self, action: int, text: str) -> str:
        """A precise reason why ``action`` is not legal here."""
        board = self.board
        move = decode(board, action)
        if move is None:
            return f"move {text!r} names no move in this position"
        text = self.move_text(move)
        kind, source, target, extra = move
        if kind == SCEPTRE or anchor_code(board, source, target) >= 0:
            canonical = encode(board, move)
            if canonical != action and canonical in self._legal_ids():
                return f"action {action} is not the id of {text!r} here; its id is {canonical}"
        opts = self.game.options
        if kind == CUBE:
            reason = placement_problem(opts, board, self.to_move, source, target, extra)
            return f"move {text!r} is illegal: {reason or FORCED_ONLY}"
        reason = sceptre_problem(opts, board, self.to_move, source, target, extra)
        return f"move {text!r} is illegal: {reason}"

    # --- text forms -------------------------------------------------------------------------
    def position(self) -> str:
        """Headers (side to move, ply, result, repetition counts) and the listing."""
        seen = " ".join(f"{k}:{v}" for k, v in sorted(self.seen.items()))
        lines = [
            f"to-move: {COLOR_NAMES[self.to_move]}",
            f"ply: {self.ply}",
            f"result: {format_result(self.outcome)}",
            f"seen: {seen}",
            *format_listing(self.cubes, self.sceptres),
        ]
        return "\n".join(lines) + "\n"

    def listing(self) -> str:
        """Only the play-by-email listing (no headers)."""
        return "\n".join(format_listing(self.cubes, self.sceptres)) + "\n"

    def describe_player(self, player: int) -> str:
        """``black`` / ``white`` for 0 / 1."""
        if player in (BLACK, WHITE):
            return COLOR_NAMES[player]
        return super().describe_player(player)

    def result_text(self) -> str:
        """E.g. ``black wins (capture)`` or ``draw (repetition)``."""
        if not self.is_terminal():
            return f"in progress, {COLOR_NAMES[self.to_move]} to move"
        winner = self.winner()
        who = "draw" if winner is None or winner < 0 else f"{COLOR_NAMES[winner]} wins"
        return f"{who} ({self.end_reason()})"

    def view(self, player: int | None) -> dict[str, Any]:
        """Cubes, sceptres, side to move, ply and result as JSON-able data (see :mod:`.view`);
        the same for every player (no hidden information)."""
        return build_view(self, player)

    def render(self, color: bool = False) -> str:
        """Layer-by-layer terminal picture."""
        return render_text(self, color=color)


def _unpickle(
    game: AxiomGame,
    board: Board,
    to_move: int,
    outcome: Outcome | None,
    seen: dict[bytes, int],
    fields: tuple[Any, ...],
) -> AxiomState:
    """The state :meth:`AxiomState.__reduce__` pickled (its lists possibly shared with another
    state, as after ``copy.copy``: it copies them before its first change)."""
    state = AxiomState(game, board, to_move, outcome, seen)
    state.ply, state._history, state._seen_hex, state._undo, state._legal = fields
    state._owned = False
    return state
