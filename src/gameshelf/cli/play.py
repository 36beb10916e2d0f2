"""Terminal play: any mix of human and bot seats, with undo, save and move lists."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from gameshelf.agents import Agent, make_agent
from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game, State
from gameshelf.core.record import GameRecord, now_iso, record_from_state
from gameshelf.core.rng import derive_seed, make_rng, new_seed

HELP = """commands:
  <move>        play a move in notation (e.g. R3, T1+, F)
  moves         list your legal moves
  board         show the board again
  undo          take back your last move (and the bot moves after it)
  save FILE     save the game so far as a JSON record
  help          this text
  quit          stop the game"""


@dataclass
class Table:
    """A game in progress at the terminal: the state, the seats and the moves so far."""

    game: Game
    seats: list[str]
    seed: int
    state: State
    agents: dict[int, Agent] = field(default_factory=dict)
    started: str = field(default_factory=now_iso)

    def record(self) -> GameRecord:
        """The record of the game so far."""
        return record_from_state(self.state, self.seats, seed=self.seed, started=self.started)


def parse_seats(game: Game, specs: list[str]) -> list[str]:
    """Turn ``--seat 0=human`` options into one agent name per seat (default: human, random)."""
    players = game.spec.num_players
    seats = ["human"] + ["random"] * (players - 1)
    for spec in specs:
        index, sep, name = spec.partition("=")
        if not sep or not index.strip().isdigit():
            raise GameshelfError(f"--seat {spec!r} must look like 0=human or 1=random")
        seat = int(index)
        if not 0 <= seat < players:
            raise GameshelfError(f"--seat {spec!r}: this game has seats 0..{players - 1}")
        seats[seat] = name.strip().lower()
    return seats


def new_table(game: Game, seats: list[str], seed: int | None) -> Table:
    """Set up a table, building a seeded agent for every bot seat."""
    seed = new_seed() if seed is None else seed
    table = Table(game, seats, seed, game.new_initial_state(seed))
    for seat, name in enumerate(seats):
        if name != "human":
            table.agents[seat] = make_agent(name, game, derive_seed(seed, "seat", seat))
    return table


def run_bots(table: Table, rng_seed: int, out: TextIO, quiet: bool, color: bool) -> None:
    """Let chance and bots move until a human is to move or the game ends."""
    rng = make_rng(derive_seed(rng_seed, "chance", len(table.state.history())))
    state = table.state
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            agent = table.agents.get(state.current_player())
            if agent is None:
                return
            action = agent.step(state)
        mover = state.current_player()
        text = state.action_to_string(action)
        state.apply_action(action)
        if not quiet:
            who = table.seats[mover] if mover >= 0 else "chance"
            out.write(f"{state.describe_player(mover)} ({who}) plays {text}\n")
            out.write(state.render(color=color) + "\n\n")


def undo(table: Table) -> str:
    """Take back the last move of the human to move, and everything after it."""
    history = table.state.history()
    human = table.state.current_player()
    replayed = table.game.new_initial_state(table.seed)
    last_human = -1
    for index, action in enumerate(history):
        if replayed.current_player() == human:
            last_human = index
        replayed.apply_action(action)
    if last_human < 0:
        return "nothing to undo: you have not moved yet"
    state = table.game.new_initial_state(table.seed)
    for action in history[:last_human]:
        state.apply_action(action)
    table.state = state
    return f"took back {len(history) - last_human} move(s)"


def interactive(table: Table, read: Callable[[str], str], out: TextIO, color: bool) -> int:
    """Play at the terminal until the game ends or the user quits. Returns an exit status."""
    out.write(table.state.render(color=color) + "\n\n")
    while True:
        run_bots(table, table.seed, out, quiet=False, color=color)
        state = table.state
        if state.is_terminal():
            out.write(f"game over: {state.result_text()}\n")
            return 0
        player = state.current_player()
        try:
            line = read(f"player {player}, your move (help for commands): ").strip()
        except EOFError:
            out.write("\ninput closed; game abandoned\n")
            return 1
        if not line:
            continue
        command, _, argument = line.partition(" ")
        lowered = command.lower()
        if lowered in {"quit", "exit"}:
            out.write("game abandoned\n")
            return 1
        if lowered == "help":
            out.write(HELP + "\n")
        elif lowered == "moves":
            out.write(" ".join(str(m) for m in state.legal_moves()) + "\n")
        elif lowered == "board":
            out.write(state.render(color=color) + "\n")
        elif lowered == "undo":
            out.write(undo(table) + "\n" + table.state.render(color=color) + "\n")
        elif lowered == "save":
            _save(table, argument.strip(), out)
        else:
            try:
                played = state.play(line, player=player)
            except GameshelfError as exc:
                out.write(f"error: {exc}\n")
                continue
            out.write(f"player {player} plays {played}\n" + state.render(color=color) + "\n\n")


def _save(table: Table, path: str, out: TextIO) -> None:
    if not path:
        out.write("error: save needs a file name, e.g. save game.json\n")
        return
    try:
        table.record().save(path)
    except OSError as exc:
        out.write(f"error: cannot save to {path!r}: {exc.strerror}\n")
        return
    out.write(f"saved {len(table.state.history())} moves to {path}\n")


def play_bots_only(table: Table, out: TextIO, quiet: bool, color: bool) -> int:
    """Play a game with bots in every seat."""
    if not quiet:
        out.write(table.state.render(color=color) + "\n\n")
    run_bots(table, table.seed, out, quiet=quiet, color=color)
    out.write(f"{table.state.result_text()} after {len(table.state.history())} moves\n")
    return 0


def default_reader(prompt: str) -> str:
    """Read a line from standard input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line
