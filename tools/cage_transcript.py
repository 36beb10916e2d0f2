"""Regenerate the terminal transcript in docs/games/cage.md: a human (typing at the prompt)
against the random bot. The human's moves are typed by the greedy agent so the game is
reproducible; everything else is exactly what `gameshelf play cage --seat 1=random` prints.

    .venv/bin/python -m tools.cage_transcript > /tmp/transcript.txt
"""

from __future__ import annotations

import io
import sys

import gameshelf
from gameshelf.agents import make_agent
from gameshelf.cli.play import announce, interactive, new_table


def main() -> None:
    game = gameshelf.load("cage")
    table = new_table(game, ["human", "random"], seed=2026)
    typist = make_agent("greedy", game, seed=7)
    scripted = iter(["moves", "R3", "undo"])
    out = io.StringIO()

    def read(prompt: str) -> str:
        answer = next(scripted, None)
        if answer is None and table.state.is_terminal():
            answer = "quit"  # the game-over prompt: leave, as a player would
        elif answer is None:
            answer = table.state.action_to_string(typist.step(table.state))
        out.write(prompt + answer + "\n")
        return answer

    out.write("$ gameshelf play cage --seat 0=human --seat 1=random --seed 2026\n")
    out.write(announce(table, []) + "\n")  # what gameshelf play prints before the table
    interactive(table, read, out, color=False)
    sys.stdout.write(out.getvalue())


if __name__ == "__main__":
    main()
