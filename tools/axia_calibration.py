"""Measure the AXIA solo calibration: mean final score per policy and its Slayer rank.

    .venv/bin/python -m tools.axia_calibration [--games 150] [--bot-games 40]
        [--policies greedy,planner,easy,medium,hard] [--cards PATH] [--seed 1000]

``greedy`` and ``planner`` are the reference policies of ``gameshelf.agents.axia.policies``;
``easy``/``medium``/``hard``/``expert`` are the bot levels (``gameshelf.agents``). Game ``i`` of
every policy draws its chance from seed ``seed + i``, so policies face the same dice and decks.
The table it prints (Markdown) is the one in ``src/gameshelf/games/axia/data/CALIBRATION.md``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from statistics import mean, pstdev

from gameshelf.agents import make_agent
from gameshelf.agents.axia import policies as axia_policies
from gameshelf.agents.base import AGENTS
from gameshelf.core.registry import load
from gameshelf.games.axia.rules import AxiaState
from gameshelf.games.axia.scoring import solo_rank

REFERENCE = {"greedy": axia_policies.greedy, "planner": axia_policies.planner}


def play(policy: str, game_string: str, seed: int) -> dict[str, int]:
    """One solo game; the score sheet's parts as numbers."""
    game = load(game_string)
    state = game.new_initial_state()
    assert isinstance(state, AxiaState)
    chance_rng, move_rng = random.Random(seed), random.Random(seed + 1)
    agent = None if policy in REFERENCE else make_agent(policy, game, seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(chance_rng))
        elif agent is None:
            state.apply_action(REFERENCE[policy](state, move_rng))
        else:
            state.apply_action(agent.step(state))
    sheet = state.score_sheet(0)
    cards = sheet["scoring_cards"]
    return {
        "total": sheet["total"],
        "cards": sum(row["points"] for row in cards),
        "active": sum(1 for row in cards if row["active"]),
        "beasts": sum(sheet["beasts"].values()),
        "acolytes": sheet["acolytes"],
        "items": sheet["items"],
    }


def measure(policy: str, games: int, game_string: str, seed: int) -> list[dict[str, int]]:
    """``games`` solo games of ``policy``, with a progress line on stderr."""
    rows = []
    began = time.perf_counter()
    for i in range(games):
        rows.append(play(policy, game_string, seed + i))
        elapsed = time.perf_counter() - began
        print(
            f"\r{policy:>8}: {i + 1}/{games} games, mean {mean(r['total'] for r in rows):6.1f}, "
            f"{elapsed:5.0f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return rows


def table_row(policy: str, rows: list[dict[str, int]]) -> str:
    """A Markdown row: games, mean, sd, standard error, the parts, and the rank of the mean."""
    totals = [r["total"] for r in rows]
    avg, sd = mean(totals), pstdev(totals)
    parts = " | ".join(f"{mean(r[k] for r in rows):.1f}" for k in ("cards", "active", "beasts"))
    rest = " | ".join(f"{mean(r[k] for r in rows):.1f}" for k in ("acolytes", "items"))
    return (
        f"| {policy} | {len(rows)} | **{avg:.1f}** | {sd:.1f} | {sd / len(rows) ** 0.5:.1f} | "
        f"{parts} | {rest} | {solo_rank(round(avg))} |"
    )


def main(argv: list[str] | None = None) -> int:
    """Measure each policy and print the Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games for greedy/planner/easy")
    parser.add_argument("--bot-games", type=int, default=40, help="games for medium/hard/expert")
    parser.add_argument("--policies", default="greedy,planner,easy,medium,hard")
    parser.add_argument("--cards", help="a card file to measure instead of the packaged one")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    policies = args.policies.split(",")
    unknown = [p for p in policies if p not in REFERENCE and p not in AGENTS]
    if unknown:
        known = ", ".join(sorted({*REFERENCE, *AGENTS}))
        parser.error(f"unknown policy {', '.join(unknown)}; known: {known}")
    if args.games < 1 or args.bot_games < 1:
        parser.error("--games and --bot-games must be at least 1")
    game_string = f"axia(players=1,cards={args.cards})" if args.cards else "axia(players=1)"
    load(game_string)  # a broken card file fails here, before any game
    lines = [
        "| policy | games | mean | sd | s.e. | scoring cards | active cards | beasts "
        "| acolytes | items | rank of the mean |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for policy in policies:
        cheap = policy in REFERENCE or policy == "easy"
        rows = measure(policy, args.games if cheap else args.bot_games, game_string, args.seed)
        lines.append(table_row(policy, rows))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
