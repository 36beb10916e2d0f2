"""Rules of the Rubik's Cage as in ``docs/games/cage.md``: the game and its states.

The state module of the package: it plays drops, twists and flips with the board transitions of
:mod:`.board` and the id tables of :mod:`.actions`, and decides lines, draws and the no-reverse
rule. Options come resolved from :mod:`.options`; text forms live in :mod:`.notation`,
:mod:`.position`, :mod:`.view` and :mod:`.render`, none of which imports this module at run time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gameshelf.core.errors import GameOver
from gameshelf.core.game import TERMINAL, Game, State, restore_state
from gameshelf.core.spec import GameSpec

from .actions import (
    DROP_ACTIONS,
    DROPS_BY_MASK,
    FLIP,
    INVERSE,
    NO_MOVE,
    NUM_ACTIONS,
    TURNS,
    TWIST_BASE,
    inverse_action,
    result_of,
)
from .board import Board, flipped, line_colours, open_mask, twisted
from .geometry import CELLS, COLOURS, LAYERS, LINES_THROUGH, RING
from .notation import action_to_text, text_to_action
from .options import OPTIONS, CageConfig, make_config
from .position import format_position, parse_position
from .render import render_state
from .view import make_view

RULES_VERSION = "cage-1"


class CageGame(Game):
    """A configured Rubik's Cage game."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.config: CageConfig = make_config(values)
        players = self.config.players
        two_player_zero_sum = players == 2 and self.config.simultaneous != "shared"
        self.spec = GameSpec(
            name="cage",
            title="Rubik's Cage",
            num_players=players,
            min_players=2,
            max_players=4,
            chance=False,
            hidden_information=False,
            simultaneous=False,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if two_player_zero_sum else None,
            max_game_length=self.config.max_plies,
            rules_version=RULES_VERSION,
            options=OPTIONS,
            params=dict(values),
        )
        self.owner = self.config.owner
        self.total_cubies = sum(self.config.stock)
        # The options the move loop reads, resolved once (the config is frozen).
        config = self.config
        self.players = players
        self.next_player: tuple[int, ...] = tuple((p + 1) % players for p in range(players))
        self.drops_of: tuple[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], ...] = tuple(
            tuple((colour, DROPS_BY_MASK[colour]) for colour in config.colours[p])
            for p in range(players)
        )
        self.reverse_off = config.no_reverse == "off"
        self.syntactic = config.no_reverse == "syntactic"
        self.semantic = config.no_reverse == "semantic"
        self.noop_twists = config.allow_noop_twists
        self.play_on = config.continue_after_last_drop
        self.max_plies = config.max_plies
        self.repetition_draw = config.repetition_draw

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by its option values (a compiled game has no ``__dict__`` to pickle)."""
        return CageGame, (self.spec.params,)

    def new_initial_state(self, seed: int | None = None) -> CageState:
        """The empty cage, player 0 to move (the seed is unused: the Cage has no chance)."""
        return CageState(self)

    def state_from_position(self, text: object) -> CageState:
        """Read a position string (``docs/games/cage.md``); the repetition count starts afresh."""
        state = parse_position(CageState(self), text)
        state.seen.clear()
        state._history.clear()
        state._count_position()
        return state


_STATE_FIELDS = (
    "_history",
    "board",
    "heights",
    "last",
    "left",
    "open",
    "outcome",
    "player",
    "ply",
    "prev_board",
    "seen",
)
"""Every field of a state but its game (what pickling carries)."""


class CageState(State):
    """A Cage position: board, cubies left, player to move, the last move and the result."""

    __slots__ = ("game", *_STATE_FIELDS)

    def __init__(self, game: CageGame, original: CageState | None = None) -> None:
        # A copy is built here too, not through ``__new__``: a compiled class has no
        # ``__dict__`` and is made only by its constructor.
        if original is not None:
            self._copy_from(original)
            return
        self.game: CageGame = game
        self.board: Board = [0] * CELLS
        self.heights: list[int] = [0] * RING
        self.open = (1 << RING) - 1
        self.left: list[int] = list(game.config.stock)
        self.player = 0
        self.last = NO_MOVE
        self.prev_board: Board | None = None
        self.ply = 0
        self.outcome: list[float] | None = None
        self.seen: dict[tuple[Any, ...], int] = {}
        self._history: list[int] = []
        self._count_position()

    # --- the protocol ---------------------------------------------------------------------
    def current_player(self) -> int:
        """The player to move, or ``TERMINAL``."""
        return TERMINAL if self.outcome is not None else self.player

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.outcome is not None

    def is_chance_node(self) -> bool:
        """Never: the Cage has no chance."""
        return False

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for the others; all 0 for a draw or a game in progress."""
        return list(self.outcome) if self.outcome is not None else [0.0] * self.game.config.players

    def history(self) -> list[int]:
        """Every action played since the start (or since the position this state was read from)."""
        return list(self._history)

    def _copy_from(self, original: CageState) -> None:
        self.game = original.game
        self.board = original.board[:]
        self.heights = original.heights[:]
        self.open = original.open
        self.left = original.left[:]
        self.player = original.player
        self.last = original.last
        self.prev_board = original.prev_board
        self.ply = original.ply
        self.outcome = original.outcome
        self.seen = dict(original.seen)
        self._history = original._history[:]

    def clone(self) -> CageState:
        """An independent copy."""
        return CageState(self.game, self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle field by field (a compiled state has no ``__dict__`` for pickle to take)."""
        fields = {name: getattr(self, name) for name in _STATE_FIELDS}
        return restore_state, (CageState, self.game, fields)

    def action_to_string(self, action: object) -> str:
        """Notation of ``action`` (:class:`InvalidMove` for anything but a Cage action id)."""
        return action_to_text(action)

    def parse_action(self, text: object) -> int:
        """Action id of notation ``text`` (legality not checked)."""
        return text_to_action(text)

    def position(self) -> str:
        """The position string (see ``docs/games/cage.md``)."""
        return format_position(self)

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything (the Cage has no hidden information), structured for tables and clients.

        ``columns[r]`` lists colour letters bottom to top; ``winning_cells`` are ``[r, z]`` pairs
        (see :func:`.view.make_view`).
        """
        return make_view(self)

    def render(self, color: bool = False) -> str:
        """The cage as a net of its six faces, plus whose turn it is and the cubies left."""
        return render_state(self, color=color)

    # --- move generation ------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Drops of the mover's colours into non-full columns, then twists, then the flip."""
        if self.outcome is not None:
            return []
        game = self.game
        left = self.left
        mask = self.open
        actions: list[int] = []
        for colour, drops in game.drops_of[self.player]:
            if left[colour]:
                actions += drops[mask]
        if game.noop_twists:
            actions += TURNS
        else:
            board = self.board
            actions += [a for a in TURNS[:-1] if twisted(board, a - TWIST_BASE)[0] != board]
            actions.append(FLIP)
        last = self.last
        if last < TWIST_BASE or game.reverse_off:
            return actions
        if game.syntactic and game.noop_twists:
            # Every turn is listed, in id order at the end: the inverse sits at a known place,
            # and never alone (the six twists and the flip are all there).
            del actions[INVERSE[last] - FLIP - 1]
            return actions
        forbidden = self.forbidden_moves(actions)
        remaining = [a for a in actions if a not in forbidden]
        # The rulebook promises a move; only an exotic option mix could remove them all.
        return remaining or actions

    def forbidden_moves(self, candidates: list[int]) -> set[int]:
        """Moves the no-reverse rule takes away from ``candidates``."""
        mode = self.game.config.no_reverse
        if mode == "off" or self.last < TWIST_BASE:
            return set()
        if mode == "syntactic":
            return {inverse_action(self.last)}
        before = self.prev_board
        return {
            a
            for a in candidates
            if a >= TWIST_BASE and result_of(self.board, self.heights, a) == before
        }

    # --- applying moves -------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply a legal action id (unchecked)."""
        mover = self.player
        game = self.game
        if game.semantic:
            self.prev_board = self.board[:] if action >= TWIST_BASE else None
        self.last = action
        self.ply += 1
        self.player = game.next_player[mover]
        self._history.append(action)
        if action < DROP_ACTIONS:
            colour, column = divmod(action, RING)
            heights = self.heights
            height = heights[column]
            cell = RING * height + column
            board = self.board
            value = colour + 1
            board[cell] = value
            heights[column] = height + 1
            if height == LAYERS - 1:
                self.open &= ~(1 << column)
            left = self.left
            left[colour] -= 1
            # What _decide does after a drop, inlined: only lines through the new cubie can
            # appear; a drop is irreversible, so earlier positions never come back.
            for a, b in LINES_THROUGH[cell]:
                if board[a] == value and board[b] == value:
                    self.outcome = self.line_outcome(mover, {game.owner[colour]})
                    return
            self.seen.clear()
            if (not game.play_on and not any(left)) or self.ply >= game.max_plies:
                self.outcome = self._draw()
            elif game.reverse_off and self._count_position() >= game.repetition_draw > 0:
                # (with a no-reverse rule a position right after a drop cannot recur)
                self.outcome = self._draw()
            return
        if action == FLIP:
            self.board, self.heights = flipped(self.board, self.heights)
        else:
            self.board, self.heights = twisted(self.board, action - TWIST_BASE)
        self.open = open_mask(self.heights)
        self._decide(mover, action, line_colours(self.board))

    def random_rollout(self, rng: random.Random, max_plies: int) -> int:
        """Play uniformly random moves in place for at most ``max_plies`` plies; return the plies.

        The optional fast-rollout method of the game protocol (see :mod:`gameshelf.core.game`):
        each move is ``rng.choice(self.legal_actions())``, exactly as in the generic loop (the
        Cage has no chance), so a seed gives the very same game; only the loop's per-ply
        detours (chance checks, the policy call) are gone.
        """
        plies = 0
        choice = rng.choice
        legal = self.legal_actions
        apply = self.apply_action
        while plies < max_plies and self.outcome is None:
            apply(choice(legal()))
            plies += 1
        return plies

    def _decide(self, mover: int, action: int, colours: set[int]) -> None:
        """Set the outcome after a move: lines first, then the drawing rules."""
        game = self.game
        if colours:
            self.outcome = self.line_outcome(mover, {game.owner[c] for c in colours})
            return
        if action < DROP_ACTIONS:
            self.seen.clear()  # a drop is irreversible: earlier positions never come back
            if not game.play_on and not any(self.left):
                self.outcome = self._draw()
                return
        if self.ply >= game.max_plies:
            self.outcome = self._draw()
            return
        if self._count_position() >= game.repetition_draw > 0:
            self.outcome = self._draw()

    def line_outcome(self, mover: int, owners: set[int]) -> list[float]:
        """The result when ``mover``'s move leaves lines of the colours of ``owners``."""
        rule = self.game.config.simultaneous
        if len(owners) == 1:
            return self._win(owners)
        if rule == "shared":
            return self._win(owners)
        if rule == "mover_priority" and mover in owners:
            return self._win({mover})
        return self._draw()

    def _win(self, winners: set[int]) -> list[float]:
        return [1.0 if p in winners else -1.0 for p in range(self.game.config.players)]

    def _draw(self) -> list[float]:
        return [0.0] * self.game.config.players

    def position_key(self) -> tuple[Any, ...]:
        """The position exactly as the repetition rule counts it: board, player to move and
        what the no-reverse rule forbids next. Equal keys are the same position for the rules
        (searches keep them in their tables)."""
        mode = self.game.config.no_reverse
        if mode == "syntactic":
            forbid: Any = inverse_action(self.last) if self.last >= 0 else NO_MOVE
        elif mode == "semantic":
            forbid = tuple(self.prev_board) if self.prev_board is not None else None
        else:
            forbid = None
        return (tuple(self.board), self.player, forbid)

    def horizon_key(self, plies: int) -> tuple[Any, ...]:
        """Everything that decides this position's future within the next ``plies`` plies: the
        position key, the last move (it decides whether anything is forbidden), the ply count
        once the ply cap is within reach, and the repetition counts that could still reach the
        draw limit. An exact solver may treat states with equal keys as one."""
        game = self.game
        ply = self.ply if self.ply + plies >= game.max_plies else -1
        seen = _relevant_repetitions(self.seen, game.repetition_draw, plies)
        return (self.position_key(), self.last, ply, seen)

    def _count_position(self) -> int:
        game = self.game
        if game.repetition_draw == 0:
            return 0
        if self.last < TWIST_BASE and not game.reverse_off:
            # Right after a drop (or at the start) nothing is forbidden, a state that any later
            # twist or flip replaces by one with a forbidden move: this position cannot recur.
            return 1
        if game.syntactic:  # position_key(), the common case spelled out
            last = self.last
            key: tuple[Any, ...] = (tuple(self.board), self.player, INVERSE[last])
        else:
            key = self.position_key()
        count = self.seen.get(key, 0) + 1
        self.seen[key] = count
        return count

    # --- explanations ---------------------------------------------------------------------
    def explain_illegal(self, action: int, text: str) -> str:
        """A precise reason why ``action`` cannot be played here."""
        if self.outcome is not None:
            raise GameOver(f"the game is over; {text!r} cannot be played")
        config = self.game.config
        name = action_to_text(action)
        if action < DROP_ACTIONS:
            colour, column = divmod(action, RING)
            who = self.describe_player(self.player)
            if colour not in config.colours[self.player]:
                mine = " ".join(COLOURS[c] for c in config.colours[self.player])
                return f"{name}: {COLOURS[colour]} is not a colour of {who} ({mine})"
            if not self.left[colour]:
                return f"{name}: {who} has no {COLOURS[colour]} cubies left"
            if self.heights[column] >= LAYERS:
                return f"{name}: column {column} is full"
        if action >= TWIST_BASE:
            if not config.allow_noop_twists and action != FLIP:
                return f"{name}: this twist changes nothing, and this table forbids such twists"
            # Plain words for people; the option's name and value stay in the game string.
            return (
                f"{name}: it would directly reverse the previous move "
                f"{action_to_text(self.last)}, and a move may not be undone at once"
            )
        return f"{name} is not legal here"


def make_game(values: Mapping[str, Any]) -> CageGame:
    """Registry factory."""
    return CageGame(values)


def _relevant_repetitions(
    seen: dict[tuple[Any, ...], int], limit: int, plies: int
) -> frozenset[tuple[tuple[Any, ...], int]]:
    """The repetition counts that could still reach ``limit`` within ``plies`` plies.

    A position recurs at most once every two plies (the same player must be to move), so a
    count ``c`` matters only if ``c + plies // 2 >= limit``.
    """
    if limit == 0:
        return frozenset()
    threshold = limit - plies // 2
    return frozenset((k, c) for k, c in seen.items() if c >= threshold)
