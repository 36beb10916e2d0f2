"""The examples of the docs pages that no other test runs: each page's code and shown output
come from the code as it is now (README: tests/test_readme.py; rl.md: tests/rl/test_docs.py;
analysis.md: tests/cli/test_analyse.py; axiom.md's Python: tests/games/axiom/test_notation.py)."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import gameshelf
from gameshelf.core.registry import GameEntry

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GAMESHELF = Path(sys.executable).parent / "gameshelf"


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def blocks(text: str, language: str = "") -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def section(text: str, heading: str) -> str:
    """From the heading to the next heading of any level."""
    start = text.index(heading)
    following = re.search(r"^#", text[start + len(heading) :], re.MULTILINE)
    return text[start : start + len(heading) + (following.start() if following else len(text))]


def test_agents_page_python_example_runs() -> None:
    (code,) = blocks(page("agents.md"), "python")
    namespace: dict[str, typing.Any] = {}
    exec(compile(code, "docs/agents.md", "exec"), namespace)
    assert len(namespace["state"].history()) == 1  # the bot's move was played


def test_protocol_page_game_entry_names_the_entry_fields() -> None:
    """The registration example passes exactly the fields a ``GameEntry`` has."""
    (code,) = blocks(page("protocol.md").replace("\n   ", "\n"), "python")
    keywords = re.findall(r"^    (\w+)=", code, re.MULTILINE)
    assert keywords == [field.name for field in dataclasses.fields(GameEntry)]


def test_server_page_lists_every_frame_type() -> None:
    from gameshelf.server import contract

    def types(union: typing.Any) -> set[str]:
        members = typing.get_args(typing.get_args(union)[0])
        return {typing.get_args(m.model_fields["type"].annotation)[0] for m in members}

    text = page("server.md")
    documented = re.search(r"the outgoing frames are the `ServerFrame`\s+union\s+\(([^)]*)\)", text)
    assert documented, "server.md names the ServerFrame union's members"
    assert set(re.findall(r"`(\w+)`", documented.group(1))) == types(contract.ServerFrame)
    client = section(text, "### Client → server")
    assert set(re.findall(r'^\| `\{"type": "(\w+)"', client, re.MULTILINE)) | {"hello"} == types(
        contract.ClientFrame
    )


def test_axiom_page_terminal_picture_is_the_start() -> None:
    (picture,) = blocks(section(page("games/axiom.md"), "## Terminal picture"))
    assert picture == gameshelf.load("axiom").new_initial_state().render()


def test_cage_page_position_string_and_perft_table() -> None:
    text = page("games/cage.md")
    (position,) = blocks(section(text, "## Position strings"))
    game = gameshelf.load("cage")
    assert game.state_from_position(position.strip()).position() == position.strip()
    rows = re.findall(r"^\| ([234]) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| [\d,]+ \|$", text, re.M)
    assert len(rows) == 3
    for players, *counts in rows:
        state = gameshelf.load(f"cage(players={players})").new_initial_state()
        assert [int(count.replace(",", "")) for count in counts] == perft(state, 3)


def perft(state: typing.Any, depth: int) -> list[int]:
    """Leaf counts at depths 1..depth."""
    counts = [0] * depth

    def walk(node: typing.Any, ply: int) -> None:
        for action in node.legal_actions():
            counts[ply] += 1
            if ply + 1 < depth:
                child = node.clone()
                child.apply_action(action)
                if not child.is_terminal():
                    walk(child, ply + 1)

    walk(state, 0)
    return counts


def test_cage_page_transcript_is_what_gameshelf_play_prints() -> None:
    """The terminal transcript, its typed lines fed to the real command."""
    (transcript,) = blocks(page("games/cage.md"), "text")
    command, shown = transcript.split("\n", 1)
    assert command.startswith("$ gameshelf play ")
    prompt = re.compile(r"(your move \(help for commands\): |game over \([^)]*\): )(.*)\n")
    typed = [answer for _, answer in prompt.findall(shown)]
    assert "undo" in typed and "moves" in typed
    result = subprocess.run(
        [str(GAMESHELF), *command.split()[2:]],
        input="".join(f"{line}\n" for line in typed),
        env={**os.environ, "COLUMNS": "100"},  # the width the transcript was taken at
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers = iter(typed)
    echoed = prompt.pattern.split("(.*)")[0]  # the prompt alone: the command echoes no input
    printed = re.sub(echoed, lambda match: f"{match.group(0)}{next(answers)}\n", result.stdout)
    assert printed == shown


def test_agents_page_engine_transcript_is_what_the_engine_answers() -> None:
    """The engine protocol example of agents.md, run: the answers shown are the answers given."""
    text = section(page("agents.md"), "## External engines")
    (command,) = [block for block in blocks(text, "sh") if "| gameshelf engine" in block]
    (shown,) = blocks(text, "text")
    env = {**os.environ, "PATH": f"{GAMESHELF.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    assert done.stdout == shown
