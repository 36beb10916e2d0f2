"""Baseline agents: uniformly random, and a greedy one-ply player with a per-game heuristic."""

from __future__ import annotations

from gameshelf.core.game import Game, State

from .base import Agent, register_agent
from .determinize import determinizer_for
from .evaluators import Evaluator, greedy_evaluator_for
from .packs import pack_for


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def step(self, state: State) -> int:
        """A random legal action."""
        return self.rng.choice(state.legal_actions())


class GreedyAgent(Agent):
    """One ply: the move whose result the game's greedy evaluator likes best for the mover
    (the search evaluator, except in AXIA the bare score: the rulebook's naive greedy player).

    A move that wins at once is taken; in two-player games whose pack asks for it (the Cage) a
    move that hands the opponent an immediate win is avoided (that look is cheap there). Ties
    are broken at random (seeded). In hidden-information games the moves are tried in one
    determinisation of the bot's own view, so it never looks at cards its seat may not see.
    """

    name = "greedy"

    def __init__(self, game: Game, seed: int | None = None, evaluator: Evaluator | None = None):
        super().__init__(game, seed)
        self.evaluator = evaluator or greedy_evaluator_for(game)
        self.determinize, _ = determinizer_for(game)
        spec = game.spec
        # The pack says whether one reply ahead is cheap enough (it is not with Axiom's ~170
        # moves a turn).
        self.look_for_threats = (
            spec.num_players == 2 and not spec.chance and pack_for(game).greedy_looks_ahead
        )

    def step(self, state: State) -> int:
        """The best-scoring legal move after one ply."""
        me = state.current_player()
        world = self.determinize(state, me, self.rng)
        actions = world.legal_actions()
        order = actions[:]
        self.rng.shuffle(order)
        best_action, best_value = order[0], -float("inf")
        for action in order:
            value = self._value(world, action, me)
            if value > best_value:
                best_action, best_value = action, value
        return best_action

    def best_moves(self, state: State) -> list[int]:
        """Every move :meth:`step` may choose at ``state`` (it picks one of them at random).

        For perfect-information games only (hidden-information games are judged in one random
        determinisation, so no fixed set exists there).
        """
        if self.game.spec.hidden_information:
            raise ValueError(
                f"greedy's set of best moves would read hidden cards of {self.game.game_string}"
            )
        me = state.current_player()
        values = {action: self._value(state, action, me) for action in state.legal_actions()}
        top = max(values.values())
        return [action for action, value in values.items() if value == top]

    def _value(self, world: State, action: int, me: int) -> float:
        child = world.clone()
        child.apply_action(action)
        spec = self.game.spec
        top = spec.max_utility
        if child.is_terminal():
            value = child.returns()[me]
            return 10.0 * top if value >= top and spec.num_players > 1 else value * 2.0
        if self.look_for_threats and self._opponent_wins_next(child, me):
            return spec.min_utility - 1.0
        return self.evaluator(child)[me]

    @staticmethod
    def _opponent_wins_next(state: State, me: int) -> bool:
        mover = state.current_player()
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal() and child.returns()[mover] > child.returns()[me]:
                return True
        return False


register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
