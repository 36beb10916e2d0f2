"""Axiom matches for the strength page: the Axiom search against other players, seats alternated.

    .venv/bin/python benchmarks/axiom_strength.py hard greedy --games 40
    .venv/bin/python benchmarks/axiom_strength.py hard openspiel-mcts --games 20
    .venv/bin/python benchmarks/axiom_strength.py hard old-hard --games 20

Players: a level name (``easy`` … ``expert``, as the levels build them), ``greedy``,
``old-hard`` (the alpha-beta settings ``hard`` had before the Axiom search: depth 3, 6,000
nodes, 1.6 s cap), ``openspiel-mcts`` (OpenSpiel's ``MCTSBot`` given ``hard``'s time per move,
or ``--mcts-seconds``), ``search:SECONDS`` (the Axiom search at that time per move) and
``classic:SECONDS`` (the project's generic alpha-beta with the old Axiom evaluator, no depth or
node cap, on that clock: a stand-in for a classical Axiom engine given more time).
Game i gives the first player Black when i is even. Prints wins / draws / losses of the first
player, how the games ended, and each player's mean and worst time per move.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from gameshelf.agents import make_agent
from gameshelf.agents.alphabeta import AlphaBetaAgent
from gameshelf.agents.axiom.search import AxiomSearchAgent
from gameshelf.agents.base import Agent
from gameshelf.core.game import Game
from gameshelf.core.registry import load


def build(name: str, game: Game, seed: int, mcts_seconds: float | None) -> Agent:
    """The player called ``name`` (see the module docstring)."""
    if name == "old-hard":
        return AlphaBetaAgent(game, seed, max_depth=3, node_budget=6000, time_limit=1.6)
    if name.startswith("classic:"):
        seconds = float(name.split(":", 1)[1])
        return AlphaBetaAgent(game, seed, max_depth=64, node_budget=10**9, time_limit=seconds)
    if name.startswith("search:"):
        return AxiomSearchAgent(game, seed, time_limit=float(name.split(":", 1)[1]))
    if name == "openspiel-mcts":
        from gameshelf.arena.opponents import OpenSpielMCTSAgent

        return OpenSpielMCTSAgent(game, seed, time_limit=mcts_seconds)
    return make_agent(name, game, seed)


def play(game: Game, agents: list[Agent]) -> dict[str, Any]:
    """One game; the returns per seat, plies, end reason and move times per seat."""
    state = game.new_initial_state()
    times: list[list[float]] = [[], []]
    while not state.is_terminal():
        seat = state.current_player()
        start = time.perf_counter()
        action = agents[seat].step(state)
        times[seat].append(time.perf_counter() - start)
        state.apply_action(action)
    return {
        "returns": state.returns(),
        "plies": state.ply,  # type: ignore[attr-defined]
        "reason": state.end_reason(),  # type: ignore[attr-defined]
        "times": times,
    }


def main(argv: list[str] | None = None) -> int:
    """Play the match and print its summary (and JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="axiom")
    parser.add_argument("--mcts-seconds", type=float, default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    game = load(args.game)
    tally: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    times: list[list[float]] = [[], []]
    games = []
    start = time.perf_counter()
    for index in range(args.games):
        names = [args.first, args.second] if index % 2 == 0 else [args.second, args.first]
        agents = [
            build(n, game, args.seed * 1000 + index * 2 + k, args.mcts_seconds)
            for k, n in enumerate(names)
        ]
        result = play(game, agents)
        me = 0 if index % 2 == 0 else 1
        score = result["returns"][me]
        outcome = "win" if score > 0 else "loss" if score < 0 else "draw"
        tally[outcome] += 1
        reasons[f"{outcome} by {result['reason']}"] += 1
        times[0] += result["times"][me]
        times[1] += result["times"][1 - me]
        games.append(
            {
                "index": index,
                "first_plays": "black" if me == 0 else "white",
                "outcome": outcome,
                "plies": result["plies"],
                "reason": result["reason"],
            }
        )
        print(
            f"game {index + 1}: {args.first} as {'black' if me == 0 else 'white'}: "
            f"{outcome} ({result['reason']}, {result['plies']} plies)",
            flush=True,
        )
    wall = time.perf_counter() - start
    print(
        f"{args.first} vs {args.second}, {args.games} games: {tally['win']} wins, "
        f"{tally['draw']} draws, {tally['loss']} losses "
        f"({100 * tally['win'] / args.games:.0f}% wins), {wall:.0f} s wall"
    )
    print("ends: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    for name, seconds in zip((args.first, args.second), times, strict=True):
        if seconds:
            print(
                f"{name}: {len(seconds)} moves, mean {sum(seconds) / len(seconds):.2f} s, "
                f"worst {max(seconds):.2f} s"
            )
    if args.json:
        with open(args.json, "w") as out:
            json.dump(
                {
                    "first": args.first,
                    "second": args.second,
                    "tally": dict(tally),
                    "reasons": dict(reasons),
                    "games": games,
                    "wall_s": wall,
                    "worst_s": [max(t, default=0.0) for t in times],
                },
                out,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
