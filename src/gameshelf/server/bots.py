"""Bot moves computed away from the event loop, in a worker pool.

The worker gets only the game string, the seed and the action history; it rebuilds the state
itself, so nothing but plain data crosses the process boundary.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from gameshelf.agents import make_agent
from gameshelf.core.registry import load
from gameshelf.core.rng import derive_seed


def choose_bot_action(
    game_string: str, seed: int, history: list[int], agent: str, seat: int
) -> int:
    """The action the bot ``agent`` in ``seat`` plays after ``history`` (runs in a worker)."""
    game = load(game_string)
    state = game.new_initial_state(seed)
    for action in history:
        state.apply_action(action)
    bot = make_agent(agent, game, derive_seed(seed, "seat", seat, len(history)))
    return bot.step(state)


def make_executor(workers: int) -> Executor:
    """A spawned process pool of ``workers`` (safe beside threads); threads for 0 workers."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="gameshelf-bot")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
