"""Tournaments: a seat-rotated round robin, run locally or on Ray, summarised and saved."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from gameshelf.agents import AGENTS, UnknownAgent
from gameshelf.agents.catalogue import unfit_reason
from gameshelf.core.errors import GameshelfError
from gameshelf.core.registry import load
from gameshelf.core.rng import derive_seed

from .match import MatchSpec, play_to_data
from .ratings import Ratings, Tally, outcome, placements
from .ray_backend import run_on_ray
from .report import chart, report_text
from .results import BACKENDS, SEATINGS, ArenaError, OrderTally, TournamentConfig, TournamentResult

__all__ = [
    "BACKENDS",
    "ArenaError",
    "TournamentConfig",
    "TournamentResult",
    "parse_agents",
    "run_tournament",
    "save",
    "schedule",
    "text_progress",
]


def parse_agents(text: str) -> list[str]:
    """Split ``--agents hard,random`` and check each name; :class:`ArenaError` names problems."""
    names = [part.strip().lower() for part in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise ArenaError(
            f"--agents {text!r}: give agent names separated by commas, e.g. hard,random"
        )
    unknown = [name for name in names if name not in AGENTS]
    if unknown:
        known = ", ".join(sorted(AGENTS))
        raise ArenaError(f"--agents {text!r}: unknown agent {unknown[0]!r}; available: {known}")
    return names


def schedule(config: TournamentConfig, players: int) -> list[MatchSpec]:
    """Every game: each table of distinct agents (or the agents cycled when there are fewer
    agents than seats) plays ``games`` games, rotating the seats from game to game.

    With three or more players and ``config.seating == "all"`` a table also goes through every
    turn order of its agents (:func:`seatings`): who moves right after whom decides much of a
    multi-player game (a weak defender hands the next player its wins), so one order rotated
    is one biased sample. ``"rotate"`` keeps the listed order and only rotates it."""
    agents = config.agents
    if len(set(agents)) != len(agents):
        raise ArenaError(f"--agents lists an agent twice: {','.join(agents)}")
    if config.seating not in SEATINGS:
        raise ArenaError(f"--seating {config.seating!r}: choose one of {', '.join(SEATINGS)}")
    if len(agents) >= players:
        tables = [tuple(c) for c in itertools.combinations(agents, players)]
    else:
        tables = [tuple(agents[i % len(agents)] for i in range(players))]
    specs: list[MatchSpec] = []
    for table in tables:
        every_order = config.seating == "all" and len(set(table)) == len(table)
        arrangements = seatings(table) if every_order else rotations(table)
        for g in range(config.games):
            seats = arrangements[g % len(arrangements)]
            index = len(specs)
            specs.append(
                MatchSpec(config.game, seats, derive_seed(config.seed, "game", index), index)
            )
    return specs


def rotations(table: tuple[str, ...]) -> list[tuple[str, ...]]:
    """``table`` rotated through the seats: each agent starts once, the turn order kept."""
    return [table[shift:] + table[:shift] for shift in range(len(table))]


def seatings(table: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every seating of ``table``: each turn order (the first agent fixed, the others permuted,
    the listed order first), rotated through the seats. Every block of ``len(table)`` games is
    one order's rotations, so each agent starts equally often in any whole number of blocks."""
    if len(table) < 3:
        return rotations(table)
    first, rest = table[0], table[1:]
    orders = [(first, *others) for others in itertools.permutations(rest)]
    return [seats for order in orders for seats in rotations(order)]


def turn_order(seats: Sequence[str], agents: Sequence[str]) -> tuple[str, ...]:
    """A game's cyclic turn order, written from the agent that comes first in ``agents``
    (so that the rotations of one order read the same)."""
    start = min(range(len(seats)), key=lambda seat: agents.index(seats[seat]))
    return tuple(seats[start:]) + tuple(seats[:start])


def run_tournament(
    config: TournamentConfig,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play the whole schedule, tally, rate and (with ``config.out``) save everything."""
    try:
        game = load(config.game)
    except GameshelfError as exc:
        raise ArenaError(str(exc)) from None
    if config.games < 1:
        raise ArenaError(f"--games must be at least 1, not {config.games}")
    if config.backend not in BACKENDS:
        raise ArenaError(f"--backend {config.backend!r}: choose one of {', '.join(BACKENDS)}")
    for name in config.agents:
        if name not in AGENTS:
            raise UnknownAgent(f"unknown agent {name!r}; available: {', '.join(sorted(AGENTS))}")
        unfit = unfit_reason(name, game)
        if unfit is not None:  # refused here, not as a traceback from a worker mid-run
            raise ArenaError(f"agent {name!r} cannot play {game.game_string}: {unfit}")
    players = game.spec.num_players
    specs = schedule(config, players)
    result = TournamentResult(config, game.game_string, players)
    for done, item in enumerate(_execute(config, specs), start=1):
        result.results.append(item)
        if progress is not None:
            progress(done, len(specs))
    result.results.sort(key=lambda r: int(r["index"]))
    _tally(result)
    if config.out is not None:
        save(result, config.out)
    return result


def _execute(config: TournamentConfig, specs: list[MatchSpec]) -> Iterator[dict[str, Any]]:
    if config.backend == "ray":
        yield from run_on_ray(specs, config.address, config.jobs)
        return
    if config.jobs <= 1:
        for spec in specs:
            yield play_to_data(spec)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=config.jobs) as pool:
        futures = [pool.submit(play_to_data, spec) for spec in specs]
        for future in as_completed(futures):
            yield future.result()


def _tally(result: TournamentResult) -> None:
    names = result.config.agents
    tallies = {name: Tally(name) for name in names}
    ratings = Ratings(names) if result.players > 1 else None
    for item in result.results:
        seats: list[str] = item["seats"]
        returns: list[float] = item["returns"]
        scores = item["extra"].get("scores")
        ranks = placements(returns, scores)
        for seat, name in enumerate(seats):
            tally = tallies[name]
            tally.games += 1
            kind = outcome(returns, seat) if result.players > 1 else "draw"
            if result.players > 1:
                tally.wins += kind == "win"
                tally.draws += kind == "draw"
                tally.losses += kind == "loss"
            tally.placement_sum += ranks[seat]
            tally.think_time += item["think_time"][seat]
            tally.moves += item["moves"][seat]
            if scores is not None:
                tally.score_sum += scores[seat]
                tally.scored += 1
            rank = item["extra"].get("rank")
            if rank is not None:
                tally.ranks[rank] = tally.ranks.get(rank, 0) + 1
        if ratings is not None:
            ratings.update(seats, ranks)
        if result.players > 2:
            _tally_order(result, seats, returns)
    if ratings is not None:
        for name, tally in tallies.items():
            tally.mu, tally.sigma = ratings.value(name)
        result.rated_games = ratings.rated_games
    result.tallies = tallies


def _tally_order(result: TournamentResult, seats: list[str], returns: list[float]) -> None:
    """Count one game of three or more players under its turn order."""
    order = turn_order(seats, result.config.agents)
    tally = result.orders.setdefault(order, OrderTally(order))
    tally.games += 1
    kinds = [outcome(returns, seat) for seat in range(len(seats))]
    if "win" not in kinds:
        tally.draws += 1
    for seat, name in enumerate(seats):
        tally.wins[name] = tally.wins.get(name, 0) + (kinds[seat] == "win")


def save(result: TournamentResult, out: Path) -> None:
    """Write records/, summary.json, results.md and ratings.png under ``out``."""
    records = out / "records"
    records.mkdir(parents=True, exist_ok=True)
    for item in result.results:
        path = records / f"game-{int(item['index']):04d}.json"
        path.write_text(json.dumps(item["record"], indent=2) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(result.summary(), indent=2) + "\n", "utf-8")
    (out / "results.md").write_text(report_text(result) + "\n", encoding="utf-8")
    chart(result, out / "ratings.png")


def text_progress(stream: TextIO = sys.stderr, width: int = 30) -> Callable[[int, int], None]:
    """A progress bar on ``stream`` (redrawn in place on a terminal, else every 10%)."""
    interactive = stream.isatty()
    last = [-1]

    def show(done: int, total: int) -> None:
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        line = f"[{bar}] {done}/{total} games"
        if interactive:
            stream.write("\r" + line + ("\n" if done == total else ""))
        elif done * 10 // total != last[0] or done == total:
            stream.write(line + "\n")
            last[0] = done * 10 // total
        stream.flush()

    return show
