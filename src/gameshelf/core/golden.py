"""Golden playthroughs and perft files: two text formats that pin a game's behaviour.

Both are plain text, one fact a line, so that a change to a rule, an action id, a notation, a
position string or a result shows up as the first line that differs. A game's tests (a plug-in
game's too) keep such files and check them with this module; whoever regenerates them writes
them with the same functions, so the format is written down once.

**A golden playthrough** is one seeded random game played to its end (chance drawn and moves
picked by :func:`~gameshelf.core.rng.make_rng` of the seed)::

    game <game string>
    seed <seed>
    start <position>
    ply <n> player <p> legal <count> ids <digest> action <id> '<notation>'
      position <position after it>
    ply <n> chance outcomes <count> [<id>:<probability> ...] action <id> '<notation>'
      position <position after it>
    end plies <count> returns <return> ...

**A perft file** holds blocks separated by blank lines (``#`` starts a comment line); each block
is a root position and its exact move-tree counts (:func:`~gameshelf.core.perft.perft`)::

    id <name>
    game <game string>
    position <position>
    perft <depth> = <count>

Positions may span lines; they are written on one line with ``\\n`` for a newline and ``\\\\``
for a backslash (:func:`escape_line`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .errors import InvalidData
from .game import CHANCE, State
from .perft import perft
from .registry import load
from .rng import make_rng


def escape_line(text: str) -> str:
    """``text`` on one line: backslashes doubled, newlines written as ``\\n``."""
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def unescape_line(text: str) -> str:
    """The text :func:`escape_line` was given."""
    out: list[str] = []
    chars = iter(text)
    for char in chars:
        if char != "\\":
            out.append(char)
            continue
        # A lone trailing backslash cannot come from escape_line; keep it as it stands.
        following = next(chars, "")
        out.append("\n" if following == "n" else following or "\\")
    return "".join(out)


def actions_digest(actions: Iterable[int]) -> str:
    """A short stable digest of action ids in order (the ids in full would swamp the file)."""
    text = ",".join(str(action) for action in actions)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def golden_lines(game_string: str, seed: int) -> Iterator[str]:
    """The lines of the golden playthrough of ``game_string`` with ``seed``."""
    game = load(game_string)
    state = game.new_initial_state(seed)
    rng = make_rng(seed)
    yield f"game {game.game_string}"
    yield f"seed {seed}"
    yield f"start {escape_line(state.position())}"
    ply = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = state.sample_chance(rng)
            chances = " ".join(f"{a}:{p!r}" for a, p in outcomes)
            head = f"ply {ply} chance outcomes {len(outcomes)} [{chances}]"
        else:
            legal = state.legal_actions()
            action = rng.choice(legal)
            head = f"ply {ply} player {player} legal {len(legal)} ids {actions_digest(legal)}"
        text = state.action_to_string(action)
        state.apply_action(action)
        yield f"{head} action {action} {text!r}"
        yield f"  position {escape_line(state.position())}"
        ply += 1
    returns = " ".join(repr(value) for value in state.returns())
    yield f"end plies {ply} returns {returns}"


def golden_text(game_string: str, seed: int) -> str:
    """The whole golden file of ``game_string`` with ``seed``."""
    return "\n".join(golden_lines(game_string, seed)) + "\n"


def golden_source(text: str, source: str = "golden file") -> tuple[str, int]:
    """The game string and seed a golden file was played from (its first two lines);
    :class:`~gameshelf.core.errors.InvalidData` naming ``source`` if they are not there."""
    lines = text.splitlines()
    if len(lines) < 2 or not lines[0].startswith("game ") or not lines[1].startswith("seed "):
        raise InvalidData(f"{source}: does not start with a 'game ...' and a 'seed N' line")
    seed = lines[1].removeprefix("seed ")
    try:
        return lines[0].removeprefix("game "), int(seed)
    except ValueError:
        raise InvalidData(f"{source}: line 2: the seed {seed!r} is not a whole number") from None


def golden_difference(stored: str, source: str = "golden file", limit: int = 300) -> str | None:
    """Replay the golden file ``stored`` from its own game and seed: ``None`` if today's
    engine writes it exactly, else where they first part (lines cut at ``limit`` characters)."""
    game_string, seed = golden_source(stored, source)
    expected, actual = stored.splitlines(), golden_text(game_string, seed).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        if want != got:
            return (
                f"{source} line {number} differs\n"
                f"  stored: {_cut(want, limit)}\n  now:    {_cut(got, limit)}"
            )
    if len(actual) != len(expected):
        return f"{source}: {len(expected)} lines stored, {len(actual)} now"
    return None


def _cut(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[:limit] + "…"


@dataclass
class PerftCase:
    """One root position of a perft file and its move-tree counts by depth."""

    ident: str
    game: str = ""
    position: str = ""
    counts: dict[int, int] = field(default_factory=dict)

    def root(self) -> State:
        """The root position as a state of its game."""
        return load(self.game).state_from_position(self.position)


def perft_root(game_string: str, seed: int, plies: int) -> State:
    """The state ``plies`` seeded random plies (chance included) from the start of
    ``game_string``; :class:`~gameshelf.core.errors.InvalidData` if the game ends first."""
    state = load(game_string).new_initial_state(seed)
    rng = make_rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            raise InvalidData(f"{game_string} with seed {seed} ends before ply {plies}")
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def perft_case(ident: str, state: State, depth: int) -> PerftCase:
    """The perft counts of ``state`` at depths 1 to ``depth``, as a case named ``ident``."""
    counts = {d: perft(state, d) for d in range(1, depth + 1)}
    return PerftCase(ident, state.game.game_string, state.position(), counts)


def format_perft(cases: Iterable[PerftCase], comments: Iterable[str] = ()) -> str:
    """A perft file: ``comments`` (each a ``#`` line), then one block per case."""
    head = "".join(f"# {line}\n" for line in comments)
    blocks = []
    for case in cases:
        lines = [f"id {case.ident}", f"game {case.game}", f"position {escape_line(case.position)}"]
        lines += [f"perft {depth} = {count}" for depth, count in sorted(case.counts.items())]
        blocks.append("\n".join(lines))
    return (head + "\n" if head else "") + "\n\n".join(blocks) + "\n"


def parse_perft(text: str, source: str = "perft file") -> list[PerftCase]:
    """The cases of a perft file; :class:`~gameshelf.core.errors.InvalidData` naming ``source``
    and the line number of the first malformed line."""
    cases: list[PerftCase] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        where = f"{source}:{number}"
        if key == "id":
            cases.append(PerftCase(rest))
        elif not cases:
            raise InvalidData(f"{where}: {key!r} before the first 'id' line")
        elif key == "game":
            cases[-1].game = rest
        elif key == "position":
            cases[-1].position = unescape_line(rest)
        elif key == "perft":
            depth, count = _perft_count(rest, where)
            cases[-1].counts[depth] = count
        else:
            raise InvalidData(f"{where}: unknown key {key!r} (id, game, position, perft)")
    return cases


def _perft_count(rest: str, where: str) -> tuple[int, int]:
    """``(depth, count)`` of a ``perft N = count`` line's text after ``perft``."""
    parts = rest.split()
    if len(parts) != 3 or parts[1] != "=" or not (parts[0].isdigit() and parts[2].isdigit()):
        raise InvalidData(f"{where}: expected 'perft N = count', got 'perft {rest}'")
    return int(parts[0]), int(parts[2])
