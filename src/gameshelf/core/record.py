"""JSON game records and exact replay.

A record holds the game string, the seed, the seats, every move in notation (chance outcomes
included, so replay needs no RNG), the result and timestamps. Notation is authoritative; the
action id stored beside it is cross-checked on replay to catch a corrupt file early.

The file is one UTF-8 JSON object (a leading byte order mark is skipped)::

    {"format": "gameshelf-record", "version": 1, "game": "cage(players=3)", "seed": 7,
     "players": ["alice", "greedy", "random"], "initial_position": null,
     "moves": [{"player": 0, "move": "W0", "action": 0}, ...],
     "result": [1.0, -1.0, -1.0], "started": "2025-01-01T10:00:00+00:00", "finished": "..."}

What loading checks (:func:`parse_record`, :func:`load_record`), each failure one
:class:`~gameshelf.core.errors.InvalidRecord` naming the field, the move or the file:

- ``format``, ``version`` (an integer, not ``true``), ``game`` (a game string that loads),
  ``players`` and ``moves`` are required; ``seed`` (integer), ``initial_position``,
  ``started``, ``finished`` (text) and ``result`` may be left out or ``null``.
- Integers are strict: ``true``/``false`` or ``1.0`` are no seat, seed, action or version.
- ``players``: exactly one name per seat of the game.
- each move: ``move`` (notation, text) and ``player`` (a seat, ``-1`` for chance, ``-2``
  for a simultaneous turn) are required; ``action`` is an action id (0 or more) or left out,
  in which case the notation alone is replayed.
- ``result``: one finite number per seat.
- ``files`` (optional): for each option of the game string that names a file on this
  machine (AXIA's ``cards=PATH``), ``"sha256:<hex>"`` of that file's bytes when the game was
  recorded. The file must still hold those bytes: a record whose card file was edited since
  would otherwise replay, silently, with other cards.
- Fields this format does not know are ignored (the server adds ``seed_commitment`` and
  ``seed_salt``; people add notes), except a name that looks like a misspelling of a field
  the record lacks (``reslt``, ``acton``): that is refused, because ignoring it would
  silently skip the check the real field asks for.

:func:`replay` then plays every move through the engine's checked entry point and refuses the
first one that is not legal, whose action id or mover disagrees with the notation, or a
result that is not the engine's. :meth:`GameRecord.save` writes only records that load again.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import math
import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import GameshelfError, InvalidRecord
from .files import parse_json_text, read_text_file
from .game import SIMULTANEOUS, Game, State
from .registry import load

FORMAT = "gameshelf-record"
VERSION = 1


@dataclass
class RecordedMove:
    """One entry of a record: who moved (``-1`` for chance), the notation and the action id
    (``-1``: not known, the notation alone is replayed)."""

    player: int
    move: str
    action: int


@dataclass
class GameRecord:
    """A complete or partial game, ready to save as JSON and replay exactly."""

    game: str
    seed: int | None
    players: list[str]
    moves: list[RecordedMove] = field(default_factory=list)
    result: list[float] | None = None
    started: str = ""
    finished: str | None = None
    initial_position: str | None = None
    files: dict[str, str] = field(default_factory=dict)
    """``{option: "sha256:<hex>"}`` of the files the game string's options name
    (:func:`file_digests`); empty for a game that reads no file of its own."""

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-able data (``files`` only when there are some)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "seed": self.seed,
            "players": list(self.players),
            "initial_position": self.initial_position,
            "moves": [_move_json(m) for m in self.moves],
            "result": self.result,
            "started": self.started,
            "finished": self.finished,
        }
        if self.files:
            data["files"] = dict(self.files)
        return data

    def dumps(self) -> str:
        """The record as pretty JSON text (``ValueError`` for a non-finite result: JSON has
        no NaN or infinity, and a record that says ``NaN`` would not load again)."""
        return json.dumps(self.to_json(), indent=2, allow_nan=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``, all or nothing.

        The record is checked first (:class:`InvalidRecord` if :func:`load_record` would refuse
        it: nothing is written), then written to a new hidden temporary file beside ``path``
        (never one that exists already) and moved over ``path`` in one step, so ``path`` is
        either the old file or the whole new one. On any failure (``path`` a folder, a full
        disk) the temporary file is removed and the error raised.
        """
        text = self.dumps()
        parse_record(json.loads(text))
        target = Path(path)
        temporary = target.with_name(f".{target.name[:40]}.{secrets.token_hex(4)}.part")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise


def _move_json(move: RecordedMove) -> dict[str, Any]:
    entry: dict[str, Any] = {"player": move.player, "move": move.move}
    if move.action >= 0:  # -1: the id is unknown (left out of the file it was loaded from)
        entry["action"] = move.action
    return entry


def now_iso() -> str:
    """The current UTC time as ISO-8601 text."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def record_from_state(
    state: State,
    players: list[str] | None = None,
    seed: int | None = None,
    started: str | None = None,
    initial_position: str | None = None,
) -> GameRecord:
    """Build the record of everything played in ``state`` (by replaying its history)."""
    game = state.game
    replay = _start(game, seed, initial_position)
    moves = []
    for action in state.history()[len(replay.history()) :]:
        moves.append(RecordedMove(replay.current_player(), replay.action_to_string(action), action))
        replay.apply_action(action)
    names = players or [f"player {p + 1}" for p in range(game.spec.num_players)]
    return GameRecord(
        game=game.game_string,
        seed=seed,
        players=names,
        moves=moves,
        result=state.returns() if state.is_terminal() else None,
        started=started or now_iso(),
        finished=now_iso() if state.is_terminal() else None,
        initial_position=initial_position,
        files=file_digests(game),
    )


def file_digests(game: Game) -> dict[str, str]:
    """``{option: "sha256:<hex>"}`` for each option of ``game`` that names a file (an
    ``OptionSpec.names_file`` option whose value is the path of a file here); a value that
    names a registered set instead (``cards=standard``) has none."""
    digests = {}
    for spec in game.spec.options:
        value = game.spec.params.get(spec.name)
        if spec.names_file and isinstance(value, str) and Path(value).is_file():
            digests[spec.name] = "sha256:" + hashlib.sha256(Path(value).read_bytes()).hexdigest()
    return digests


def _start(game: Game, seed: int | None, initial_position: str | None) -> State:
    if initial_position is not None:
        return game.state_from_position(initial_position)
    return game.new_initial_state(seed)


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in data:
        raise InvalidRecord(f"record has no {name!r} field")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise InvalidRecord(f"record field {name!r} has the wrong type {type(value).__name__}")
    return value


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _game_of(record: GameRecord) -> Game:
    try:
        game = load(record.game)
    except GameshelfError as exc:
        raise InvalidRecord(f"record cannot start: {exc}") from None
    now = file_digests(game)
    for option, then in record.files.items():
        value = game.spec.params.get(option)
        if option not in now:
            raise InvalidRecord(
                f"record cannot start: 'files' holds a digest for option {option!r}, "
                f"which names no file in {record.game}"
            )
        if now[option] != then:
            raise InvalidRecord(
                f"record cannot start: the file of option {option}={value} has changed since "
                f"the game was recorded ({then[:19]}... then, {now[option][:19]}... now); "
                "replaying it would use other data"
            )
    return game


def _result(value: Any, game: Game) -> list[float] | None:
    """The checked ``result``: ``None``, or one finite number per player of ``game``."""
    if value is None:
        return None
    players = game.spec.num_players
    if not isinstance(value, list) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value
    ):
        raise InvalidRecord(
            f"record field 'result' must be a list of {players} numbers (one per player) or null"
        )
    if len(value) != players:
        raise InvalidRecord(
            f"record field 'result' has {_count(len(value), 'value')}, but {game.game_string} has "
            f"{players} players"
        )
    result = []
    for index, v in enumerate(value):
        try:
            number = float(v)
        except OverflowError:  # an integer too large for a float
            number = math.inf
        if not math.isfinite(number):
            raise InvalidRecord(f"record field 'result': value #{index} is not a finite number")
        result.append(number)
    return result


def _is_int(value: Any) -> bool:
    """An integer, and not a bool (``True`` is an ``int`` in Python, never a seat here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _move(index: int, entry: Any) -> RecordedMove:
    if isinstance(entry, dict):
        _refuse_misspelt(entry, MOVE_FIELDS, f"move #{index}")
    if not isinstance(entry, dict) or not isinstance(entry.get("move"), str):
        raise InvalidRecord(f"move #{index} must be an object with a 'move' text")
    if "player" not in entry:
        raise InvalidRecord(f"move #{index} has no 'player' (the seat that moved, -1 for chance)")
    player = entry["player"]
    if not _is_int(player):
        raise InvalidRecord(
            f"move #{index} has 'player' {player!r}: it must be an integer (-1 for chance)"
        )
    action = entry.get("action", -1)  # left out: the notation alone is replayed
    if "action" in entry and not (_is_int(action) and action >= 0):
        raise InvalidRecord(
            f"move #{index} has 'action' {action!r}: it must be an action id (0 or more)"
        )
    return RecordedMove(player, entry["move"], action)


def _optional_text(data: dict[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is not None and not isinstance(value, str):
        raise InvalidRecord(f"record field {name!r} must be text or null")
    return value


def _check_seats(record: GameRecord, game: Game) -> None:
    """One name per seat of ``game``; every mover a seat, chance (-1) or simultaneous (-2)."""
    seats = game.spec.num_players
    names = record.players
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InvalidRecord("record field 'players' must be a list of names")
    if len(names) != seats:
        raise InvalidRecord(
            f"record field 'players' has {_count(len(names), 'name')}, but {game.game_string} has "
            f"{seats} seats"
        )
    for index, entry in enumerate(record.moves):
        if not _is_int(entry.player) or not SIMULTANEOUS <= entry.player < seats:
            raise InvalidRecord(
                f"move #{index} has 'player' {entry.player!r}, which is no seat of "
                f"{game.game_string} (0 to {seats - 1}, or -1 for chance)"
            )


FIELDS = (
    "format",
    "version",
    "game",
    "seed",
    "players",
    "initial_position",
    "moves",
    "result",
    "started",
    "finished",
    "files",
)
MOVE_FIELDS = ("player", "move", "action")
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
"""What a ``files`` entry holds: a SHA-256 in lower-case hex, named."""


def _refuse_misspelt(data: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    """Refuse an unknown field named like a known one that ``data`` lacks (``reslt``)."""
    missing = [name for name in known if name not in data]
    for key in data:
        if key in known or not isinstance(key, str):
            continue
        close = difflib.get_close_matches(key.lower(), missing, n=1, cutoff=0.8)
        if close:
            raise InvalidRecord(f"{where} has an unknown field {key!r}: is it {close[0]!r}?")


def parse_record(data: Any) -> GameRecord:
    """Check the shape of decoded JSON and build a :class:`GameRecord` (no replay yet)."""
    if not isinstance(data, dict):
        raise InvalidRecord("a record must be a JSON object")
    _refuse_misspelt(data, FIELDS, "the record")
    if data.get("format") != FORMAT:
        raise InvalidRecord(f"not a gameshelf record: 'format' must be {FORMAT!r}")
    version = data.get("version")
    if not _is_int(version) or version != VERSION:
        raise InvalidRecord(f"unsupported record version {version!r} (expected {VERSION})")
    game_string = _field(data, "game", str)
    moves = [_move(index, entry) for index, entry in enumerate(_field(data, "moves", list))]
    seed = data.get("seed")
    if seed is not None and not _is_int(seed):
        raise InvalidRecord("record field 'seed' must be an integer or null")
    record = GameRecord(
        game=game_string,
        seed=seed,
        players=_field(data, "players", list),
        moves=moves,
        started=_optional_text(data, "started") or "",
        finished=_optional_text(data, "finished"),
        initial_position=_optional_text(data, "initial_position"),
        files=_files(data.get("files")),
    )
    game = _game_of(record)
    _check_seats(record, game)
    record.result = _result(data.get("result"), game)
    return record


def _files(value: Any) -> dict[str, str]:
    """The checked ``files`` field: option names to ``"sha256:<64 hex digits>"``."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidRecord("record field 'files' must be an object of option: digest")
    for option, digest in value.items():
        if not (isinstance(digest, str) and DIGEST.fullmatch(digest)):
            raise InvalidRecord(
                f"record field 'files': {option!r} must be 'sha256:' and 64 hex digits, "
                f"got {digest!r}"
            )
    return dict(value)


def load_record(path: str | Path) -> GameRecord:
    """Read and shape-check a record file (use :func:`replay` to check its moves)."""
    name = str(path)
    text = read_text_file(path, "record", InvalidRecord)
    data = parse_json_text(text, "record", name, InvalidRecord)
    return parse_record(data)


def replay(record: GameRecord) -> list[State]:
    """Every state of the recorded game, from the start to the last move, checking each move.

    Raises :class:`InvalidRecord` naming the first move that does not replay, or a result that
    disagrees with the engine.
    """
    game = _game_of(record)
    _check_seats(record, game)
    result = _result(record.result, game)
    try:
        state = _start(game, record.seed, record.initial_position)
    except GameshelfError as exc:
        raise InvalidRecord(f"record cannot start: {exc}") from None
    states = [state.clone()]
    for index, entry in enumerate(record.moves):
        mover = state.current_player()
        try:
            played = state.play(entry.move)
        except GameshelfError as exc:
            raise InvalidRecord(f"move #{index} {entry.move!r} does not replay: {exc}") from None
        if entry.action >= 0 and played.action != entry.action:
            raise InvalidRecord(
                f"move #{index} {entry.move!r} is action {played.action}, but the record says "
                f"{entry.action}"
            )
        if entry.player != mover:
            raise InvalidRecord(
                f"move #{index} {entry.move!r} was made by {mover}, "
                f"but the record says {entry.player}"
            )
        states.append(state.clone())
    if result is not None:
        if not state.is_terminal():
            raise InvalidRecord("the record has a result but its moves do not end the game")
        if result != [float(v) for v in state.returns()]:
            raise InvalidRecord(
                f"the recorded result {record.result} differs from the replayed {state.returns()}"
            )
    return states
