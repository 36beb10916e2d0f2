"""The game protocol every gameshelf game implements.

A :class:`Game` is a configured game (its options fixed). A :class:`State` is a mutable position
with a fast, unchecked path (``legal_actions`` / ``apply_action`` on integer ids) for search,
and a checked path (``play("T1+")``) for people and the network. Player ids are ``0..n-1``;
the special ids below follow OpenSpiel's convention so the adapters can pass them through.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .errors import GameOver, IllegalMove, InvalidMove, InvalidPosition, NotYourTurn
from .spec import GameSpec

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4


@dataclass(frozen=True)
class Move:
    """A legal move: its integer action id and its notation (``str(move)``)."""

    action: int
    text: str

    def __str__(self) -> str:
        return self.text


class State(ABC):
    """A game position. Subclasses implement the abstract primitives; the rest is shared.

    Two shared methods have a generic default that a game may override where it can do
    better: :meth:`random_rollout` (a fast playout for search) and :meth:`undo` (take back the
    last action).
    """

    game: Game

    # --- primitives every game implements -------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to move, or ``CHANCE``, ``SIMULTANEOUS`` or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending; empty exactly when the state is terminal."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply a legal action id without checking it (the fast path for search)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Utility per player: final at a terminal state, all zeros before."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy: changing one never changes the other."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Notation of ``action`` in this state."""

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """The action id written as ``text``; :class:`InvalidMove` if it is not notation.

        Parsing does not check legality: ``play`` does.
        """

    @abstractmethod
    def position(self) -> str:
        """A text form of the full state that ``game.state_from_position`` reads back."""

    @abstractmethod
    def history(self) -> list[int]:
        """Every action applied since the initial state (chance outcomes included)."""

    # --- shared behaviour -----------------------------------------------------------------
    def is_chance_node(self) -> bool:
        """Whether the next action is a chance outcome."""
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability)]`` at a chance node; empty elsewhere."""
        return []

    def legal_moves(self) -> list[Move]:
        """The legal moves as objects whose ``str()`` is their notation."""
        return [Move(action, self.action_to_string(action)) for action in self.legal_actions()]

    def legal_move_details(self) -> list[dict[str, Any]]:
        """Each legal move as a small JSON-able structure beside its notation, for a table that
        chooses a move by its parts (a piece, a cell, a colour) and sends back the notation.

        Every entry has ``"move"``, the notation; this default gives nothing else, so a game
        that describes its moves' parts overrides it (or names a describer in its registry
        entry) and a game that does not still lists its moves.
        """
        return [{"move": move.text} for move in self.legal_moves()]

    def move_to_action(self, move: str | Move | int) -> int:
        """Turn notation, a :class:`Move` or an id into a legal action id (checked)."""
        if self.is_terminal():
            raise GameOver(f"the game is over; move {str(move)!r} cannot be played")
        if isinstance(move, Move):
            action = move.action
        elif isinstance(move, bool) or not isinstance(move, (int, str)):
            raise InvalidMove(f"a move must be notation text, not {type(move).__name__}")
        elif isinstance(move, int):
            action = move
        else:
            action = self.parse_action(move)
        if action not in self.legal_actions():
            raise IllegalMove(self.explain_illegal(action, str(move)))
        return action

    def explain_illegal(self, action: int, text: str) -> str:
        """Why ``action`` is not legal here; games override this with precise reasons."""
        return f"move {text!r} is not legal here"

    def play(self, move: str | Move | int, player: int | None = None) -> Move:
        """Checked entry point: validate ``move`` (and the mover, if given), then apply it.

        On any error the state is unchanged. Returns the move played.
        """
        if player is not None and not self.is_terminal() and player != self.current_player():
            turn = self.describe_player(self.current_player())
            who = self.describe_player(player)
            raise NotYourTurn(f"{who} cannot move: it is {turn}'s turn")
        action = self.move_to_action(move)
        played = Move(action, self.action_to_string(action))
        self.apply_action(action)
        return played

    def render(self, color: bool = False) -> str:
        """A terminal picture of the state (ANSI colours when ``color``); games override it."""
        return self.position()

    def __str__(self) -> str:
        return self.render(color=False)

    def random_rollout(self, rng: random.Random, max_plies: int) -> int:
        """Play uniformly random moves in place for at most ``max_plies`` plies or to the end.

        Chance outcomes are drawn with their probabilities (:meth:`sample_chance`), each
        decision is ``rng.choice(legal_actions())``; returns the number of plies played.
        Search (``MCTSAgent``) calls it for its rollouts. Games override it with a faster
        loop under one contract: reach the same positions drawing ``rng`` exactly like this
        default, so one seed gives the same game both ways (checked seed by seed by
        :func:`gameshelf.core.conformance.check_random_rollout`). An override may skip what a
        scratch copy does not need (notation, view data, undo records), never a rule.

        >>> import gameshelf, random
        >>> state = gameshelf.load("cage").new_initial_state()
        >>> state.random_rollout(random.Random(1), 4), len(state.history())
        (4, 4)
        """
        plies = 0
        while plies < max_plies and not self.is_terminal():
            if self.is_chance_node():
                action = self.sample_chance(rng)
            else:
                action = rng.choice(self.legal_actions())
            self.apply_action(action)
            plies += 1
        return plies

    def undo(self) -> None:
        """Take back the last action (a chance outcome counts as one), in place.

        The generic default rebuilds the state: it replays ``history()`` less its last action
        from ``game.new_initial_state()`` (:meth:`Game.replay`), checks that the last action
        played there gives back this very position, and only then takes the rebuilt state's
        fields. It therefore costs a replay from the start, and refuses (state unchanged)
        where it cannot be right: an empty history, or a state whose history does not start
        at the game's seedless start (read from a position string mid-game, or a game whose
        start depends on the seed). Games override it where taking a move back is cheap.

        >>> import gameshelf
        >>> state = gameshelf.load("cage").new_initial_state()
        >>> start = state.position()
        >>> _ = state.play(state.legal_moves()[0])
        >>> state.undo()
        >>> state.position() == start
        True
        """
        history = self.history()
        if not history:
            raise IllegalMove("there is no move to take back: the history is empty")
        try:
            rebuilt = self.game.replay(history[:-1])
        except InvalidPosition as exc:
            raise IllegalMove(f"cannot take the last move back: {exc}") from None
        check = rebuilt.clone()
        check.apply_action(history[-1])
        if type(rebuilt) is not type(self) or check.position() != self.position():
            raise IllegalMove(
                "cannot take the last move back: this state did not start at the game's "
                "initial state (the game must override undo)"
            )
        _take_over(self, rebuilt)

    def describe_player(self, player: int) -> str:
        """A readable name of a player id (including the special ids), for people.

        People count seats from 1: seat 0 is ``player 1``. Protocols, notation and records
        keep the 0-based seat index; only words shown to people go through here.
        """
        if player == CHANCE:
            return "chance"
        if player == TERMINAL:
            return "nobody (the game is over)"
        if player == SIMULTANEOUS:
            return "all players"
        return f"player {player + 1}"

    def sample_chance(self, rng: random.Random) -> int:
        """Draw a chance outcome with its probability (for drivers, not for the rules)."""
        outcomes = self.chance_outcomes()
        actions = [action for action, _ in outcomes]
        weights = [probability for _, probability in outcomes]
        return rng.choices(actions, weights)[0]

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know (``None`` = a spectator), as JSON-able data.

        Perfect-information games show everything; hidden-information games override this.
        """
        return {"game": self.game.game_string, "position": self.position()}

    def winners(self) -> list[int]:
        """Players with the best return at a terminal state (empty before the end)."""
        if not self.is_terminal():
            return []
        values = self.returns()
        best = max(values)
        if all(value == best for value in values) and len(values) > 1:
            return []
        return [player for player, value in enumerate(values) if value == best]

    def result_text(self) -> str:
        """A one-line human summary of the result (or of the game in progress)."""
        if not self.is_terminal():
            return f"in progress, {self.describe_player(self.current_player())} to move"
        winners = self.winners()
        if not winners:
            return "draw"
        if len(winners) == 1:
            return f"{self.describe_player(winners[0])} wins"
        return "shared win: " + ", ".join(self.describe_player(w) for w in winners)


class Game(ABC):
    """A configured game: its spec, its options and the way to start or load a state."""

    spec: GameSpec

    @property
    def game_string(self) -> str:
        """The canonical game string that recreates this configuration."""
        from .options import format_game_string

        return format_game_string(self.spec.name, self.spec.options, self.spec.params)

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """The start of a game. ``seed`` fixes any random setup the game does itself."""

    @abstractmethod
    def state_from_position(self, text: str) -> State:
        """Read a position string written by ``State.position``; :class:`InvalidPosition` if bad."""

    def replay(
        self,
        actions: Iterable[int | str | Move],
        seed: int | None = None,
        *,
        position: str | None = None,
    ) -> State:
        """The state after ``actions`` (ids, notation or moves), checked one by one.

        It starts from ``new_initial_state(seed)``, or from ``position`` (a position string)
        when given. A move that is not legal where it comes raises :class:`InvalidPosition`
        naming its ply (counted from 0 at the start), the move and the reason; nothing else
        is changed.

        >>> import gameshelf
        >>> game = gameshelf.load("cage")
        >>> game.replay(["W1", "O1"]).position()
        '-/WO/-/-/-/-/-/- W3Y4R4O3B4G4 0 O1 2 *'
        >>> game.replay(["W1", "Q7"])
        Traceback (most recent call last):
        ...
        gameshelf.core.errors.InvalidPosition: ply 1: move 'Q7' does not replay: ...
        """
        # The last state the ply-by-ply replay yields (it yields at least the start).
        return deque(self.replay_plies(actions, seed, position=position), maxlen=1)[0]

    def replay_plies(
        self,
        actions: Iterable[int | str | Move],
        seed: int | None = None,
        *,
        position: str | None = None,
    ) -> Iterator[State]:
        """:meth:`replay` one ply at a time: yields the start, then the state after each move.

        It is one state advanced in place (clone what you keep); the checks and the refusals
        are :meth:`replay`'s, raised when the loop reaches the move that does not fit.

        >>> import gameshelf
        >>> plies = gameshelf.load("cage").replay_plies(["W1", "O1"])
        >>> [len(state.history()) for state in plies]
        [0, 1, 2]
        """
        state = (
            self.new_initial_state(seed) if position is None else self.state_from_position(position)
        )
        yield state
        for ply, action in enumerate(actions):
            if isinstance(action, bool) or not isinstance(action, (int, str, Move)):
                raise InvalidPosition(
                    f"ply {ply}: a move must be an action id or notation, "
                    f"not {type(action).__name__}"
                )
            try:
                # play() less its notation of the move played: checked, and cheaper
                state.apply_action(state.move_to_action(action))
            except (IllegalMove, InvalidMove) as exc:
                raise InvalidPosition(
                    f"ply {ply}: move {str(action)!r} does not replay: {exc}"
                ) from None
            yield state

    def __repr__(self) -> str:
        return f"<gameshelf game {self.game_string}>"


def _take_over(target: State, source: State) -> None:
    """Make ``target`` hold ``source``'s fields (``source`` is then no longer used).

    A state that copies itself field by field (``_copy_from``, as compiled states must, having
    neither a ``__dict__`` nor visible ``__slots__``) does it; otherwise this works for states
    with a ``__dict__`` and for those with ``__slots__``.
    """
    copy_from = getattr(target, "_copy_from", None)
    if callable(copy_from):
        copy_from(source)
        return
    for cls in type(source).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            if hasattr(source, name):
                object.__setattr__(target, name, getattr(source, name))
    if hasattr(source, "__dict__"):
        target.__dict__.clear()
        target.__dict__.update(source.__dict__)


def restore_state(cls: Callable[[Any], State], game: Game, fields: dict[str, Any]) -> State:
    """A state of ``cls`` for ``game`` holding ``fields`` (what a compiled state's
    ``__reduce__`` names: a compiled class has no ``__dict__`` for pickle to fill)."""
    state = cls(game)
    for name, value in fields.items():
        setattr(state, name, value)
    return state
