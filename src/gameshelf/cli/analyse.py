"""``gameshelf analyse``: the best moves of a position, or of every ply of a game record.

For each decision it prints the best moves with their values (the expected score of the player
to move, as a percentage, or the proven result), each move's principal variation, and — on a
record — how much value the played move lost (``inaccuracy``, ``mistake``, ``blunder``; the
thresholds are in :mod:`gameshelf.agents.analysis`). ``--json`` prints the same as data.
See ``docs/analysis.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from itertools import groupby
from typing import Any, TextIO

from gameshelf.agents.analysis import (
    Analyser,
    MoveAnalysis,
    PlyAnalysis,
    analyse_game,
    analyser_for,
    check_analysable,
)
from gameshelf.core.errors import GameshelfError, InvalidRecord
from gameshelf.core.game import State
from gameshelf.core.record import load_record, replay
from gameshelf.core.registry import load

from .files import position_text
from .play import hidden_event

MAX_SECONDS = 3600.0
MAX_TOP = 50


def add_analyse_parser(sub: Any) -> None:
    """Register ``analyse`` on the ``gameshelf`` sub-command parser."""
    command = sub.add_parser(
        "analyse",
        help="best moves, values and principal variations of a position or a whole record",
        description="Analyse a position (default: the start) or every ply of a game record: "
        "the best moves with their values (win probability of the player to move, or a proven "
        "win/draw/loss) and principal variations; on a record the moves that lost value are "
        "marked inaccuracy/mistake/blunder. Hidden-card games are analysed from the view of "
        "the player to move only.",
    )
    command.add_argument("game", help="game string, e.g. cage or 'axia(players=2)'")
    where = command.add_mutually_exclusive_group()
    where.add_argument(
        "--position", metavar="P", help="position string, or a file holding one (default: start)"
    )
    where.add_argument(
        "--record", metavar="FILE", help="a game record (JSON) to analyse ply by ply"
    )
    command.add_argument(
        "--seconds", type=float, default=1.0, help="search time per position (default 1)"
    )
    command.add_argument("--top", type=int, default=3, help="best moves shown (default 3)")
    command.add_argument(
        "--seat", type=int, help="record: only this seat's decisions (0 = player 1)"
    )
    command.add_argument(
        "--seed",
        type=int,
        default=0,
        help="search seed; also draws the dice and cards of a start that begins with them "
        "(default 0)",
    )
    command.add_argument("--json", action="store_true", help="print JSON instead of text")
    command.set_defaults(func=cmd_analyse)


def _check_numbers(args: argparse.Namespace) -> None:
    seconds = args.seconds
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise GameshelfError(
            f"--seconds must be above 0 and at most {MAX_SECONDS:g}, not {seconds}"
        )
    if not 1 <= args.top <= MAX_TOP:
        raise GameshelfError(f"--top must be between 1 and {MAX_TOP}, not {args.top}")


def cmd_analyse(args: argparse.Namespace) -> int:
    """Analyse a position or a record and print the result."""
    _check_numbers(args)
    game = load(args.game)
    if args.seat is not None and not 0 <= args.seat < game.spec.num_players:
        raise GameshelfError(
            f"--seat must be a seat of {game.game_string} (0..{game.spec.num_players - 1}), "
            f"not {args.seat}"
        )
    analyser = analyser_for(game, args.seed)
    if args.record is not None:
        return _analyse_record(args, analyser)
    if args.seat is not None:
        raise GameshelfError("--seat goes with --record")
    state = _position(game, args.position)
    drawn = draw_start_chance(state, args.seed) if args.position is None else []
    hidden = game.spec.hidden_information
    check_analysable(state)
    moves = analyser.analyse(state, args.seconds, args.top)
    if args.json:
        data = {
            "game": game.game_string,
            # A drawn start of a hidden-card game is the whole deal: it stays with --seed.
            "position": None if drawn and hidden else state.position(),
            "to_move": state.current_player(),
            "chance": drawn,
            "moves": [move_json(m) for m in moves],
        }
        print(json.dumps(data, indent=2))
        return 0
    if drawn:
        print(f"the start's chance, drawn with --seed {args.seed}: {summarise_events(drawn)}")
    print(f"{game.game_string}: {state.describe_player(state.current_player())} to move")
    _print_moves(moves, sys.stdout)
    return 0


def _position(game: Any, position: str | None) -> State:
    if position is None:
        state: State = game.new_initial_state(0)
        return state
    loaded: State = game.state_from_position(position_text(position).strip())
    return loaded


def draw_start_chance(state: State, seed: int) -> list[str]:
    """Play the chance moves that open a game (AXIA's deal) with ``seed``; what the player then
    to move may know of them (a draw only others see is named by who sees it, not what it is).

    Analysing "the start" of such a game means its first decision, which needs that deal:
    drawing it from the seed the user gave keeps the run reproducible and says what was drawn.
    """
    rng = random.Random(seed)
    events: list[tuple[State, int]] = []
    while state.is_chance_node():
        action = state.sample_chance(rng)
        events.append((state.clone(), action))
        state.apply_action(action)
    viewer = state.current_player()
    named: list[str] = []
    for before, action in events:
        seen_by = hidden_event(before, action, [viewer])
        if seen_by is None:
            named.append(before.action_to_string(action))
        else:
            seats = ", ".join(before.describe_player(seat) for seat in seen_by)
            named.append(f"(hidden: {seats})")
    return named


def summarise_events(events: list[str]) -> str:
    """``events`` joined by commas, a run of one repeated event written once with its count."""
    parts: list[str] = []
    for event, run in groupby(events):
        count = len(list(run))
        parts.append(event if count == 1 else f"{count} x {event}")
    return ", ".join(parts)


def _analyse_record(args: argparse.Namespace, analyser: Analyser) -> int:
    record = load_record(args.record)
    game = load(record.game)
    if game.game_string != load(args.game).game_string:
        raise InvalidRecord(
            f"the record is a game of {record.game}, not of {load(args.game).game_string}"
        )
    states = replay(record)
    bar = ProgressBar(sys.stderr)
    plies = analyse_game(states, analyser, args.seconds, args.top, args.seat, bar.update)
    bar.close()
    if args.json:
        data = {
            "game": game.game_string,
            "players": record.players,
            "plies": [ply_json(p) for p in plies],
        }
        print(json.dumps(data, indent=2))
        return 0
    print(f"{game.game_string}: {len(plies)} decisions analysed, {args.seconds:g} s each")
    for ply in plies:
        _print_ply(ply, states[ply.ply], sys.stdout)
    marked = [p for p in plies if p.label is not None]
    counts = [(sum(p.label == label for p in marked), label) for label in _LABELS]
    print(
        "summary: " + ", ".join(f"{n} {label if n == 1 else _PLURAL[label]}" for n, label in counts)
    )
    return 0


_LABELS = ("blunder", "mistake", "inaccuracy")
_PLURAL = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}


def describe_value(move: MoveAnalysis) -> str:
    """``win`` / ``draw`` / ``loss`` when proven, else the value as a percentage."""
    if move.solved is not None:
        return move.solved
    return f"{100 * move.value:.0f}%"


def _print_moves(moves: list[MoveAnalysis], out: TextIO, indent: str = "  ") -> None:
    if not moves:
        print(f"{indent}(no move was searched)", file=out)
    width = max((len(m.text) for m in moves), default=0)
    for rank, move in enumerate(moves, 1):
        pv = " ".join(move.pv)
        print(
            f"{indent}{rank}. {move.text:<{width}}  {describe_value(move):>5}  pv: {pv}", file=out
        )


def _print_ply(ply: PlyAnalysis, state: State, out: TextIO) -> None:
    number = ply.ply + 1
    who = state.describe_player(ply.mover)
    value = "?" if ply.played_value is None else f"{100 * ply.played_value:.0f}%"
    mark = ""
    if ply.label is not None and ply.loss is not None:
        mark = f"  <- {ply.label} (-{100 * ply.loss:.0f}%)"
    print(f"{number}. {who} played {ply.played} ({value}){mark}", file=out)
    _print_moves(list(ply.best), out, indent="     ")


def move_json(move: MoveAnalysis) -> dict[str, Any]:
    """A move's analysis as JSON-able data."""
    return {
        "move": move.text,
        "action": move.action,
        "value": round(move.value, 4),
        "solved": move.solved,
        "pv": list(move.pv),
    }


def ply_json(ply: PlyAnalysis) -> dict[str, Any]:
    """A ply's analysis as JSON-able data."""
    return {
        "ply": ply.ply,
        "mover": ply.mover,
        "played": ply.played,
        "played_value": None if ply.played_value is None else round(ply.played_value, 4),
        "loss": ply.loss,
        "label": ply.label,
        "best": [move_json(m) for m in ply.best],
    }


class ProgressBar:
    """A one-line progress bar on ``out`` (a terminal: redrawn in place; otherwise one final
    line), so a long record analysis shows how far it is."""

    width = 30

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.live = out.isatty()
        self.start = time.perf_counter()
        self.total = 0
        self.done = 0

    def update(self, done: int, total: int) -> None:
        """Show ``done`` of ``total`` plies."""
        self.done, self.total = done, total
        if not self.live:
            return
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.out.write(f"\ranalysing [{bar}] {done}/{total} plies")
        self.out.flush()

    def close(self) -> None:
        """Finish the bar with the elapsed time."""
        elapsed = time.perf_counter() - self.start
        prefix = "\r" if self.live else ""
        bar = "#" * self.width
        self.out.write(
            f"{prefix}analysing [{bar}] {self.done}/{self.total} plies in {elapsed:.1f} s\n"
        )
        self.out.flush()
