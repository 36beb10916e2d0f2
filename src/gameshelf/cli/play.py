"""Terminal play: any mix of human and bot seats, with undo, save, resume and move lists.

What a human sees is what their seat may know: in games with hidden information the board is
drawn for the human to move, and a bot's move or a chance event that no human seat can tell
apart from another choice is printed as hidden (see :func:`hidden_event`).
"""

from __future__ import annotations

import inspect
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from gameshelf.agents import Agent, make_agent
from gameshelf.agents.catalogue import check_agent
from gameshelf.agents.levels import check_think
from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game, State
from gameshelf.core.options import parse_decimal
from gameshelf.core.record import GameRecord, now_iso, record_from_state, replay
from gameshelf.core.registry import game_entry, load
from gameshelf.core.rng import derive_seed, make_rng, new_seed

#: The bot a seat gets when ``--seat`` does not name one.
DEFAULT_BOT = "random"

COMMANDS = """commands:
  <move>        play a move in the game's notation (examples below)
  moves         list your legal moves
  board         show the board again
  key           what the board's short codes mean (AXIA's spaces)
  undo          take back your last move (and the bot moves after it)
  save FILE     save the game so far as a JSON record (resume: gameshelf play --resume FILE)
  help          this text
  quit          leave (exit status 0); the game is not saved unless you save it"""


@dataclass
class Table:
    """A game in progress at the terminal: the state, the seats and the moves so far."""

    game: Game
    seats: list[str]
    seed: int
    state: State
    agents: dict[int, Agent] = field(default_factory=dict)
    started: str = field(default_factory=now_iso)
    initial_position: str | None = None

    def record(self) -> GameRecord:
        """The record of the game so far."""
        return record_from_state(
            self.state,
            self.seats,
            seed=self.seed,
            started=self.started,
            initial_position=self.initial_position,
        )

    def humans(self) -> list[int]:
        """The seats typed at this terminal."""
        return [seat for seat, who in enumerate(self.seats) if who == "human"]

    def fresh_state(self) -> State:
        """The state the game started from (for undo)."""
        if self.initial_position is not None:
            return self.game.state_from_position(self.initial_position)
        return self.game.new_initial_state(self.seed)


# --------------------------------------------------------------------------- seats


def seat_label(state: State, seat: int) -> str:
    """``player 2 (--seat 1)``: the people's name and the option's index of a seat."""
    return f"{state.describe_player(seat)} (--seat {seat})"


def parse_seats(
    game: Game, specs: Sequence[str], base: Sequence[str] | None = None
) -> tuple[list[str], list[int]]:
    """Who sits where, from ``--seat N=WHO`` options over ``base`` (default: seat 0 human,
    the others :data:`DEFAULT_BOT`). Returns the seats and the bot seats nobody chose."""
    players = game.spec.num_players
    seats = list(base) if base is not None else ["human"] + [DEFAULT_BOT] * (players - 1)
    given: set[int] = set()
    for spec in specs:
        index, sep, name = spec.partition("=")
        try:  # ASCII digits only: isdigit() and int() also take '١' (Arabic-Indic one)
            seat = parse_decimal(index.strip(), max_digits=3)
        except ValueError:
            seat = -1
        if not sep or seat < 0 or not name.strip():
            raise GameshelfError(f"--seat {spec!r} must look like 0=human or 1=greedy")
        if not 0 <= seat < players:
            raise GameshelfError(f"--seat {spec!r}: this game has seats 0..{players - 1}")
        seats[seat] = name.strip().lower()
        given.add(seat)
    for name in set(seats) - {"human"}:
        check_agent(name, game)
    defaulted = [s for s in range(players) if s not in given and seats[s] != "human"]
    return seats, defaulted if base is None else []


def new_table(
    game: Game,
    seats: list[str],
    seed: int | None,
    state: State | None = None,
    think: float | None = None,
) -> Table:
    """Set up a table (at ``state``, or the start), with a seeded agent for every bot seat.

    ``think`` (``--think``) is every bot's time per move: a searching bot thinks that long, an
    instant one (``random``, ``greedy``) is unaffected. Out-of-range times are refused.
    """
    if think is not None:
        think = check_think(think)
    seed = new_seed() if seed is None else seed
    table = Table(game, seats, seed, state or game.new_initial_state(seed))
    for seat, name in enumerate(seats):
        if name != "human":
            agent = make_agent(name, game, derive_seed(seed, "seat", seat))
            if think is not None and hasattr(agent, "time_limit"):
                agent.time_limit = think
            table.agents[seat] = agent
    return table


def resume_table(path: str, specs: Sequence[str], think: float | None = None) -> Table:
    """A table at the end of the saved record ``path``; ``--seat`` options change seats."""
    from gameshelf.core.record import load_record

    record = load_record(path)
    game = load(record.game)
    states = replay(record)
    base = [_seat_from_record(name) for name in record.players]
    if len(base) != game.spec.num_players:
        base = ["human"] + [DEFAULT_BOT] * (game.spec.num_players - 1)
    seats, _ = parse_seats(game, specs, base)
    table = new_table(game, seats, record.seed, states[-1].clone(), think)
    table.started = record.started or table.started
    table.initial_position = record.initial_position
    return table


def _seat_from_record(name: str) -> str:
    """A record's player name as a seat: a bot's name stays a bot, anyone else is human."""
    from gameshelf.agents.base import AGENTS

    return name if name in AGENTS else "human"


def announce(table: Table, defaulted: Sequence[int]) -> str:
    """The opening lines: every seat, the seed, and the bots nobody chose."""
    state = table.state
    who = ", ".join(f"{state.describe_player(s)} {name}" for s, name in enumerate(table.seats))
    lines = [f"{table.game.game_string}: {who}; seed {table.seed}. Type help for commands."]
    for seat in defaulted:
        lines.append(
            f"{seat_label(state, seat)} is a {table.seats[seat]} bot: no --seat {seat}=WHO was "
            "given (gameshelf play --help lists the bots)"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- what a seat sees


def _views_after(state: State, action: int, players: Sequence[int]) -> list[Any]:
    after = state.clone()
    after.apply_action(action)
    return [after.view(p) for p in players]


def _choices(state: State) -> list[int]:
    if state.is_chance_node():
        return [action for action, _ in state.chance_outcomes()]
    return state.legal_actions()


def hidden_event(state: State, action: int, viewers: Sequence[int]) -> list[int] | None:
    """``None`` when a viewer can see ``action`` (about to be applied at ``state``), else the
    other seats that can. An event is hidden when some other choice open here leaves every
    viewer's :meth:`~gameshelf.core.game.State.view` the same."""
    if not viewers or not state.game.spec.hidden_information:
        return None
    actual = _views_after(state, action, viewers)
    for other in _choices(state):
        if other != action and _views_after(state, other, viewers) == actual:
            rest = [p for p in range(state.game.spec.num_players) if p not in viewers]
            mine, theirs = _views_after(state, action, rest), _views_after(state, other, rest)
            return [p for p, a, b in zip(rest, mine, theirs, strict=True) if a != b]
    return None


def render_for(state: State, viewer: int | None, color: bool) -> str:
    """The board as ``viewer`` may see it, with the viewer's own secrets listed under it."""
    render: Callable[..., str] = state.render
    if viewer is not None and "viewer" in inspect.signature(render).parameters:
        text = render(color=color, viewer=viewer)
    else:
        text = render(color=color)
    if viewer is None or not state.game.spec.hidden_information:
        return text
    return text + "".join(f"\n{line}" for line in private_lines(state, viewer))


def card_words(game: Game) -> Mapping[str, str]:
    """Each card id of the game's card data with what the card is, in words (its entry's
    ``card_words``); empty for games without cards."""
    words = game_entry(game.spec.name).card_words
    return {} if words is None else words(game)


def board_key(game: Game) -> str | None:
    """What the board's short codes mean, for a game whose picture uses them (its entry's
    ``picture_key``)."""
    key = game_entry(game.spec.name).picture_key
    return None if key is None else key(game)


def private_lines(state: State, viewer: int) -> list[str]:
    """``your hand:`` and each card in it ...: what the viewer's view holds that others' views
    do not, each card named with what it is."""
    players = state.view(viewer).get("players")
    if not isinstance(players, list) or not 0 <= viewer < len(players):
        return []
    own = players[viewer]
    public = {key for p, data in enumerate(players) if p != viewer for key in data}
    words = card_words(state.game)
    lines = []
    for key, value in own.items():
        if key in public or value is None:
            continue
        if isinstance(value, list) and value and all(str(v) in words for v in value):
            lines.append(f"your {key}:")
            lines.extend(f"  {card}: {words[str(card)]}" for card in value)
            continue
        text = " ".join(map(str, value)) if isinstance(value, list) else str(value)
        lines.append(f"your {key}: {text or 'none'}")
    return lines


# --------------------------------------------------------------------------- the event log


class EventLog:
    """Prints bot moves and chance events; runs of hidden chance events become one line."""

    def __init__(self, out: TextIO, describe: Callable[[int], str]) -> None:
        self.out = out
        self.describe = describe
        self.run: tuple[tuple[int, ...], int] | None = None  # (seen by, how many)

    def public(self, line: str) -> None:
        """A line everyone at this terminal may see."""
        self.flush()
        self.out.write(line + "\n")

    def hidden_chance(self, seen_by: Sequence[int]) -> None:
        """A chance outcome only ``seen_by`` may see: counted, printed with the next line."""
        key = tuple(seen_by)
        if self.run is not None and self.run[0] == key:
            self.run = (key, self.run[1] + 1)
            return
        self.flush()
        self.run = (key, 1)

    def flush(self) -> None:
        """Print the pending run of hidden chance events, if any."""
        if self.run is None:
            return
        seen_by, count = self.run
        self.run = None
        what = "an event" if count == 1 else f"{count} events"
        names = " and ".join(self.describe(p) for p in seen_by) or "nobody"
        self.out.write(f"chance: {what} only {names} may see (hidden)\n")


def advance(table: Table, out: TextIO, quiet: bool = False) -> None:
    """Let chance and bots move until a human is to move or the game ends."""
    rng = make_rng(derive_seed(table.seed, "chance", len(table.state.history())))
    state = table.state
    viewers = table.humans()
    log = EventLog(out, state.describe_player)
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            agent = table.agents.get(state.current_player())
            if agent is None:
                break
            action = agent.step(state)
        if not quiet:
            _log_event(log, table, state, action, viewers)
        state.apply_action(action)
    log.flush()


def _log_event(
    log: EventLog, table: Table, state: State, action: int, viewers: Sequence[int]
) -> None:
    mover = state.current_player()
    seen_by = hidden_event(state, action, viewers)
    if mover < 0:
        if seen_by is None:
            log.public(f"chance: {state.action_to_string(action)}")
        else:
            log.hidden_chance(seen_by)
        return
    who = f"{state.describe_player(mover)} ({table.seats[mover]})"
    if seen_by is None:
        log.public(f"{who} plays {state.action_to_string(action)}")
    else:
        log.public(f"{who} makes a move hidden from you")


# --------------------------------------------------------------------------- commands


def undo(table: Table) -> str:
    """Take back the last move of a human seat (the one to move, if a human is), and every
    move after it."""
    history = table.state.history()
    to_move = table.state.current_player()
    seats = [to_move] if to_move in table.humans() else table.humans()
    replayed = table.fresh_state()
    start = len(replayed.history())
    last_human = -1
    for index, action in enumerate(history[start:], start):
        if replayed.current_player() in seats:
            last_human = index
        replayed.apply_action(action)
    if last_human < 0:
        return "nothing to undo: you have not moved yet"
    table.state = table.game.replay(
        history[start:last_human], table.seed, position=table.initial_position
    )
    return f"took back {len(history) - last_human} move(s)"


def help_text(game: Game) -> str:
    """The commands, then this game's own notation with examples."""
    lines = [COMMANDS, f"{game.spec.name} notation, for example:"]
    examples = [(e.text, e.meaning) for e in game_entry(game.spec.name).notation]
    if not examples:  # a game without notation help: show what its moves look like
        sample = [str(m) for m in game.new_initial_state(0).legal_moves()[:3]]
        examples = [(text, "a legal move at the start") for text in sample]
    width = max(len(text) for text, _ in examples)
    lines.extend(f"  {text:<{width}}  {meaning}" for text, meaning in examples)
    lines.append(f"(the whole notation: docs/games/{game.spec.name}.md)")
    return "\n".join(lines)


def columns(words: Sequence[str], width: int | None = None) -> str:
    """``words`` in aligned columns no wider than the terminal: a move never wraps midway."""
    if not words:
        return "(none)"
    width = width or shutil.get_terminal_size((100, 24)).columns
    cell = max(len(word) for word in words) + 2
    per_line = max(1, width // cell)
    rows = [words[i : i + per_line] for i in range(0, len(words), per_line)]
    return "\n".join("".join(f"{w:<{cell}}" for w in row).rstrip() for row in rows)


def _save(table: Table, path: str, out: TextIO) -> None:
    if not path:
        out.write("error: save needs a file name, e.g. save game.json\n")
        return
    try:
        table.record().save(path)
    except (OSError, ValueError) as exc:  # ValueError: a name with a NUL byte
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        out.write(f"error: cannot save to {path!r}: {reason}\n")
        return
    out.write(
        f"saved {len(table.state.history())} moves to {path} "
        f"(go on later: gameshelf play --resume {path})\n"
    )


def _command(table: Table, line: str, out: TextIO, color: bool) -> bool:
    """Run one typed line; ``False`` when it was ``quit``."""
    state = table.state
    command, _, argument = line.partition(" ")
    lowered = command.lower()
    viewer = _viewer(table)
    if lowered in {"quit", "exit"}:
        return False
    if lowered == "help":
        out.write(help_text(table.game) + "\n")
    elif lowered == "moves":
        out.write(columns([str(m) for m in state.legal_moves()]) + "\n")
    elif lowered == "board":
        out.write(render_for(state, viewer, color).rstrip("\n") + "\n")
    elif lowered == "key":
        out.write((board_key(table.game) or "this board has no short codes to explain") + "\n")
    elif lowered == "undo":
        out.write(undo(table) + "\n")
    elif lowered == "save":
        _save(table, argument.strip(), out)
    elif state.is_terminal():
        out.write("the game is over: save FILE, board, undo or quit\n")
    else:
        player = state.current_player()
        try:
            played = state.play(line, player=player)
        except GameshelfError as exc:
            out.write(f"error: {exc}\n")
        else:
            out.write(f"{state.describe_player(player)} plays {played}\n")
    return True


def _viewer(table: Table) -> int | None:
    """The seat whose view the board shows: the human to move, else the first human."""
    to_move = table.state.current_player()
    humans = table.humans()
    if to_move in humans:
        return to_move
    return humans[0] if humans else None


def interactive(table: Table, read: Callable[[str], str], out: TextIO, color: bool) -> int:
    """Play at the terminal until the user quits or the input ends; returns an exit status.

    The board is printed when a human is to move; after the game ends the table stays open
    (save, board, undo) until ``quit`` or the end of the input. ``quit`` exits with 0; input
    that ends before the game does exits with 1 (the game is abandoned, unsaved).
    """
    shown = -1  # the history length the board was last shown at
    keyed = False  # whether the board's key was printed
    while True:
        advance(table, out)
        state = table.state
        if len(state.history()) != shown:
            shown = len(state.history())
            out.write(render_for(state, _viewer(table), color).rstrip("\n") + "\n\n")
            key = board_key(table.game)
            if key is not None and not keyed:  # once; the key command shows it again
                keyed = True
                out.write(key + "\n\n")
            if state.is_terminal():
                out.write(f"game over: {state.result_text()} (save FILE keeps it; quit leaves)\n")
        if state.is_terminal():
            prompt = "game over (save FILE, board, undo, quit): "
        else:
            who = state.describe_player(state.current_player())
            prompt = f"{who}, your move (help for commands): "
        try:
            line = read(prompt).strip()
        except EOFError:
            if state.is_terminal():
                return 0
            out.write("\ninput closed; game abandoned\n")
            return 1
        if line and not _command(table, line, out, color):
            out.write("bye\n")
            return 0


def play_bots_only(table: Table, out: TextIO, quiet: bool, color: bool) -> int:
    """Play a game with bots in every seat: the moves, then the final board and result."""
    advance(table, out, quiet=quiet)
    if not quiet:
        out.write(table.state.render(color=color) + "\n")
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
