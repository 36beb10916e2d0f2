"""Regenerate ``docs/strength.md``: arena runs per game, move times per level, solver ladder.

Run ``.venv/bin/python -m tools.strength`` from the repository root (about three hours on two
cores). Each section caches its numbers as JSON under ``build/strength/`` so a section can be
rerun alone (``--only cage-2p``) and the page rebuilt from the cache (``--only none``). The
same caches give the server's published bot ratings (``server/bot_ratings.json``,
:func:`publish_ratings`), so the page and the ratings a person is rated against never
disagree. With ``--only``, a section that has no cache (a fresh checkout has none) keeps what
the page and the ratings file showed (:func:`keep_unmeasured`), so rerunning one section never
erases the others.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gameshelf.agents import AGENTS, LEVELS, make_agent
from gameshelf.agents.base import Agent, agent_factory, register_agent
from gameshelf.agents.levels import level_spec
from gameshelf.agents.solver import solve
from gameshelf.arena.report import report_text
from gameshelf.arena.tournament import TournamentConfig, run_tournament, text_progress
from gameshelf.core.registry import load

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "strength"
PAGE = ROOT / "docs" / "strength.md"
RATINGS = ROOT / "src" / "gameshelf" / "server" / "bot_ratings.json"
COMMAND = ".venv/bin/python -m tools.strength"
"""How this tool is run (the page names it, with ``--only``, for each section)."""
NOT_MEASURED = "not measured yet"
"""What the page shows for a run without numbers: no cache, or one made for another
configuration of the run."""
RATED_RUNS: dict[str, tuple[str, ...]] = {
    "cage-2p-greedy": ("cage-2p-random",),
    "cage-3p": ("cage-3p-others",),
    "cage-4p": ("cage-4p-others",),
    "axiom-greedy": ("axiom-random",),
    "axia-2p-greedy": ("axia-2p-random",),
    "axia-3p": ("axia-3p-others",),
    "axia-4p": (),
}
"""The runs whose ratings the server publishes, each with the runs linked to it: per game and
player count, the table where ``hard`` meets the server's bots (the OpenSpiel matches measure an
outside program), and runs of the weaker bots that share a bot with it."""
OUTSIDE_AGENTS = frozenset(
    {"openspiel-mcts", "openspiel-mcts-5x", "axiom-previous-hard", "axiom-classic"}
)
"""Agents of the page that a server seat cannot hold: they get no published rating."""
COPIES: dict[str, str] = {"hard-2": "hard", "openspiel-mcts-2": "openspiel-mcts"}
"""Second seats of one bot at a table of strong players: the arena seats (and rates) distinct
names only, so a copy is the same bot under another name (each seat draws its own seed)."""
MCTS_TIMES = "openspiel-mcts-5x"
"""OpenSpiel's MCTSBot on a fixed count: :data:`MCTS_MULTIPLE` times the simulations it makes in
``master``'s time a move, measured on this machine when a run seats it (:func:`calibrate`)."""
MCTS_MULTIPLE = 5
CALIBRATION_POSITIONS = ((1, 0), (2, 6), (3, 14))
"""(seed, plies) of the positions MCTSBot's simulations a move are counted on."""
FAIR_MULTIPLE = 1.5
"""How many fair shares of the decided games a run's judged bot must win at a table of three or
more."""


@dataclass(frozen=True)
class Run:
    """One arena run of the page, with its target for ``judged`` (``hard`` unless named) where it
    has one.

    ``target``: the share of its games ``judged`` must win; ``fair``: at a table of three or more
    (every agent seated at one table, ``judged`` once), the fair shares of the decided games
    ``judged`` must win, its rating and mean place being the table's best as well
    (:func:`fair_verdict`);
    ``band``: the range its mean score must fall in (solo AXIA); ``seating``: how a table of
    three or more is seated (``all`` turn orders, or the listed one rotated: the AXIA
    multi-player runs, measured so before the arena went through every order and not yet
    remeasured, 23 minutes each); ``note``: a paragraph printed under the run's tables (what a
    reader needs to read them).
    """

    slug: str
    game: str
    agents: tuple[str, ...]
    games: int
    title: str
    target: float | None = None
    fair: float | None = None
    band: tuple[float, float] | None = None
    seating: str = "all"
    note: str = ""
    judged: str = "hard"


SLAYER = (111.0, 150.0)
"""The rulebook's solo Slayer band (mean score)."""

RUNS: tuple[Run, ...] = (
    Run(
        "cage-2p-openspiel",
        "cage",
        ("hard", "openspiel-mcts"),
        # Twice the games of the other two-player runs: half as many spread too widely to tell
        # hard's rate from its target.
        60,
        "Cage, 2 players: hard vs OpenSpiel MCTSBot, equal time a move",
        target=0.80,
    ),
    Run(
        "cage-2p-greedy",
        "cage",
        ("hard", "greedy"),
        40,
        "Cage, 2 players: hard vs greedy",
        target=0.95,
    ),
    Run(
        "cage-3p",
        "cage(players=3)",
        ("hard", "openspiel-mcts", "greedy"),
        24,
        "Cage, 3 players: hard, OpenSpiel MCTSBot and greedy at one table, every seating",
        fair=FAIR_MULTIPLE,
        note="A mixed table: whoever moves right after `greedy` is handed lines, so the target "
        "asks for the table's best rating and mean place over every seating and a win share "
        "well above a fair one, not a share of all games. With `random` seated instead, "
        "whoever moves right after it won every game of that order (hard, medium and greedy "
        'alike; "Cage, 3 players: hard, medium and random" below).',
    ),
    Run(
        "cage-4p",
        "cage(players=4)",
        ("hard", "openspiel-mcts", "medium", "greedy"),
        # Two games per turn order and seat rather than one: half as many spread too widely to
        # tell the bots' ratings apart.
        48,
        "Cage, 4 players: hard, OpenSpiel MCTSBot, medium and greedy, every seating",
        fair=FAIR_MULTIPLE,
        note="A mixed table: the player who moves right after `greedy` is handed lines and wins "
        "most games of its turn order, whichever bot it is (docs/agents.md), so a share of all "
        "games measures the seating. The target asks instead for the table's best rating and "
        "mean place over every seating and a win share well above a fair one. The section "
        '"the levels alone" below shows the seating effect with the server\'s own levels.',
    ),
    Run(
        "cage-3p-strong",
        "cage(players=3)",
        ("hard", "openspiel-mcts", "openspiel-mcts-2"),
        24,
        "Cage, 3 players, strong players only: hard and two OpenSpiel MCTSBots, every seating",
        fair=FAIR_MULTIPLE,
        note="No careless seat: both others are OpenSpiel's MCTSBot at hard's time a move "
        "(`openspiel-mcts-2` is a second copy), and hard sits once, so the mixed tables' "
        "target applies unchanged. Among careful players many games end drawn (a position "
        "seen twice, the last drop or the ply cap draws them; the D column), so the win "
        "share and much of the rating rest on the few decided games.",
    ),
    Run(
        "cage-4p-strong",
        "cage(players=4)",
        ("hard", "hard-2", "openspiel-mcts", "openspiel-mcts-2"),
        24,
        "Cage, 4 players, strong players only: two hard and two OpenSpiel MCTSBots, every seating",
        note="No target, shown only: each bot holds two seats (`hard-2` and `openspiel-mcts-2` "
        "are copies under another name), and a copy of hard is its equal by construction, so "
        "no one seat can be asked to be the table's best. Read it as hard's pair against "
        "MCTSBot's pair, and by turn order: next to its copy, or between the two others. As "
        "at three players, careful play draws many games (the D column), so few are decided.",
    ),
    Run("axiom-greedy", "axiom", ("hard", "greedy"), 40, "Axiom: hard vs greedy", target=0.95),
    Run(
        "axiom-openspiel",
        "axiom",
        ("hard", "openspiel-mcts"),
        20,
        "Axiom: hard vs OpenSpiel MCTSBot, equal time a move",
        target=0.90,
    ),
    Run(
        "axiom-previous-hard",
        "axiom",
        ("hard", "axiom-previous-hard"),
        20,
        "Axiom: hard vs the previous hard (alpha-beta depth 3, 6,000 nodes, 1.6 s cap)",
    ),
    Run(
        "axiom-classic",
        "axiom",
        ("hard", "axiom-classic"),
        # Few games because each is long (a game that neither side breaks through runs to the
        # ply cap at the classical engine's pace); half as many could not tell the rate apart
        # from the target.
        20,
        "Axiom: hard vs a classical alpha-beta given 3x hard's time a move",
        target=0.80,
    ),
    Run(
        "axia-2p-greedy",
        "axia",
        ("hard", "greedy"),
        40,
        "AXIA, 2 players: hard vs greedy",
        target=0.95,
    ),
    Run(
        "axia-3p",
        "axia(players=3)",
        ("hard", "greedy", "easy"),
        24,
        "AXIA, 3 players: hard against two greedy players (easy is greedy), seats rotated",
        target=0.95,
        seating="rotate",
    ),
    Run(
        "axia-4p",
        "axia(players=4)",
        ("hard", "greedy", "easy", "random"),
        24,
        "AXIA, 4 players: hard against two greedy players and random, seats rotated",
        target=0.95,
        seating="rotate",
    ),
    Run(
        "cage-master-hard",
        "cage",
        ("master", "hard"),
        20,
        "Cage, 2 players: master vs hard, equal time a move",
        target=0.70,
        judged="master",
    ),
    Run(
        "cage-master-greedy",
        "cage",
        ("master", "greedy"),
        20,
        "Cage, 2 players: master vs greedy",
        target=0.95,
        judged="master",
    ),
    Run(
        "cage-master-openspiel",
        "cage",
        ("master", MCTS_TIMES),
        10,
        f"Cage, 2 players: master vs OpenSpiel MCTSBot given {MCTS_MULTIPLE}x the simulations "
        "it makes in master's time",
        target=0.90,
        judged="master",
    ),
    Run(
        "cage-3p-master",
        "cage(players=3)",
        ("master", "openspiel-mcts", "greedy"),
        24,
        "Cage, 3 players: master, OpenSpiel MCTSBot and greedy at one table, every seating",
        fair=FAIR_MULTIPLE,
        note="The mixed table of hard's three-player run above with `master` in hard's seat, "
        "judged by the same target.",
        judged="master",
    ),
    Run(
        "cage-4p-master",
        "cage(players=4)",
        ("master", "openspiel-mcts", "medium", "greedy"),
        # One game per turn order and seat, half of hard's four-player run: each game of four
        # players thinking a second a move takes about a minute on this 2-core machine.
        24,
        "Cage, 4 players: master, OpenSpiel MCTSBot, medium and greedy, every seating",
        fair=FAIR_MULTIPLE,
        note="The mixed table of hard's four-player run above with `master` in hard's seat, "
        "one game per seating instead of two, judged by the same target.",
        judged="master",
    ),
    Run(
        "cage-3p-master-strong",
        "cage(players=3)",
        ("master", "hard", "openspiel-mcts"),
        24,
        "Cage, 3 players, strong players only: master, hard and OpenSpiel MCTSBot, every seating",
        fair=FAIR_MULTIPLE,
        note="No careless seat: `master` against hard and OpenSpiel's MCTSBot, all three on "
        "hard's time a move, and it sits once, so the mixed tables' target applies. "
        "Draws (the D column) leave the win share to the decided games.",
        judged="master",
    ),
    Run(
        "cage-4p-master-strong",
        "cage(players=4)",
        ("master", "hard", "openspiel-mcts", "openspiel-mcts-2"),
        24,
        "Cage, 4 players, strong players only: master, hard and two OpenSpiel MCTSBots, "
        "every seating",
        fair=FAIR_MULTIPLE,
        note="No careless seat, and `master` sits once (`openspiel-mcts-2` is a second copy of "
        "MCTSBot), so the target applies here, unlike at hard's four-player table of strong "
        "players. Draws (the D column) leave the win share to the decided games.",
        judged="master",
    ),
    Run(
        "axiom-master-hard",
        "axiom",
        ("master", "hard"),
        10,
        "Axiom: master vs hard, equal time a move",
        target=0.70,
        judged="master",
    ),
    Run(
        "axiom-master-greedy",
        "axiom",
        ("master", "greedy"),
        10,
        "Axiom: master vs greedy",
        target=0.95,
        judged="master",
    ),
    Run(
        "axiom-master-openspiel",
        "axiom",
        ("master", MCTS_TIMES),
        10,
        f"Axiom: master vs OpenSpiel MCTSBot given {MCTS_MULTIPLE}x the simulations it makes "
        "in master's time",
        target=0.90,
        judged="master",
    ),
    Run("cage-2p-random", "cage", ("greedy", "random"), 20, "Cage, 2 players: greedy vs random"),
    Run(
        "cage-3p-others",
        "cage(players=3)",
        ("hard", "medium", "random"),
        12,
        "Cage, 3 players: hard, medium and random",
    ),
    Run(
        "cage-4p-others",
        "cage(players=4)",
        ("medium", "easy", "greedy", "random"),
        12,
        "Cage, 4 players: medium, easy, greedy and random",
    ),
    Run(
        "cage-4p-levels",
        "cage(players=4)",
        # No outside program: the server's own levels only. What it shows is the seating, not
        # the bots: whoever moves right after greedy wins many of that order's games, even easy.
        ("hard", "medium", "easy", "greedy"),
        48,
        "Cage, 4 players: hard, medium, easy and greedy (the levels alone), every seating",
        note="No target: the server's own levels only, to read by turn order. Whoever moves "
        "right after `greedy` wins many of its order's games, `easy` (150 playouts) included.",
    ),
    Run("axiom-random", "axiom", ("greedy", "random"), 20, "Axiom: greedy vs random"),
    Run("axia-2p-random", "axia", ("greedy", "random"), 20, "AXIA, 2 players: greedy vs random"),
    Run(
        "axia-3p-others",
        "axia(players=3)",
        ("greedy", "easy", "random"),
        12,
        "AXIA, 3 players: greedy, easy and random",
    ),
    Run(
        "axia-solo",
        "axia(players=1)",
        ("greedy", "hard"),
        10,
        "AXIA solo: each agent plays the same 10 seeded games",
        band=SLAYER,
    ),
)

RUNS_BY_SLUG = {run.slug: run for run in RUNS}

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

TIMING_GAMES = (
    "cage",
    "cage(players=3)",
    "cage(players=4)",
    "axiom",
    "axia",
    "axia(players=3)",
    "axia(players=4)",
    "axia(players=1)",
)
TIMING_POSITIONS = ((1, 6), (2, 6), (3, 6), (4, 14), (5, 14))
"""(seed, plies) of the positions each level is timed on: three openings, two middle games."""
OVER_BUDGET = 2.0
"""A level's worst move may take at most this many times its budget."""


def run_arena(run: Run, jobs: int) -> dict[str, Any]:
    """Play one run and return its cached numbers (table text and summary)."""
    register_copies(run.agents)
    simulations = register_calibrated(run) if MCTS_TIMES in run.agents else None
    clock = time.perf_counter()
    config = TournamentConfig(
        run.game,
        list(run.agents),
        run.games,
        seed=2026,
        jobs=jobs,
        out=CACHE / run.slug,
        seating=run.seating,
    )
    result = run_tournament(config, text_progress())
    return {
        "title": run.title,
        "game": result.game_string,
        "games": len(result.results),
        "table": report_text(result),
        "summary": result.summary()["table"],
        "wall_seconds": time.perf_counter() - clock,
        "simulations": simulations,
    }


def register_copies(agents: Iterable[str]) -> None:
    """Make the :data:`COPIES` among ``agents`` available to the arena. Done only for a run
    that seats one, so that no other listing of the bots shows them; the arena's worker
    processes are forked from this one and inherit the names."""
    for name in agents:
        original = COPIES.get(name)
        if original is not None and name not in AGENTS:
            register_agent(name, agent_factory(original))


def calibrate(game_string: str, seconds: float) -> int:
    """The simulations OpenSpiel's MCTSBot makes in ``seconds`` a move on this machine: the mean
    over :data:`CALIBRATION_POSITIONS` (the start, an opening, a middle game)."""
    from gameshelf.arena.opponents import OpenSpielMCTSAgent

    game = load(game_string)
    counts = []
    for seed, plies in CALIBRATION_POSITIONS:
        bot = OpenSpielMCTSAgent(game, seed, time_limit=seconds)
        bot.step(midgame(game_string, seed, plies))
        counts.append(bot.last_simulations)
    return max(1, round(sum(counts) / len(counts)))


def register_calibrated(run: Run) -> int:
    """Register :data:`MCTS_TIMES` for ``run``'s game: MCTSBot on :data:`MCTS_MULTIPLE` times the
    simulations it makes in ``master``'s time a move; return that count. The arena's worker
    processes are forked from this one and inherit the registration."""
    from gameshelf.arena.opponents import OpenSpielMCTSAgent

    seconds = level_spec(load(run.game), "hard").time_limit  # master plays on hard's clock
    simulations = MCTS_MULTIPLE * calibrate(run.game, seconds)

    def build(game: Any, seed: int | None) -> Agent:
        return OpenSpielMCTSAgent(game, seed, simulations=simulations)

    register_agent(MCTS_TIMES, build)
    return simulations


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
    """Seconds per decision of each level (on its own clock) on five positions per game."""
    rows = []
    for game_string in TIMING_GAMES:
        game = load(game_string)
        positions = [midgame(game_string, seed, plies) for seed, plies in TIMING_POSITIONS]
        for level in LEVELS:
            times = []
            for index, state in enumerate(positions):
                agent = make_agent(level, game, seed=index)
                clock = time.perf_counter()
                agent.step(state)
                times.append(time.perf_counter() - clock)
            spec = level_spec(game, level)
            rows.append(
                {
                    "game": game.game_string,
                    "level": level,
                    "algorithm": spec.describe(),
                    "budget": spec.seconds,
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


def _section(
    slug: str, compute: Callable[[], dict[str, Any]], only: set[str] | None, key: str = ""
) -> Any:
    """Compute a section (all sections without ``--only``, else those it names) and cache it;
    otherwise read its cache. A cache made for another configuration (``key``) is stale and
    shows as not measured."""
    path = CACHE / f"{slug}.json"
    if only is None or slug in only:
        data = compute()
        data["key"] = key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
        return data
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key", "") == key:
            return data
    return None


def run_key(run: Run) -> str:
    """What a cached arena section was measured with (a changed run invalidates it). Runs of
    three or more players name their seating: until it went through every turn order they
    rotated one order only."""
    key = f"{run.game}|{','.join(run.agents)}|{run.games}"
    if run.seating == "all" and load(run.game).spec.num_players > 2:
        key += "|every turn order"
    return key


def render(arenas: list[tuple[Run, Any]], timing: Any, ladder_data: Any) -> str:
    """The Markdown page."""
    out = [
        "# Bot strength (measured)",
        "",
        f"Regenerate with `{COMMAND}` (about three hours on 2 cores); each target",
        "below names the one command that remeasures it. Levels think for a time per move, so",
        "these runs depend on the machine's speed and load (the equal-time OpenSpiel matches do",
        "not: both sides get the same seconds). Every arena run",
        "uses tournament seed 2026, rotates seats game by game (with three or more players",
        "through every turn order, each rotated: who moves right after whom decides much of",
        "those games, so each such run also shows the wins under each order; the AXIA runs",
        "titled 'seats rotated' still rotate one order), and saves its records, summary,",
        "table and chart under `build/strength/<run>/`. Levels are defined in",
        "`src/gameshelf/agents/levels.py` and described in `docs/agents.md`. Another",
        "program (an external Axiom engine, say) plays the same matches when seated by",
        '`gameshelf arena ... --engine NAME=COMMAND` (docs/agents.md, "External engines").',
        f"Measured on: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, 2 games at a time on 2 cores.",
        "",
        "Most sections ran while other work shared the machine (a load of 10-14 on its 2",
        "cores), so seconds per move are upper bounds. s/move in the arena tables is measured",
        "with two games running at once.",
        "",
        "W/D/L are counted per seat: best result and not all equal is a win, all equal a draw.",
        "Ratings are openskill Plackett-Luce (mu ± sigma) from placements, updated game by game.",
        "The server's fixed bot ratings (`src/gameshelf/server/bot_ratings.json`) are written",
        'from these runs at the same time (docs/server.md, "Accounts, players and ratings").',
        "",
        *_fair_rule(),
    ]
    out += _targets(arenas, timing)
    for run, data in arenas:
        out.append(f"## {run.title}")
        out.append("")
        if data is None:
            out += [f"{NOT_MEASURED.capitalize()}: {command(run.slug)} measures it.", ""]
            continue
        out.append(
            f"`{data['game']}`, {data['games']} games, {data['wall_seconds']:.0f} s wall. "
            f"Reproduce: {command(run.slug)}." + _calibration(data)
        )
        out += ["", data["table"], ""]
        out += _after_tables(run)
    out += ["## Seconds per move by level", ""]
    if timing is not None:
        out += ["| game | level | search and budget | mean s | max s |", "|---|---|---|---|---|"]
        for row in timing["rows"]:
            out.append(
                f"| `{row['game']}` | {row['level']} | {row['algorithm']} | "
                f"{row['mean']:.2f} | {row['max']:.2f} |"
            )
        out.append("")
        out.append(
            "Five positions per game (three openings after 6 random plies, two middle games "
            "after 14), one decision each on the level's own clock, one process: "
            + command("move-times")
            + "."
        )
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


def _calibration(data: dict[str, Any]) -> str:
    """What a run that seats the calibrated MCTSBot gave it (empty for other runs)."""
    simulations = data.get("simulations")
    if not simulations:
        return ""
    return (
        f" MCTSBot ran {simulations:,} simulations a move: {MCTS_MULTIPLE}× the mean it made in "
        "master's time on three positions of this machine, counted just before the run."
    )


def _fair_rule() -> list[str]:
    """The paragraph that defines the Cage's multi-player target (and says why it is so)."""
    return [
        "**Tables of three and four players (the Cage).** Who moves right after a careless",
        "player (greedy, random) is handed lines and wins most games of that turn order,",
        "whoever sits there, so a share of all games (the former target, hard wins ≥ 75%)",
        "measured the seating, not the bot. A game is *decided* when its seats did not all",
        "finish equal (D counts the others, the same for every seat of a table); a *fair share*",
        "is 1/players of the decided games, what one seat wins on average when the seats",
        "decide; a *win share* is a bot's wins over the decided games (a win shared by several",
        "seats counts for each). Over every seating of a table, the target is: the judged",
        "bot's rating (mu) and mean place are the table's best, and its win share is at least",
        f"{FAIR_MULTIPLE:g}× a fair share. Each table judges one bot, named in its target row:",
        "hard, or `master` (the self-play level, `src/gameshelf/learn/`), which plays the",
        "Cage at three and four players as well as at two. Mixed tables seat the judged bot",
        "with OpenSpiel's MCTSBot at equal time, medium and greedy; tables of strong players",
        "only (every seat hard, master or MCTSBot, a second copy of a bot under its name with",
        "`-2`) show it where no seat gives games away.",
        "",
    ]


def _arena_job(run: Run, jobs: int) -> Callable[[], dict[str, Any]]:
    def job() -> dict[str, Any]:
        return run_arena(run, jobs)

    return job


SOLO_BANDS = (
    "The rulebook's solo Slayer ranks: Apprentice 0-80, Novice 81-110, Slayer 111-150, "
    "Elite 151-200, Legend 201+."
)


def _after_tables(run: Run) -> list[str]:
    """The lines a run's section prints under its tables (its note; solo AXIA's rank bands)."""
    lines = [run.note, ""] if run.note else []
    if run.slug == "axia-solo":
        lines += [SOLO_BANDS, ""]
    return lines


def _renoted(block: str, run: Run) -> str:
    """A kept section (``block``, as an older page showed it) with its measured part as it
    was and, under its tables, what this version of the page prints there."""
    lines = block.rstrip("\n").split("\n")
    last_table_line = max(i for i, line in enumerate(lines) if line.startswith("|"))
    kept = lines[: last_table_line + 1]
    return "\n".join([*kept, "", *_after_tables(run)]).rstrip("\n")


def command(slug: str) -> str:
    """The one command that remeasures a section (and rebuilds this page)."""
    return f"`{COMMAND} --only {slug}`"


def _targets(arenas: list[tuple[Run, Any]], timing: Any = None) -> list[str]:
    """Every target of the page as a row: the measured result, whether it is met, the command."""
    out = ["## Targets", ""]
    out += ["| target | measured | met | reproduce |", "|---|---|---|---|"]
    for run, data in arenas:
        if run.target is None and run.fair is None and run.band is None:
            continue
        if data is None:
            out.append(f"| {run.title} | {NOT_MEASURED} | – | {command(run.slug)} |")
            continue
        mine = next(r for r in data["summary"] if r["agent"] == run.judged)
        if run.fair is not None:
            judged = fair_verdict(data["summary"], run.fair, run.judged)
            goal, measured, met = judged.goal(), judged.measured(), judged.met
        elif run.target is not None:
            rate = mine["wins"] / mine["games"]
            goal = f"{run.judged} wins ≥ {run.target:.0%}"
            measured = f"{mine['wins']}/{mine['games']} ({rate:.0%})"
            met = rate >= run.target
        else:
            assert run.band is not None
            low, high = run.band
            mean = mine.get("mean_score")
            goal = f"{run.judged}'s mean score in {low:g}–{high:g}"
            measured = "no scores" if mean is None else f"mean {mean:.1f} over {mine['games']}"
            met = mean is not None and low <= mean <= high
        verdict = "yes" if met else "**no**"
        out.append(f"| {run.title}: {goal} | {measured} | {verdict} | {command(run.slug)} |")
    if timing is not None:
        by_game: dict[str, list[dict[str, Any]]] = {}
        for row in timing["rows"]:
            if row.get("budget"):
                by_game.setdefault(row["game"], []).append(row)
        for game, rows in by_game.items():
            worst = max(rows, key=lambda r: r["max"] / r["budget"])
            ratio = worst["max"] / worst["budget"]
            verdict = "yes" if ratio <= OVER_BUDGET else "**no**"
            out.append(
                f"| `{game}`: every level's worst move ≤ {OVER_BUDGET:g}× its budget | "
                f"worst {ratio:.2f}× ({worst['level']}: {worst['max']:.2f} s of "
                f"{worst['budget']:g} s) | {verdict} | {command('move-times')} |"
            )
    return [*out, ""]


@dataclass(frozen=True)
class FairVerdict:
    """The multi-player target judged on one table's summary rows (see :func:`fair_verdict`);
    ``judged`` names the bot it judges."""

    judged: str
    multiple: float
    players: int
    wins: int
    decided: int
    rating: float
    best_other_rating: float
    place: float
    best_other_place: float

    @property
    def needed(self) -> float:
        """The win share to reach: ``multiple`` fair shares, a fair share being 1/players."""
        return self.multiple / self.players

    @property
    def met(self) -> bool:
        """Best rating and best mean place (both strictly) and a win share of ``needed``."""
        best_rated = self.rating > self.best_other_rating
        best_placed = self.place < self.best_other_place
        return best_rated and best_placed and self.wins >= self.needed * self.decided > 0

    def goal(self) -> str:
        """The target as the page states it."""
        return (
            f"{self.judged}'s rating and mean place the table's best, and it wins "
            f"≥ {self.multiple:g}× a fair share of the decided games (≥ {self.needed:.1%})"
        )

    def measured(self) -> str:
        """What was measured, next to the best of the other seats."""
        share = f"{self.wins / self.decided:.0%}" if self.decided else "none decided"
        return (
            f"rating {self.rating:.2f} (next best {self.best_other_rating:.2f}); mean place "
            f"{self.place:.2f} (next best {self.best_other_place:.2f}); wins "
            f"{self.wins}/{self.decided} decided ({share})"
        )


def fair_verdict(summary: list[dict[str, Any]], multiple: float, judged: str) -> FairVerdict:
    """Judge the bot ``judged`` on a table's summary rows (one row per agent, every agent
    seated in every game, every seating played).

    A game is decided when its seats did not all finish equal; the rows' ``draws`` count the
    others (the same for every agent at one table). A fair share of the decided games is
    1/players of them: what any one seat wins on average when seats, not players, decide.
    ``wins`` are the arena's, a win shared by several seats counting for each of them.
    """
    rows = {row["agent"]: row for row in summary}
    if judged not in rows or len(rows) < 3:
        raise ValueError(
            f"a fair target needs {judged} at a table of three or more, got {sorted(rows)}"
        )
    mine = rows.pop(judged)
    return FairVerdict(
        judged=judged,
        multiple=multiple,
        players=len(rows) + 1,
        wins=mine["wins"],
        decided=mine["games"] - mine["draws"],
        rating=mine["rating_mu"],
        best_other_rating=max(row["rating_mu"] for row in rows.values()),
        place=mine["mean_placement"],
        best_other_place=min(row["mean_placement"] for row in rows.values()),
    )


def main(argv: list[str] | None = None) -> int:
    """Run the sections (all, or those named by ``--only``) and write the page."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--only",
        default=None,
        help="measure only these comma-separated sections (the others come from their caches); "
        "'none' rebuilds the page from the caches. Sections: "
        + ", ".join([*(run.slug for run in RUNS), "move-times", "ladder"]),
    )
    args = parser.parse_args(argv)
    only = None if args.only is None else set(args.only.split(","))
    known = {run.slug for run in RUNS} | {"move-times", "ladder", "none"}
    if only is not None and only - known:
        parser.error(f"--only: unknown section {sorted(only - known)[0]!r}; known: {sorted(known)}")
    arenas = []
    for run in RUNS:
        print(f"== {run.slug}", flush=True)
        arenas.append((run, _section(run.slug, _arena_job(run, args.jobs), only, run_key(run))))
    timing = _section("move-times", lambda: move_times(args.jobs), only)
    ladder_data = _section("ladder", lambda: ladder(args.jobs), only)
    page = render(arenas, timing, ladder_data)
    ratings = publish_ratings(arenas)
    if only is not None:
        # A section without a cache (a fresh checkout) keeps what the page and the published
        # ratings showed: rerunning one section must not erase the others.
        page = keep_unmeasured(page, _read(PAGE), arenas, timing, ladder_data)
        ratings = keep_unmeasured_ratings(ratings, _read(RATINGS), arenas)
    PAGE.write_text(page, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    RATINGS.write_text(json.dumps(ratings, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RATINGS.relative_to(ROOT)}")
    return 0


def _read(path: Path) -> str:
    """``path``'s text, or ``""`` if there is no such file."""
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _blocks(page: str) -> dict[str, str]:
    """The page's ``## `` sections by heading, each with its heading and text."""
    parts = page.split("\n## ")
    return {part.split("\n", 1)[0]: "## " + part for part in parts[1:]}


def keep_unmeasured(
    page: str, old: str, arenas: list[tuple[Run, Any]], timing: Any, ladder_data: Any
) -> str:
    """``page`` with each section that has no numbers this time (and its target rows) as
    ``old`` showed it, where ``old`` has it."""
    if not old:
        return page
    old_blocks = _blocks(old)
    old_rows = [line for line in old.splitlines() if line.startswith("| ")]
    runs = {run.title: run for run, data in arenas if data is None}
    missing = list(runs)
    if timing is None:
        missing.append("Seconds per move by level")
    if ladder_data is None:
        missing.append("Solver ladder")
    for title in missing:
        new_block = _blocks(page).get(title)
        kept = old_blocks.get(title, "").rstrip("\n")
        if title in runs:
            # Only numbers are worth keeping: an old run section without a table said no
            # more than this page's own line for it does.
            kept = _renoted(kept, runs[title]) if "\n|" in kept else ""
        if new_block is not None and kept:
            page = page.replace(new_block.rstrip("\n"), kept, 1)
        row = next((line for line in old_rows if line.startswith(f"| {title}: ")), None)
        stub = next((line for line in page.splitlines() if line.startswith(f"| {title} | ")), None)
        if row is not None and stub is not None:
            page = page.replace(stub, row, 1)
    if timing is None:
        budget_rows = [line for line in old_rows if "every level's worst move" in line]
        table_end = page.index("\n\n", page.index("| target | measured |"))
        page = page[:table_end] + "".join("\n" + row for row in budget_rows) + page[table_end:]
    return page


def keep_unmeasured_ratings(
    ratings: dict[str, Any], old_text: str, arenas: list[tuple[Run, Any]]
) -> dict[str, Any]:
    """``ratings`` plus the entries of ``old_text`` (the published file) that no measured run
    replaces: a pool whose main run has no numbers keeps its old entries as they were; a bot of
    a linked run without numbers keeps its old gap to the bots that run shares with the
    remeasured pool (shifted as :func:`_link` shifts a linked run)."""
    if not old_text:
        return ratings
    old_entries = json.loads(old_text).get("ratings", [])
    measured = {run.slug for run, data in arenas if data is not None}
    entries = list(ratings["ratings"])
    for main, linked in RATED_RUNS.items():
        sources = {main, *linked}
        old_pool = [entry for entry in old_entries if entry["run"] in sources]
        if main not in measured:
            entries += old_pool
            continue
        table = _entry_table(entry for entry in entries if entry["run"] in sources)
        before = set(table)
        for slug in linked:
            if slug not in measured:  # its bots' old gaps, to the bots it shares, are kept
                agents = RUNS_BY_SLUG[slug].agents
                _link(table, _entry_table(e for e in old_pool if e["bot"] in agents))
        old_by_bot = {entry["bot"]: entry for entry in old_pool}
        for bot, (mu, _, source) in sorted(table.items()):
            if bot not in before and source not in measured:
                entries.append({**old_by_bot[bot], "mu": round(mu, 2)})
    pool = {
        slug: index for index, main in enumerate(RATED_RUNS) for slug in (main, *RATED_RUNS[main])
    }
    entries.sort(key=lambda entry: (pool.get(entry["run"], len(pool)), entry["bot"]))
    return {**ratings, "ratings": entries}


def _entry_table(entries: Iterable[dict[str, Any]]) -> dict[str, tuple[float, float, str]]:
    """bot -> (mu, sigma, run) of published rating entries (the form :func:`_link` takes)."""
    return {entry["bot"]: (entry["mu"], entry["sigma"], entry["run"]) for entry in entries}


def publish_ratings(arenas: list[tuple[Run, Any]]) -> dict[str, Any]:
    """The server's published bot ratings, from the cached runs of :data:`RATED_RUNS`.

    Ratings from different runs are on different scales (each run starts everyone at the same
    mu), so a linked run's bots are shifted by the mean difference of the bots it shares with
    the main run: the usual anchoring of one rating pool to another. A bot keeps the number of
    the first run that rates it; a run without a cache (or with no shared bot) publishes
    nothing.
    """
    measured = {run.slug: (run, data) for run, data in arenas if data is not None}
    entries: list[dict[str, Any]] = []
    for main, linked in RATED_RUNS.items():
        if main not in measured:
            continue
        run, data = measured[main]
        game, players = run.game.split("(")[0], len(run.agents)
        table = _ratings_of(main, data)
        for slug in linked:
            if slug in measured:
                _link(table, _ratings_of(slug, measured[slug][1]))
        for bot, (mu, sigma, source) in sorted(table.items()):
            entries.append(
                {
                    "game": game,
                    "players": players,
                    "bot": bot,
                    "mu": round(mu, 2),
                    "sigma": round(sigma, 2),
                    "run": source,
                }
            )
    return {
        "about": "Bots' fixed ratings for rated matches (openskill Plackett-Luce mu, sigma), "
        "written by `python -m tools.strength` from the runs of docs/strength.md; "
        "`run` names the section each number comes from.",
        "ratings": entries,
    }


def _ratings_of(slug: str, data: dict[str, Any]) -> dict[str, tuple[float, float, str]]:
    """bot -> (mu, sigma, run) of one cached run, without the agents a seat cannot hold."""
    return {
        row["agent"]: (row["rating_mu"], row["rating_sigma"], slug)
        for row in data["summary"]
        if row["agent"] not in OUTSIDE_AGENTS
    }


def _link(
    table: dict[str, tuple[float, float, str]], other: dict[str, tuple[float, float, str]]
) -> None:
    """Add ``other``'s bots missing from ``table``, shifted onto ``table``'s scale."""
    shared = [bot for bot in other if bot in table]
    if not shared:
        return
    shift = sum(table[bot][0] - other[bot][0] for bot in shared) / len(shared)
    for bot, (mu, sigma, source) in other.items():
        table.setdefault(bot, (mu + shift, sigma, source))


if __name__ == "__main__":
    raise SystemExit(main())
