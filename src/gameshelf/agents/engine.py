"""External engines: the gameshelf engine protocol, both ends.

A line protocol over a program's standard input and output, so that a program nobody on this
project wrote can take a seat in ``gameshelf arena`` or ``gameshelf play`` (the agent
:class:`EngineAgent`, registered by ``--engine NAME=COMMAND``), and any harness can drive a
gameshelf bot (``gameshelf engine``, :class:`EngineSession`). Only games without chance and
without hidden information (the Cage and Axiom): a hidden-card game would need each player's
own view on the wire, which this protocol does not carry.

The client sends one command a line (UTF-8); the engine answers every command except ``quit``
with exactly one line::

    gsp 1          ->  gsp 1 NAME              handshake: protocol version, the engine's name
    game GAME      ->  ok | error WHY          a new game from its start: cage, axiom(tall=true)
    play MOVE      ->  ok | error WHY          a move of either side, in the game's notation
    go SECONDS     ->  move MOVE | error WHY   the engine's move for the side to move, found
                                               within SECONDS; it is not played (send play)
    quit                                       the engine exits

A malformed or refused command gets ``error WHY`` and changes nothing. Moves are the notation of
``gameshelf moves GAME`` (an Axiom move has spaces: everything after the command word is the
move). A game always starts from its initial position; the client replays the moves so far.
"""

from __future__ import annotations

import argparse
import contextlib
import queue
import re
import shlex
import subprocess
import threading
import weakref
from collections.abc import Callable
from typing import IO

from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game, State
from gameshelf.core.registry import available_games, load

from .base import AGENTS, Agent, agent_factory, make_agent, register_agent
from .levels import BadThinkTime, check_think

PROTOCOL = "1"
"""The protocol version this module speaks (``gsp 1``)."""
HANDSHAKE_SECONDS = 30.0
"""How long an engine may take to start and answer ``gsp`` (a Python program imports first)."""
REPLY_SECONDS = 10.0
"""How long an engine may take to answer ``game`` or ``play``."""
GO_GRACE_SECONDS = 5.0
"""Beyond twice its time a move, how long an engine may take to answer ``go``."""
ENGINE_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""What an engine's agent name looks like (it is also an ``--agents`` name)."""


class EngineError(GameshelfError):
    """An external engine could not be started, broke the protocol, or played an illegal move."""

    code = "agent/engine"


def check_game(game: Game) -> None:
    """Raise ``ValueError`` unless ``game`` can be played over the protocol (no chance, no
    hidden information: both sides may see every move)."""
    if game.spec.hidden_information or game.spec.chance:
        raise ValueError(
            f"{game.game_string} has hidden information or chance; the engine protocol plays "
            "only games where every move can be shown to both sides (the Cage and Axiom)"
        )


def _protocol_game() -> Game:
    """A registered game the protocol can play, to shake hands with a new engine (the
    handshake names no game)."""
    for name in available_games():
        game = load(name)
        if not (game.spec.hidden_information or game.spec.chance):
            return game
    raise EngineError("no registered game can be played over the engine protocol")


# --- the engine's end: gameshelf engine ---------------------------------------------------------


class EngineSession:
    """One engine process's state: the game, its position and the bot that answers ``go``.

    :meth:`handle` takes one command line and returns the reply line (``None`` for ``quit`` or
    an empty line); :attr:`done` turns true on ``quit``.
    """

    def __init__(self, agent: str = "hard", seed: int | None = 0) -> None:
        agent_factory(agent)  # an unknown bot is refused when the engine starts
        self.agent_name = agent
        self.seed = seed
        self.game: Game | None = None
        self.state: State | None = None
        self.agent: Agent | None = None
        self.done = False
        self._handlers: dict[str, Callable[[str], str]] = {
            "gsp": self._hello,
            "game": self._game,
            "play": self._play,
            "go": self._go,
        }

    def handle(self, line: str) -> str | None:
        """The reply to one command line (see the module docstring)."""
        word, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if not word:
            return None
        if word == "quit":
            self.done = True
            return None
        handler = self._handlers.get(word)
        if handler is None:
            commands = ", ".join([*self._handlers, "quit"])
            return f"error unknown command {word!r}; commands: {commands}"
        try:
            return handler(rest)
        except (GameshelfError, ValueError) as exc:
            return f"error {_one_line(str(exc))}"

    def _hello(self, version: str) -> str:
        if version != PROTOCOL:
            raise EngineError(
                f"protocol version {version or '(none)'!r} is not spoken here; this engine "
                f"speaks {PROTOCOL} (send 'gsp {PROTOCOL}')"
            )
        return f"gsp {PROTOCOL} gameshelf-{self.agent_name}"

    def _game(self, text: str) -> str:
        if not text:
            raise EngineError("game needs a game string, e.g. 'game cage'")
        game = load(text)
        check_game(game)
        agent = make_agent(self.agent_name, game, self.seed)
        self.game, self.state, self.agent = game, game.new_initial_state(), agent
        return "ok"

    def _current(self) -> State:
        if self.state is None:
            raise EngineError("no game yet: send 'game GAME' first")
        return self.state

    def _play(self, move: str) -> str:
        state = self._current()
        if not move:
            raise EngineError("play needs a move, e.g. 'play R3'")
        state.play(move)
        return "ok"

    def _go(self, seconds: str) -> str:
        state = self._current()
        try:
            think = check_think(seconds)
        except BadThinkTime as exc:
            raise EngineError(f"go needs a time per move: {exc}") from None
        if state.is_terminal():
            raise EngineError(f"the game is over ({state.result_text()}); nothing to play")
        agent = self.agent
        assert agent is not None  # set with the state
        if hasattr(agent, "time_limit"):
            agent.time_limit = think
        action = agent.step(state.clone())
        return f"move {state.action_to_string(action)}"


def serve(stdin: IO[str], stdout: IO[str], agent: str = "hard", seed: int | None = 0) -> int:
    """Answer protocol commands from ``stdin`` on ``stdout`` until ``quit`` or end of input."""
    session = EngineSession(agent, seed)
    for line in stdin:
        reply = session.handle(line)
        if reply is not None:
            stdout.write(reply + "\n")
            stdout.flush()
        if session.done:
            break
    return 0


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- the client's end: an external program in a seat ------------------------------------------


class EngineAgent(Agent):
    """A seat played by an external program that speaks the engine protocol.

    ``command`` is the program and its arguments (a list, or one string split like a shell
    would). The program is started at the first move and stopped by :meth:`close`; each move
    it is told the moves it has not seen yet and asked ``go`` with ``seconds``. An engine that
    cannot be started, exits, answers late or wrongly, or plays an illegal move raises
    :class:`EngineError` naming the engine and what went wrong; nothing is played then.
    """

    name = "engine"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        command: str | list[str] = "",
        seconds: float = 1.0,
        label: str = "engine",
    ) -> None:
        super().__init__(game, seed)
        check_game(game)
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError(f"engine {label!r} needs a command to run")
        self.argv = argv
        self.time_limit = check_think(seconds)
        self.label = label
        self.engine_name = ""
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._mirror: State | None = None  # the position the engine has been told
        self._told: list[int] = []
        self._finalizer: weakref.finalize[[subprocess.Popen[str]], EngineAgent] | None = None

    # --- the agent protocol ---------------------------------------------------------------
    def step(self, state: State) -> int:
        """Tell the engine the moves it has not seen, ask ``go`` and check its answer."""
        self._tell(state)
        seconds = self.time_limit
        reply = self._request(f"go {seconds:g}", 2 * seconds + GO_GRACE_SECONDS)
        word, _, text = reply.partition(" ")
        if word != "move" or not text.strip():
            raise self._error(f"answered 'go' with {reply!r} instead of 'move MOVE'")
        try:
            return state.move_to_action(text.strip())
        except GameshelfError as exc:
            raise self._error(f"played {text.strip()!r}, which is refused here: {exc}") from None

    def close(self) -> None:
        """Stop the engine (``quit``, then kill it if it lingers)."""
        self._process, self._mirror, self._told = None, None, []
        if self._finalizer is not None:
            self._finalizer()  # stops the process, once
            self._finalizer = None

    # --- talking to the process -----------------------------------------------------------
    def start(self) -> None:
        """Start the engine and shake hands (done by the first move when not called)."""
        if self._process is not None:
            return
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as exc:
            raise EngineError(
                f"engine {self.label!r}: cannot start {shlex.join(self.argv)!r}: {exc}"
            ) from None
        self._process = process
        self._lines = queue.Queue()
        threading.Thread(target=_read_lines, args=(process, self._lines), daemon=True).start()
        self._finalizer = weakref.finalize(self, _stop, process)  # also when never closed
        reply = self._request(f"gsp {PROTOCOL}", HANDSHAKE_SECONDS)
        parts = reply.split(" ", 2)
        if len(parts) < 3 or parts[:2] != ["gsp", PROTOCOL] or not parts[2].strip():
            self.close()
            raise EngineError(
                f"engine {self.label!r} answered the handshake 'gsp {PROTOCOL}' with {reply!r}; "
                f"it must answer 'gsp {PROTOCOL} NAME'"
            )
        self.engine_name = parts[2].strip()

    def _tell(self, state: State) -> None:
        """Bring the engine's game to ``state``: the new moves only, or the game again from
        its start when ``state`` does not continue what the engine was told."""
        self.start()
        history = state.history()
        mirror = self._mirror
        if mirror is None or history[: len(self._told)] != self._told:
            _check_from_start(self.game, state, history, self.label)
            self._mirror, self._told = None, []  # nothing told until the engine says ok
            command = f"game {self.game.game_string}"
            self._check_reply(command, self._request(command))
            mirror = self._mirror = self.game.new_initial_state()
        for action in history[len(self._told) :]:
            text = mirror.action_to_string(action)
            self._check_reply(f"play {text}", self._request(f"play {text}"))
            mirror.apply_action(action)  # the mirror and the list of moves told move together
            self._told.append(action)

    def _check_reply(self, command: str, reply: str) -> None:
        if reply != "ok":
            raise self._error(f"answered {command!r} with {reply!r} instead of 'ok'")

    def _request(self, line: str, timeout: float = REPLY_SECONDS) -> str:
        process = self._process
        if process is None or process.stdin is None:
            raise self._error("is not running")
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except OSError:
            code = process.poll()
            self.close()
            raise self._error(f"exited (code {code}) before {line!r}") from None
        try:
            reply = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.close()
            raise self._error(f"did not answer {line!r} within {timeout:g} s") from None
        if reply is None:
            code = process.wait()
            self.close()
            raise self._error(f"exited (code {code}) without answering {line!r}")
        return reply

    def _error(self, what: str) -> EngineError:
        return EngineError(f"engine {self.label!r} ({shlex.join(self.argv)}) {what}")


def _read_lines(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    """The reader thread: each line the engine writes, then ``None`` at its end."""
    assert process.stdout is not None
    with contextlib.suppress(ValueError, OSError):  # the pipe closed by close(): the end too
        for line in process.stdout:
            lines.put(line.rstrip("\r\n"))
    lines.put(None)


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        try:
            assert process.stdin is not None
            process.stdin.write("quit\n")
            process.stdin.flush()
            process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None and not stream.closed:
            with contextlib.suppress(OSError):
                stream.close()


def _check_from_start(game: Game, state: State, history: list[int], label: str) -> None:
    """The protocol replays a game from its start: refuse a position set up another way."""
    replayed = game.new_initial_state()
    for action in history:
        replayed.apply_action(action)
    if replayed.position() != state.position():
        raise EngineError(
            f"engine {label!r}: this position was not reached from the start of "
            f"{game.game_string} by the moves recorded, and the engine protocol replays every "
            "game from its start"
        )


# --- naming engines ------------------------------------------------------------------------


def parse_engine(text: str) -> tuple[str, str]:
    """``NAME=COMMAND`` (the ``--engine`` value) as ``(name, command)``; :class:`EngineError`
    names what is wrong."""
    name, sep, command = text.partition("=")
    name = name.strip().lower()
    if not sep or not command.strip():
        raise EngineError(f"--engine {text!r}: give NAME=COMMAND, e.g. ext='./my-engine --fast'")
    if not ENGINE_NAME.fullmatch(name):
        raise EngineError(
            f"--engine {text!r}: the name {name!r} must start with a letter and hold only "
            "lower-case letters, digits and '-' (at most 40)"
        )
    if name in AGENTS:
        raise EngineError(f"--engine {text!r}: {name!r} is already a bot's name; choose another")
    try:
        shlex.split(command)
    except ValueError as exc:
        raise EngineError(f"--engine {text!r}: the command cannot be split: {exc}") from None
    return name, command.strip()


def register_engine(name: str, command: str, seconds: float) -> None:
    """Make the external program ``command`` available as the agent ``name`` (``seconds`` a
    move), after checking that it starts and answers the handshake."""
    seconds = check_think(seconds)

    def factory(game: Game, seed: int | None) -> Agent:
        return EngineAgent(game, seed, command, seconds, label=name)

    probe = EngineAgent(_protocol_game(), 0, command, seconds, label=name)
    try:
        probe.start()
    finally:
        probe.close()
    register_agent(name, factory)


def register_engines(specs: list[str], seconds: float) -> list[str]:
    """Register every ``--engine NAME=COMMAND`` of a command line; returns the names."""
    names = []
    for text in specs:
        name, command = parse_engine(text)
        if name in names:
            raise EngineError(f"--engine {text!r}: {name!r} is named twice")
        register_engine(name, command, seconds)
        names.append(name)
    return names


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """``--engine NAME=COMMAND`` (repeatable) and ``--engine-seconds S`` for a command that
    seats agents (``arena``, ``play``)."""
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="an external program speaking the engine protocol (docs/agents.md), seated as "
        "the agent NAME (repeatable); Cage and Axiom only",
    )
    parser.add_argument(
        "--engine-seconds",
        type=float,
        default=1.0,
        metavar="S",
        help="the time a move external engines are given (default 1)",
    )


__all__ = [
    "EngineAgent",
    "EngineError",
    "EngineSession",
    "add_engine_arguments",
    "check_game",
    "parse_engine",
    "register_engine",
    "register_engines",
    "serve",
]
