"""Building the Axiom opening book (:mod:`.axiom_book`): the tree of likely openings, each of
its positions searched :data:`~.axiom_book.BOOK_SECONDS` by the Axiom search, in parallel."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from gameshelf.core.registry import load

from .axiom_book import BOOK_GAME, BOOK_SEATS, BOOK_SECONDS, book_key
from .axiom_search import AxiomSearchAgent


def _analyse(job: tuple[tuple[int, ...], float, int]) -> tuple[tuple[int, ...], list[int], str]:
    """Search the position after ``actions``: (actions, its ``top`` best moves, best as text)."""
    actions, seconds, top = job
    game = load(BOOK_GAME)
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    agent = AxiomSearchAgent(game, seed=0, time_limit=seconds)
    found = agent.analyse(state, seconds, top)
    return actions, [m.action for m in found], found[0].text


def build(
    seconds: float = BOOK_SECONDS,
    replies: int = 3,
    plies: int = 5,
    jobs: int = 2,
    progress: Callable[[int, int], None] | None = None,
    seats: tuple[int, ...] = BOOK_SEATS,
) -> dict[str, Any]:
    """Search the book's tree (see the module docstring) for the book's ``seats`` up to
    ``plies`` plies from the start; the book as the JSON object :func:`load_book` reads."""
    positions: dict[str, str] = {}
    # a frontier entry: the moves from the start, and the seat the book plays in that half
    frontier: list[tuple[tuple[int, ...], int]] = [((), seat) for seat in seats]
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for ply in range(plies + 1):
            if ply == plies:  # the last ply: only the book's own moves are wanted
                frontier = [(a, seat) for a, seat in frontier if len(a) % 2 == seat]
            wanted = sorted({actions for actions, _ in frontier})
            results = {
                actions: (top, best)
                for actions, top, best in pool.map(
                    _analyse, [(actions, seconds, replies) for actions in wanted]
                )
            }
            done += len(wanted)
            if progress:
                progress(ply, done)
            game = load(BOOK_GAME)
            following: list[tuple[tuple[int, ...], int]] = []
            for actions, seat in frontier:
                top, best = results[actions]
                state = game.new_initial_state()
                for action in actions:
                    state.apply_action(action)
                mine = state.current_player() == seat
                if mine:
                    positions[book_key(state)] = best
                for action in top[:1] if mine else top:
                    child = state.clone()
                    child.apply_action(action)
                    if not child.is_terminal():
                        following.append(((*actions, action), seat))
            frontier = following
    return {
        "format": "gameshelf-axiom-book",
        "game": BOOK_GAME,
        "seconds": seconds,
        "replies": replies,
        "plies": plies,
        "seats": list(seats),
        "positions": dict(sorted(positions.items())),
    }
