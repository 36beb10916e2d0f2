"""Every limit and timeout of the server in one place, with its default and its command-line flag.

``docs/operations.md`` lists the same table; ``gameshelf serve --help`` prints each flag with
its default. A test checks that every field here is documented there.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from gameshelf.core.errors import InvalidData


@dataclass(frozen=True)
class ServerSettings:
    """Limits of one server process (the defaults suit a small public server on 2 cores)."""

    max_message_bytes: int = field(
        default=16 * 1024, metadata={"help": "largest WebSocket message answered normally"}
    )
    max_frame_bytes: int = field(
        default=1024 * 1024,
        metadata={"help": "WebSocket frames above this close the socket (1009)"},
    )
    max_body_bytes: int = field(default=64 * 1024, metadata={"help": "largest HTTP request body"})
    body_timeout: float = field(
        default=10.0, metadata={"help": "seconds a client may take to send a request body"}
    )
    header_timeout: float = field(
        default=10.0, metadata={"help": "seconds a client may take to send request headers"}
    )
    keep_alive_timeout: float = field(
        default=5.0, metadata={"help": "seconds an idle HTTP keep-alive connection stays open"}
    )
    hello_timeout: float = field(
        default=10.0, metadata={"help": "seconds a new WebSocket has to send its hello"}
    )
    ws_rate_per_second: float = field(
        default=20.0, metadata={"help": "WebSocket messages per second per connection"}
    )
    ws_rate_burst: float = field(
        default=40.0, metadata={"help": "WebSocket message burst per connection"}
    )
    send_queue: int = field(
        default=64,
        metadata={"help": "messages queued for a slow client before it is disconnected (4008)"},
    )
    sockets_per_address: int = field(
        default=32, metadata={"help": "open WebSockets from one address"}
    )
    sockets_per_match: int = field(
        default=64,
        metadata={
            "help": "open WebSockets on one match: spectators, and players' connections, each "
            "up to this many"
        },
    )
    creates_per_minute: float = field(
        default=20.0,
        metadata={
            "help": "matches one address may create per minute (burst: half that, at least 10)"
        },
    )
    joins_per_minute: float = field(
        default=60.0,
        metadata={"help": "seats one address may join per minute (burst: half that, at least 20)"},
    )
    replays_per_minute: float = field(
        default=30.0,
        metadata={"help": "replays one address may ask for per minute (burst: half, at least 10)"},
    )
    max_bot_only_matches: int = field(
        default=8, metadata={"help": "running matches with no human seat (bots only)"}
    )
    bot_move_seconds: float = field(
        default=5.0, metadata={"help": "the most a bot may think about one move"}
    )
    max_plies: int = field(
        default=2000, metadata={"help": "cap on max_plies-style options of network matches"}
    )
    idle_evict_seconds: float = field(
        default=600.0,
        metadata={"help": "a match with no client and no bot turn leaves memory after this"},
    )
    chat_max_chars: int = field(
        default=300, metadata={"help": "longest chat message, in characters"}
    )
    chat_per_minute: float = field(
        default=10.0, metadata={"help": "chat messages one seat may send per minute (bursts of 3)"}
    )
    chat_spectators: int = field(
        default=0, metadata={"help": "1: spectators may read a match's chat (they never write)"}
    )
    logins_per_minute: float = field(
        default=10.0,
        metadata={"help": "log-ins and registrations one address may try per minute (bursts of 5)"},
    )
    logins_per_name_per_minute: float = field(
        default=5.0,
        metadata={
            "help": "wrong passwords one account name may be tried with per minute, all processes "
            "together (bursts of 5); the owner's known browser is never held back"
        },
    )
    rated_min_bank_seconds: float = field(
        default=60.0,
        metadata={"help": "the least real-time bank per seat a rated match may be created with"},
    )
    first_move_grace_seconds: float = field(
        default=30.0,
        metadata={
            "help": "rated real-time matches: each seat's first move has this long, off its "
            "bank; a seat that lets it pass aborts the match (nothing is rated)"
        },
    )
    rated_pair_games_per_day: int = field(
        default=3,
        metadata={
            "help": "rated results between the same two accounts in one game that count per "
            "24 hours; later ones in that window change no rating"
        },
    )
    session_days: float = field(
        default=30.0, metadata={"help": "days a log-in session lasts (the cookie's life)"}
    )
    hashing_threads: int = field(
        default=2,
        metadata={
            "help": "threads that hash and check passwords, all log-ins and registrations of "
            "the process together; the rest wait their turn, never on the threads that store moves"
        },
    )

    work_seconds_per_minute: float = field(
        default=20.0,
        metadata={
            "help": "seconds of search (hints, analyses) one address, and one account, may "
            "use per minute; a request past it is refused until the budget refills"
        },
    )
    work_seconds_burst: float = field(
        default=60.0,
        metadata={
            "help": "seconds of search one address or account may use at once (a full "
            "bucket); a longer job needs a full bucket"
        },
    )
    work_queue: int = field(
        default=64,
        metadata={
            "help": "hints and analyses waiting for a worker, all addresses together; past "
            "it a request is refused (server/busy)"
        },
    )
    work_cache_entries: int = field(
        default=256,
        metadata={"help": "hints and analyses kept to answer the same question again"},
    )

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        """Add one ``--flag`` per limit (``max_body_bytes`` becomes ``--max-body-bytes``)."""
        group = parser.add_argument_group("limits (see docs/operations.md)")
        for item in fields(cls):
            group.add_argument(
                "--" + item.name.replace("_", "-"),
                dest=item.name,
                type=type(item.default),
                default=item.default,
                help=f"{item.metadata['help']} (default: {shown(item.default)})",
            )

    @classmethod
    def from_arguments(cls, args: argparse.Namespace) -> ServerSettings:
        """The settings given on the command line (defaults for flags not given)."""
        values: dict[str, Any] = {
            item.name: getattr(args, item.name, item.default) for item in fields(cls)
        }
        return cls(**values)


def shown(value: object) -> str:
    """A default as ``--help`` shows it: integers whole (1048576, not ``:g``'s 1.04858e+06),
    and a float with no fraction without one (600.0 as 600)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def parse_card_sets(items: list[str]) -> dict[str, Path]:
    """``NAME=FILE`` arguments of ``--card-set`` as a name → path map (a bad one is refused)."""
    sets: dict[str, Path] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise InvalidData(f"--card-set {item!r}: expected NAME=FILE")
        sets[name.strip()] = Path(path.strip())
    return sets
