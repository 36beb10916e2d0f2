"""OpenSpiel's own search bots on our games: MCTS on the Cage, IS-MCTS on AXIA, against random.

    .venv/bin/python examples/openspiel_bots.py [--games 9] [--simulations 100]

AXIA plays a third of the games with a tenth of the simulations: each IS-MCTS simulation is a
random rollout of a whole AXIA game through the Python adapter.

Seat 0 is the OpenSpiel bot, the other seats play uniformly at random; seats are not rotated,
so read the numbers as a smoke test of the adapter, not as a rating.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from gameshelf.extras import missing_extra

try:  # before any work: without the extra, one line saying what to install
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]

    import gameshelf.rl.openspiel  # noqa: F401  (registers the games with pyspiel)
except ImportError as error:
    missing_extra("examples/openspiel_bots.py", "rl", error)


def play(game: Any, bot_step: Callable[[Any], int], rng: np.random.RandomState) -> list[float]:
    """One game: seat 0 asks the bot, the others and chance draw at random; the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot_step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return [float(value) for value in state.returns()]


def match(game_string: str, kind: str, games: int, simulations: int, seed: int) -> str:
    """A result line for ``games`` games of the bot ``kind`` (mcts / ismcts) as seat 0."""
    game = pyspiel.load_game(game_string)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if kind == "mcts":
        bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)
    else:
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
    start = time.perf_counter()
    wins = draws = 0
    for _ in range(games):
        returns = play(game, bot.step, rng)
        best = max(returns)
        if returns[0] == best and returns.count(best) == 1:
            wins += 1
        elif returns[0] == best:
            draws += 1
    seconds = time.perf_counter() - start
    return (
        f"{kind:7} {game_string:28} seat 0 wins {wins}/{games}, shares or draws {draws} "
        f"({simulations} simulations a move, {seconds:.1f} s)"
    )


def main(argv: list[str] | None = None) -> list[str]:
    """Run both matches and print one line each."""
    parser = argparse.ArgumentParser(description="OpenSpiel bots on gameshelf games")
    parser.add_argument("--games", type=int, default=9, help="Cage games (AXIA: a third)")
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    axia_games, axia_simulations = max(args.games // 3, 1), max(args.simulations // 10, 2)
    lines = [
        match("gameshelf_cage", "mcts", args.games, args.simulations, args.seed),
        match("gameshelf_axia", "ismcts", axia_games, axia_simulations, args.seed),
    ]
    for line in lines:
        print(line)
    return lines


if __name__ == "__main__":
    main()
