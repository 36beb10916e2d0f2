"""Regenerate ``docs/strength.md``: arena runs per game, move times per level, solver ladder.

Run ``scripts/strength.sh`` (or ``python -m gameshelf.arena.strength --jobs 2``). Each section
caches its numbers as JSON under ``build/strength/`` so a section can be rerun alone
(``--only cage-2p``) and the page rebuilt from the cache (``--only none``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameshelf.agents import LEVELS, make_agent
from gameshelf.agents.levels import level_spec
from gameshelf.agents.solver import solve
from gameshelf.core.registry import load

from .report import table
from .tournament import TournamentConfig, run_tournament, text_progress

CACHE = Path("build/strength")
PAGE = Path("docs/strength.md")


@dataclass(frozen=True)
class Run:
    """One arena run of the page."""

    slug: str
    game: str
    agents: tuple[str, ...]
    games: int
    title: str


RUNS: tuple[Run, ...] = (
    Run("cage-2p-random", "cage", ("hard", "random"), 20, "Cage, 2 players: hard vs random"),
    Run("cage-2p-greedy", "cage", ("hard", "greedy"), 20, "Cage, 2 players: hard vs greedy"),
    Run("axiom-random", "axiom", ("hard", "random"), 20, "Axiom: hard vs random"),
    Run("axiom-greedy", "axiom", ("hard", "greedy"), 20, "Axiom: hard vs greedy"),
    Run("axia-2p-random", "axia", ("hard", "random"), 20, "AXIA, 2 players: hard vs random"),
    Run("axia-2p-greedy", "axia", ("hard", "greedy"), 20, "AXIA, 2 players: hard vs greedy"),
    Run(
        "cage-3p",
        "cage(players=3)",
        ("hard", "medium", "greedy", "random"),
        6,
        "Cage, 3 players: every table of three of four agents, seats rotated",
    ),
    Run(
        "cage-4p",
        "cage(players=4)",
        ("hard", "medium", "greedy", "random"),
        8,
        "Cage, 4 players: one table, seats rotated",
    ),
    Run(
        "axia-3p",
        "axia(players=3)",
        ("hard", "greedy", "random"),
        6,
        "AXIA, 3 players: one table, seats rotated",
    ),
    Run(
        "axia-solo",
        "axia(players=1)",
        ("random", "greedy", "medium", "hard"),
        6,
        "AXIA solo: each agent plays the same 6 seeded games",
    ),
)

LADDER: tuple[tuple[str, int], ...] = (
    ("cage(players=2,stock=1:1,max_plies=4)", 6),
    ("cage(players=2,stock=2:1,max_plies=8)", 9),
    ("cage(players=2,stock=2:2,max_plies=8)", 9),
    ("cage(players=2,stock=3:1)", 10),
    ("cage(players=2,stock=3:1,continue_after_last_drop=true)", 10),
    ("cage(players=2,stock=4:2,continue_after_last_drop=true)", 9),
    ("cage(players=2,stock=3:2,max_plies=10)", 10),
    ("cage(players=2,stock=3:3,continue_after_last_drop=true)", 8),
    ("cage(players=3,stock=3:1:1)", 9),
    ("cage", 4),
)

TIMING_GAMES = ("cage", "cage(players=3)", "axiom", "axia", "axia(players=1)")


def run_arena(run: Run, jobs: int) -> dict[str, Any]:
    """Play one run and return its cached numbers (table text and summary)."""
    clock = time.perf_counter()
    config = TournamentConfig(
        run.game, list(run.agents), run.games, seed=2026, jobs=jobs, out=CACHE / run.slug
    )
    result = run_tournament(config, text_progress())
    return {
        "title": run.title,
        "game": result.game_string,
        "games": len(result.results),
        "table": table(result),
        "summary": result.summary()["table"],
        "wall_seconds": time.perf_counter() - clock,
    }


def midgame(game_string: str, seed: int, plies: int) -> Any:
    """A position after ``plies`` seeded random decisions (chance drawn on the way)."""
    game = load(game_string)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    made = 0
    while made < plies or state.is_chance_node():
        if state.is_terminal():
            return midgame(game_string, seed + 1, plies)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    return state


def move_times(jobs: int) -> dict[str, Any]:
    """Seconds per decision of each level on three mid-game positions per game."""
    rows = []
    for game_string in TIMING_GAMES:
        game = load(game_string)
        positions = [midgame(game_string, seed, 6) for seed in (1, 2, 3)]
        for level in LEVELS:
            times = []
            for index, state in enumerate(positions):
                agent = make_agent(level, game, seed=index)
                clock = time.perf_counter()
                agent.step(state)
                times.append(time.perf_counter() - clock)
            rows.append(
                {
                    "game": game.game_string,
                    "level": level,
                    "algorithm": level_spec(game, level).describe(),
                    "mean": sum(times) / len(times),
                    "max": max(times),
                }
            )
            print(f"{game_string} {level}: max {max(times):.2f} s", flush=True)
    return {"rows": rows}


def ladder(jobs: int) -> dict[str, Any]:
    """Solve every ladder variant and time it."""
    rows = []
    for game_string, plies in LADDER:
        result = solve(load(game_string), plies)
        rows.append(
            {
                "game": result.game,
                "horizon": plies,
                "result": result.summary(),
                "best": result.best_moves[:8],
                "nodes": result.nodes,
                "seconds": result.seconds,
            }
        )
        print(f"{game_string}: {result.summary()} in {result.seconds:.1f} s", flush=True)
    return {"rows": rows}


def _section(slug: str, compute: Callable[[], dict[str, Any]], only: set[str] | None) -> Any:
    path = CACHE / f"{slug}.json"
    if only is None or slug in only or (not path.exists() and "none" not in only):
        data = compute()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
        return data
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return None


def render(arenas: list[tuple[Run, Any]], timing: Any, ladder_data: Any) -> str:
    """The Markdown page."""
    out = [
        "# Bot strength (measured)",
        "",
        "Regenerate with `scripts/strength.sh` (about 45 minutes on 2 cores). Every arena run",
        "uses tournament seed 2026, rotates seats game by game, and saves its records, summary,",
        "table and chart under `build/strength/<run>/`. Levels are defined in",
        "`src/gameshelf/agents/levels.py` and described in `docs/agents.md`.",
        f"Measured on: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, 2 games at a time on 2 cores.",
        "",
        "Other work shared the machine while this ran, so seconds per move are upper bounds;",
        "s/move in the arena tables is measured with two games running at once.",
        "",
        "W/D/L are counted per seat: best result and not all equal is a win, all equal a draw.",
        "Ratings are openskill Plackett-Luce (mu ± sigma) from placements, updated game by game.",
        "",
    ]
    out += _targets(arenas)
    for run, data in arenas:
        out.append(f"## {run.title}")
        out.append("")
        if data is None:
            out += ["(not measured in this run)", ""]
            continue
        out.append(f"`{data['game']}`, {data['games']} games, {data['wall_seconds']:.0f} s wall.")
        out += ["", data["table"], ""]
        if run.slug == "axia-solo":
            out += [SOLO_BANDS, ""]
    out += ["## Seconds per move by level", ""]
    if timing is not None:
        out += ["| game | level | algorithm and budget | mean s | max s |", "|---|---|---|---|---|"]
        for row in timing["rows"]:
            out.append(
                f"| `{row['game']}` | {row['level']} | {row['algorithm']} | "
                f"{row['mean']:.2f} | {row['max']:.2f} |"
            )
        out.append("")
        out.append("Three mid-game positions per game, one decision each, one process.")
        out.append("")
    out += ["## Solver ladder", ""]
    if ladder_data is not None:
        out += ["| variant | horizon | result | best first moves (up to 8) | nodes | seconds |"]
        out.append("|---|---|---|---|---|---|")
        for row in ladder_data["rows"]:
            best = " ".join(row["best"])
            out.append(
                f"| `{row['game']}` | {row['horizon']} | {row['result']} | {best} | "
                f"{row['nodes']} | {row['seconds']:.2f} |"
            )
        out.append("")
    return "\n".join(out) + "\n"


def _arena_job(run: Run, jobs: int) -> Callable[[], dict[str, Any]]:
    def job() -> dict[str, Any]:
        return run_arena(run, jobs)

    return job


TARGETS = {"random": 0.95, "greedy": 0.75}
SOLO_BANDS = (
    "The rulebook's solo Slayer ranks: Apprentice 0-80, Novice 81-110, Slayer 111-150, "
    "Elite 151-200, Legend 201+. `expert` is left out of the arena runs for time (see the move "
    "times below)."
)


def _targets(arenas: list[tuple[Run, Any]]) -> list[str]:
    """The issue's targets for two-player games: hard wins >= 95% / >= 75% of its games."""
    out = ["## Targets (two-player games)", ""]
    out += ["| run | hard won | target | met |", "|---|---|---|---|"]
    for run, data in arenas:
        opponent = run.agents[-1]
        if data is None or len(run.agents) != 2 or opponent not in TARGETS:
            continue
        hard = next(row for row in data["summary"] if row["agent"] == "hard")
        rate = hard["wins"] / hard["games"]
        target = TARGETS[opponent]
        met = "yes" if rate >= target else "**no**"
        out.append(
            f"| {run.title} | {hard['wins']}/{hard['games']} ({rate:.0%}) | "
            f"≥ {target:.0%} | {met} |"
        )
    return [*out, ""]


def main(argv: list[str] | None = None) -> int:
    """Run the sections (all, or those named by ``--only``) and write the page."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default=None, help="comma-separated slugs, or 'none'")
    args = parser.parse_args(argv)
    only = None if args.only is None else set(args.only.split(","))
    arenas = []
    for run in RUNS:
        print(f"== {run.slug}", flush=True)
        arenas.append((run, _section(run.slug, _arena_job(run, args.jobs), only)))
    timing = _section("move-times", lambda: move_times(args.jobs), only)
    ladder_data = _section("ladder", lambda: ladder(args.jobs), only)
    PAGE.write_text(render(arenas, timing, ladder_data), encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
