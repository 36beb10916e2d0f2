"""Game packs: what the bots know of one game, registered the way the games themselves are.

A pack holds one game's bot knowledge: its levels, the searches those levels use, its evaluator
and transposition key (:class:`~gameshelf.agents.evaluators.GameKnowledge`), how a seat's view
is dealt into a full world (hidden information), its extra named bots and its observation
encoder for the RL adapters. The generic modules (levels, evaluators, determinisation, the
catalogue, the RL encodings, the bench) ask :func:`pack_for` and never name a game.

Packs are found through the ``gameshelf.packs`` entry-point group, one entry point per game,
named after the game and pointing at a :class:`GamePack` (or at a function without arguments
that returns one)::

    [project.entry-points."gameshelf.packs"]
    mygame = "mypackage.mygame_bots:PACK"

A game without a pack still plays everywhere: :func:`pack_for` gives it an empty pack, and
each generic module falls back to what works for any game (MCTS or alpha-beta levels by time
budget, the neutral evaluator, the flattened view as an observation).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

from gameshelf.core.errors import GameshelfError
from gameshelf.core.game import Game, State
from gameshelf.core.registry import load_plugin

from .base import Agent

if TYPE_CHECKING:
    from .determinize import Determinizer, Observer
    from .evaluators import GameKnowledge
    from .levels import LevelSpec

PACK_GROUP = "gameshelf.packs"

SearchBuilder = Callable[[Game, int | None, "LevelSpec", int, float | None], Agent]
"""Builds a level's search: ``(game, seed, spec, cap, seconds)``, where ``cap`` is the
iteration or node budget and ``seconds`` the clock (``None``: search exactly ``cap``)."""


@dataclass(frozen=True)
class Search:
    """A search a level may name as its algorithm, and what its budget counts."""

    build: SearchBuilder
    counts: str = "iterations"


@dataclass(frozen=True)
class PackBot:
    """A named bot a pack adds beside the levels (a trial or a reference opponent), with the
    strength rank and the line the catalogue shows."""

    name: str
    factory: Callable[[Game, int | None], Agent]
    strength: int
    summary: str


@dataclass(frozen=True)
class BenchFacts:
    """What ``gameshelf bench`` measures of one game beyond the generic rows.

    ``mcts_game`` is the game string of the MCTS rows (plain MCTS needs perfect information or
    one player; empty: the game's name); ``reference`` an OpenSpiel game whose C++ playouts the
    game's own are held to, at least ``ratio`` times as fast; ``variants`` game strings with
    rules of their own, each held to ``variant_ratio`` of the default's playout speed.
    """

    mcts_game: str = ""
    reference: str = ""
    ratio: float = 0.0
    variants: tuple[str, ...] = ()
    variant_ratio: float = 0.8


@dataclass(frozen=True)
class GamePack:
    """One game's bot knowledge. Only ``game`` is required; every part left out falls back to
    the generic one.

    ``levels`` gives the level table of a configured game (``easy`` ... ``expert`` to a
    :class:`~gameshelf.agents.levels.LevelSpec`); ``searches`` the game's own searches by the
    algorithm names the table uses; ``knowledge`` the evaluator, greedy evaluator and key;
    ``determinizer`` and ``observer`` deal a seat's view into a world and say which moves a seat
    sees; ``greedy_looks_ahead`` lets ``greedy`` avoid a move that hands the opponent a win at
    once (cheap only where moves are few); ``bots`` adds named bots; ``encoder`` returns the RL
    observation encoder of a configured game (imported only when called, since the encoders
    need the ``rl`` extra); ``results`` gives a finished game's figures beyond its returns for
    the arena's tables (a scored game's ``scores``, a solo ``rank``); ``bench`` what the bench
    measures of it.
    """

    game: str
    _: KW_ONLY
    levels: Callable[[Game], Mapping[str, LevelSpec]] | None = None
    searches: Mapping[str, Search] = field(default_factory=dict)
    knowledge: GameKnowledge[Any] | None = None
    determinizer: Determinizer | None = None
    observer: Observer | None = None
    greedy_looks_ahead: bool = False
    bots: tuple[PackBot, ...] = ()
    encoder: Callable[[Game], Any] | None = None
    results: Callable[[State], Mapping[str, Any]] | None = None
    bench: BenchFacts = field(default_factory=BenchFacts)


class PackError(GameshelfError):
    """A pack's entry point cannot be loaded or does not describe a pack."""

    code = "agent/bad-pack"


_PACKS: dict[str, GamePack] = {}
_LISTENERS: list[Callable[[GamePack], None]] = []
_discovered = False


def on_pack(listener: Callable[[GamePack], None]) -> None:
    """Call ``listener`` with every pack registered now and later (the levels register each
    pack's searches and bots this way)."""
    _LISTENERS.append(listener)
    for pack in list(_PACKS.values()):
        listener(pack)


def register_pack(pack: GamePack) -> None:
    """Add a pack by hand (a second pack for one game replaces the first)."""
    if not isinstance(pack, GamePack):
        raise PackError(f"register_pack needs a GamePack, not {type(pack).__name__}")
    _PACKS[pack.game] = pack
    for listener in _LISTENERS:
        listener(pack)


def pack_from_point(point: EntryPoint) -> GamePack:
    """Load one entry point of the group and check that it is a pack for the game it names."""
    pack = load_plugin(point, GamePack, "pack", PackError)
    if pack.game != point.name:
        raise PackError(
            f"the pack entry point {point.name} = {point.value!r} is a pack for "
            f"{pack.game!r}; name the entry point after its game"
        )
    return pack


def discover_packs() -> None:
    """Load every installed pack once (a pack registered by hand first is kept)."""
    global _discovered
    if _discovered:
        return
    _discovered = True  # first: a pack that asks for packs while it loads finds no loop
    try:
        for point in sorted(entry_points(group=PACK_GROUP), key=lambda p: p.name):
            if point.name not in _PACKS:
                register_pack(pack_from_point(point))
    except PackError:
        _discovered = False  # every later call says so again, rather than run without packs
        raise


def pack_for(game: Game) -> GamePack:
    """The pack of ``game``, or an empty one (every part generic) for a game without one."""
    return pack_named(game.spec.name)


def pack_named(name: str) -> GamePack:
    """The pack of the game called ``name``, or an empty one."""
    discover_packs()
    return _PACKS.get(name) or GamePack(name)


def all_packs() -> list[GamePack]:
    """Every registered pack, by game name."""
    discover_packs()
    return [_PACKS[name] for name in sorted(_PACKS)]
