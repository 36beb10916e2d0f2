"""Bot moves computed away from the event loop, in a worker pool.

The worker gets a pickled snapshot of the state (no replay of the history from the start, which
would make every bot move of a long game cost its whole length) and the bot's name and seed.
"""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from gameshelf.agents import make_agent
from gameshelf.core.game import State


def choose_bot_action(snapshot: bytes, agent: str, seed: int, time_cap: float) -> int:
    """The action bot ``agent`` plays in the pickled state ``snapshot`` (runs in a worker).

    ``time_cap`` bounds the bot's thinking: a level whose own time limit is longer (or absent)
    is held to it, so one expert cannot hold a worker for long.
    """
    state: State = pickle.loads(snapshot)
    bot = make_agent(agent, state.game, seed)
    limit = getattr(bot, "time_limit", None)
    if hasattr(bot, "time_limit") and (limit is None or limit > time_cap):
        bot.time_limit = time_cap
    return int(bot.step(state))


def make_executor(workers: int) -> Executor:
    """A spawned process pool of ``workers`` (safe beside threads); threads for 0 workers."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="gameshelf-bot")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
