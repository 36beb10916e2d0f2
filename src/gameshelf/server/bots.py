"""Bot moves computed away from the event loop, in a worker pool.

The worker gets a pickled snapshot of the state (no replay of the history from the start, which
would make every bot move of a long game cost its whole length) and the bot's name and seed.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from gameshelf.agents import make_agent
from gameshelf.agents.analysis import MoveAnalysis, analyse_game, analyser_for
from gameshelf.agents.levels import split_think
from gameshelf.core.game import Game, State


def choose_bot_action(snapshot: bytes, agent: str, seed: int, time_cap: float) -> int:
    """The action bot ``agent`` plays in the pickled state ``snapshot`` (runs in a worker).

    ``time_cap`` bounds the bot's thinking: a level whose own time limit is longer (or absent)
    is held to it, so one expert cannot hold a worker for long. A seat named ``NAME@SECONDS``
    thinks that long a move (within the cap).
    """
    state: State = pickle.loads(snapshot)
    name, think = split_think(agent)
    bot = make_agent(name, state.game, seed)
    if think is not None and hasattr(bot, "time_limit"):
        bot.time_limit = think
    limit = getattr(bot, "time_limit", None)
    if hasattr(bot, "time_limit") and (limit is None or limit > time_cap):
        bot.time_limit = time_cap
    return int(bot.step(state))


def _move_data(move: MoveAnalysis) -> dict[str, Any]:
    return {
        "move": move.text,
        "action": move.action,
        "value": min(1.0, max(0.0, round(move.value, 4))),
        "solved": move.solved,
        "pv": list(move.pv),
    }


def analyse_match(
    game_blob: bytes, seed: int, history: list[int], seconds: float, seat: int | None, top: int
) -> list[dict[str, Any]]:
    """Analyse every decision of a finished match (only ``seat``'s when given), replaying it
    from ``seed`` and the action ``history`` (runs in a worker; ``seconds`` per decision).

    Each decision is searched from the mover's own view (IS-MCTS where cards are hidden), so
    a seat's analysis never depends on what that seat could not see.
    """
    game: Game = pickle.loads(game_blob)
    states = [state.clone() for state in game.replay_plies(history, seed)]
    analyser = analyser_for(game, seed)
    plies = analyse_game(states, analyser, seconds, top, seat)
    return [
        {
            "ply": p.ply,
            "mover": p.mover,
            "played": p.played,
            "played_value": None if p.played_value is None else round(p.played_value, 4),
            "loss": p.loss,
            "label": p.label,
            "best": [_move_data(m) for m in p.best],
        }
        for p in plies
    ]


def hint_move(snapshot: bytes, seed: int, seconds: float) -> dict[str, Any]:
    """The best move for the player to move in the pickled state (runs in a worker); the
    search reads only that player's view (IS-MCTS where cards are hidden)."""
    state: State = pickle.loads(snapshot)
    best = analyser_for(state.game, seed).analyse(state, seconds, 1)
    if not best:  # nothing searched in time: the first legal move, valued as unknown
        action = state.legal_actions()[0]
        text = state.action_to_string(action)
        return {"move": text, "action": action, "value": 0.5, "solved": None, "pv": [text]}
    return _move_data(best[0])


PARENT_POLL = 1.0
"""Seconds between a worker's checks that the server process still lives."""


def exit_with_parent(parent: int) -> None:
    """Worker initializer: end this worker once process ``parent`` (the server) is gone.

    A server killed with ``kill -9`` runs no shutdown code, and its workers, each holding both
    ends of the pool's queue, would otherwise wait on that queue for ever: after a crash and a
    restart, every crash left its idle workers behind. When the parent dies the worker is handed
    to another parent, which a daemon thread notices."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(0)  # no cleanup to run: the worker holds nothing but a queue to a dead server

    threading.Thread(target=watch, name="gameshelf-parent-watch", daemon=True).start()


def make_executor(workers: int) -> Executor:
    """A spawned process pool of ``workers`` (safe beside threads) whose workers end with the
    server process (:func:`exit_with_parent`); threads for 0 workers."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=2, thread_name_prefix="gameshelf-bot")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
