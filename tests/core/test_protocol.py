"""The shared parts of the game protocol (``State.undo``, ``State.random_rollout``,
``Game.replay``) on a toy game written here, so core is tested without a shipped game; the
contract suite (tests/contract) runs the same checks on every registered game."""

from __future__ import annotations

import random

import pytest

from gameshelf.core.conformance import (
    ConformanceError,
    check_random_rollout,
    check_replay,
    check_undo,
    random_playouts,
)
from gameshelf.core.errors import IllegalMove, InvalidMove, InvalidPosition
from gameshelf.core.game import CHANCE, TERMINAL, Game, State
from gameshelf.core.spec import GameSpec

TARGET = 10


class RaceGame(Game):
    """Two players add 1 or 2 to a shared count (actions 1, 2); a die (chance outcomes 0 and
    3) then adds 0 or 1; whoever brings the count to ``TARGET`` or more wins."""

    def __init__(self) -> None:
        self.spec = GameSpec(
            name="race",
            title="Race",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=True,
            hidden_information=False,
            simultaneous=False,
            num_distinct_actions=3,
            max_chance_outcomes=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=40,
            rules_version="test",
        )

    def new_initial_state(self, seed: int | None = None) -> RaceState:
        return RaceState(self)

    def state_from_position(self, text: str) -> RaceState:
        try:
            count, mover, roll, winner, *moves = (int(part) for part in text.split())
        except ValueError:
            raise InvalidPosition(f"not a race position: {text!r}") from None
        state = RaceState(self)
        state.count, state.mover, state.roll, state.winner = count, mover, bool(roll), winner
        state.moves = moves
        return state


class RaceState(State):
    """A position of :class:`RaceGame`; it keeps no undo record (the generic undo rebuilds)."""

    game: RaceGame

    def __init__(self, game: RaceGame) -> None:
        self.game = game
        self.count = 0
        self.mover = 0
        self.roll = False
        self.winner = -1
        self.moves: list[int] = []

    def current_player(self) -> int:
        if self.winner >= 0:
            return TERMINAL
        return CHANCE if self.roll else self.mover

    def legal_actions(self) -> list[int]:
        if self.winner >= 0:
            return []
        return [0, 3] if self.roll else [1, 2]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (3, 0.5)] if self.roll and self.winner < 0 else []

    def apply_action(self, action: int) -> None:
        self.moves.append(action)
        self.count += (action > 0) if self.roll else action
        if self.count >= TARGET:
            self.winner = self.mover
        elif self.roll:
            self.roll = False
            self.mover = 1 - self.mover
        else:
            self.roll = True

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else -1.0 for p in range(2)]

    def clone(self) -> RaceState:
        copy = type(self)(self.game)
        copy.count, copy.mover, copy.roll, copy.winner = (
            self.count,
            self.mover,
            self.roll,
            self.winner,
        )
        copy.moves = list(self.moves)
        return copy

    def action_to_string(self, action: int) -> str:
        return f"roll{int(action > 0)}" if self.roll else f"+{action}"

    def parse_action(self, text: str) -> int:
        actions = {"+1": 1, "+2": 2, "roll0": 0, "roll1": 3}
        if text not in actions:
            raise InvalidMove(f"{text!r} is not race notation (+1, +2, roll0, roll1)")
        return actions[text]

    def position(self) -> str:
        fields = [self.count, self.mover, int(self.roll), self.winner, *self.moves]
        return " ".join(str(value) for value in fields)

    def history(self) -> list[int]:
        return list(self.moves)


GAME = RaceGame()


def test_the_toy_game_keeps_the_protocol() -> None:
    assert random_playouts(GAME, games=30, check_records=False).games == 30


def test_undo_takes_back_moves_and_chance_outcomes_one_at_a_time() -> None:
    state = GAME.replay(["+2", "roll1", "+1"])
    state.undo()
    assert state.position() == GAME.replay(["+2", "roll1"]).position()
    assert state.current_player() == 1
    state.undo()
    state.undo()
    assert state.position() == GAME.new_initial_state().position()
    assert check_undo(GAME, games=5) > 0


def test_undo_refuses_at_the_start_and_changes_nothing() -> None:
    state = GAME.new_initial_state()
    with pytest.raises(IllegalMove, match="history is empty"):
        state.undo()
    assert state.position() == "0 0 0 -1"


def test_undo_refuses_a_state_that_did_not_start_at_the_start() -> None:
    # Loaded mid-game with a history that does not lead there from the start.
    state = GAME.state_from_position("7 1 0 -1 1")
    with pytest.raises(IllegalMove, match="must override undo"):
        state.undo()
    assert state.position() == "7 1 0 -1 1"


def test_replay_names_the_ply_and_the_reason() -> None:
    with pytest.raises(InvalidPosition, match=r"ply 1: move '\+1' does not replay: .*not legal"):
        GAME.replay(["+2", "+1"])  # ply 1 is the die's turn
    with pytest.raises(InvalidPosition, match=r"ply 0: move 'jump' does not replay: .*notation"):
        GAME.replay(["jump"])
    with pytest.raises(InvalidPosition, match="ply 2: a move must be an action id or notation"):
        GAME.replay([2, 3, 2.5])  # type: ignore[list-item]
    check_replay(GAME, games=5)


def test_replay_from_a_position() -> None:
    state = GAME.replay(["+2", "roll1"], position="3 0 0 -1")
    assert state.position() == "6 1 0 -1 2 3"


def test_the_generic_rollout_plays_at_most_its_plies() -> None:
    state = GAME.new_initial_state()
    assert state.random_rollout(random.Random(3), 0) == 0
    assert state.random_rollout(random.Random(3), 3) == 3 and len(state.history()) == 3
    played = state.random_rollout(random.Random(3), 1000)
    assert state.is_terminal() and played == len(state.history()) - 3
    check_random_rollout(GAME, games=5)


def test_an_override_that_draws_differently_is_caught() -> None:
    class SkewedRace(RaceState):
        def random_rollout(self, rng: random.Random, max_plies: int) -> int:
            rng.random()  # one extra draw: same distribution of moves, another game per seed
            return super().random_rollout(rng, max_plies)

    class SkewedGame(RaceGame):
        def new_initial_state(self, seed: int | None = None) -> RaceState:
            return SkewedRace(self)

    with pytest.raises(ConformanceError, match="random_rollout"):
        check_random_rollout(SkewedGame(), games=3)


def test_a_broken_undo_is_caught() -> None:
    class ForgetfulRace(RaceState):
        def undo(self) -> None:
            super().undo()
            self.count += 1  # takes the move back but not all of its effect

    class ForgetfulGame(RaceGame):
        def new_initial_state(self, seed: int | None = None) -> RaceState:
            return ForgetfulRace(self)

    with pytest.raises(ConformanceError, match="undo after action"):
        check_undo(ForgetfulGame(), games=2)
