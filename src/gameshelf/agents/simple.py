"""Baseline agents: uniformly random, and a greedy one-ply player."""

from __future__ import annotations

from gameshelf.core.game import State

from .base import Agent, register_agent


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def step(self, state: State) -> int:
        """A random legal action."""
        return self.rng.choice(state.legal_actions())


class GreedyAgent(Agent):
    """Takes a move that wins at once; otherwise avoids moves that let the next player win.

    It looks one move ahead for itself and one for the next player, through ``clone``. In games
    with hidden information or chance it plays randomly instead, so it never peeks at state its
    seat may not see (the bots issue brings proper per-game evaluators).
    """

    name = "greedy"

    def step(self, state: State) -> int:
        """A winning move if there is one, else a random move that gives no immediate win."""
        actions = state.legal_actions()
        spec = self.game.spec
        if spec.hidden_information or spec.chance:
            return self.rng.choice(actions)
        me = state.current_player()
        safe = []
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                if child.returns()[me] > 0 and child.returns()[me] >= max(child.returns()):
                    return action
                if child.returns()[me] < 0:
                    continue
            elif self._opponent_can_win(child, me):
                continue
            safe.append(action)
        return self.rng.choice(safe or actions)

    @staticmethod
    def _opponent_can_win(state: State, me: int) -> bool:
        mover = state.current_player()
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal() and child.returns()[mover] > 0 and child.returns()[me] < 0:
                return True
        return False


register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
