"""Bot moves computed away from the event loop, in a worker pool.

The worker gets a pickled snapshot of the state (no replay of the history from the start, which
would make every bot move of a long game cost its whole length) and the bot's name and seed.
"""

from __future__ import annotations

import contextlib
import ctypes
import mmap
import multiprocessing
import os
import pickle
import tempfile
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


# --- abandoning a search whose match ended ---------------------------------------------------
STOP_SLOTS = 4096
"""Searches that can be stopped at once (a further one runs to its time cap unstoppable)."""
STOP_POLL = 0.02
"""Seconds between a worker's looks at the stop board while one of its searches runs."""


class SearchCancelled(Exception):
    """Raised inside a worker's search once the server asked it to stop."""


class StopBoard:
    """One byte per running search in a small file every worker maps: the server sets a
    search's byte to ask its worker to give the search up, so a match that ended frees its
    worker at once instead of after the bot's whole think time."""

    def __init__(self) -> None:
        handle, self.path = tempfile.mkstemp(prefix="gameshelf-stops-")
        os.ftruncate(handle, STOP_SLOTS)
        self._map = mmap.mmap(handle, STOP_SLOTS)
        os.close(handle)
        self._lock = threading.Lock()  # slots come back from the executor's threads
        self._free = list(range(STOP_SLOTS))

    def take(self) -> int | None:
        """A cleared slot for a new search (None when all are in use)."""
        with self._lock:
            if not self._free:
                return None
            slot = self._free.pop()
            self._map[slot] = 0
            return slot

    def stop(self, slot: int) -> None:
        """Ask the search on ``slot`` to stop."""
        self._map[slot] = 1

    def give_back(self, slot: int) -> None:
        """The search on ``slot`` is over: the slot may serve another."""
        with self._lock:
            self._free.append(slot)

    def close(self) -> None:
        """Remove the board's file (searches still running run to their cap)."""
        self._map.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)


_watched: dict[tuple[str, int], int] = {}  # (board, slot) -> thread running that search
_watch_lock = threading.Lock()
_boards: dict[str, mmap.mmap] = {}


def stoppable(board: str, slot: int | None, search: Any, *args: Any) -> Any:
    """Run ``search(*args)`` in a worker so that ``board``'s ``slot``, once set, stops it by
    raising :class:`SearchCancelled` in the thread running it (runs in a worker)."""
    if slot is None:
        return search(*args)
    key = (board, slot)
    thread = threading.get_ident()
    with _watch_lock:
        if board not in _boards:
            with open(board, "r+b") as handle:
                _boards[board] = mmap.mmap(handle.fileno(), STOP_SLOTS)
        if not _watched:
            threading.Thread(target=_watch, name="gameshelf-search-stops", daemon=True).start()
        _watched[key] = thread
    try:
        return search(*args)
    finally:
        with _watch_lock:
            del _watched[key]
            # a stop asked just as the search ended must not hit the worker's next task
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), None)


def _watch() -> None:
    """Stop every watched search whose byte is set; end once none is watched."""
    while True:
        with _watch_lock:
            if not _watched:
                return
            for (board, slot), thread in list(_watched.items()):
                if _boards[board][slot]:
                    _watched[(board, slot)] = -1  # asked once; the search may take a moment
                    if thread != -1:
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(
                            ctypes.c_ulong(thread), ctypes.py_object(SearchCancelled)
                        )
        time.sleep(STOP_POLL)
