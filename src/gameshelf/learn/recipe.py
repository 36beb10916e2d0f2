"""What the learning code knows of one game: its recipe, and where recipes are registered.

The loop, the network, the learner, the curve and ``master`` are the same for every game; a
game's :class:`Recipe` supplies the rest: the game string the network plays, the network's
input size and policy heads, how to read an engine position (:class:`Codec`), how its
self-play workers play (:class:`SelfPlayer`), its default settings and its shipped weights.

Recipes are found through the ``gameshelf.learners`` entry-point group, one entry point per
game, named after the game and pointing at a :class:`Recipe` (or a function returning one), the
way the games and the packs are registered. A game played by two to four has one network per
table size: the entry point's recipe is the default table and lists the others as its
``variants``. Each game's recipe lives in its own learning pack
(``learn/<game>/``), the one place that may name the game. Nothing here imports a third-party
package, so the command line and the bots' registration read recipes without jax.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from gameshelf.core.game import Game, State
from gameshelf.core.registry import load_plugin

from .settings import LearnError, RunSettings

if TYPE_CHECKING:
    import numpy as np

    from .samples import Samples

RECIPE_GROUP = "gameshelf.learners"


class Codec(Protocol):
    """An engine position as the network reads it, always from the mover's seat."""

    def features(self, state: State) -> np.ndarray:
        """``float32[inputs]``: the position seen by the player to move."""

    def move_codes(self, state: State, actions: list[int]) -> np.ndarray:
        """``int32[len(actions), len(heads)]``: each legal action's index in each policy head
        (a move's logit is the sum of its heads' logits)."""


class SelfPlayer(Protocol):
    """One worker's games, kept going from one call to the next."""

    def play(self, weights: list[np.ndarray]) -> tuple[Samples, list[list[int]], int]:
        """Play one call's moves with the network of ``weights`` (the learner's arrays, as
        :func:`~gameshelf.learn.network.arrays_of` lists them): the samples and move lists of
        the games that ended, and how many positions were played."""


@dataclass(frozen=True)
class Recipe:
    """How one game is learned and played by ``master``.

    ``game`` is the game string the network plays (its players and options); ``inputs`` the
    length of :meth:`Codec.features`; ``heads`` the sizes of the policy heads a move is scored
    by; ``max_moves`` the most legal moves a training sample keeps; ``codec`` and ``selfplay``
    build the position reader and a worker's self-play (imported when called: they need the
    ``learn`` extra); ``weights`` is the shipped network; ``title`` names the game on the
    learning curve. ``wins_at_once(state, actions)``, when given, tells a search that the mover
    can win with one of ``actions``: such a position is valued as won without being searched
    (:func:`gameshelf.learn.puct.can_win` tries each move in the engine; a game may know a
    cheaper test). ``variants`` are the same game's recipes for other numbers of players.
    """

    game: str
    players: int
    inputs: int
    heads: tuple[int, ...]
    max_moves: int
    codec: Callable[[Game], Codec]
    selfplay: Callable[[RunSettings, int], SelfPlayer]
    weights: Path
    title: str
    defaults: RunSettings = field(default_factory=RunSettings)
    wins_at_once: Callable[[State, list[int]], bool] | None = None
    variants: tuple[Recipe, ...] = ()

    @property
    def name(self) -> str:
        """The game's registered name (the entry point's)."""
        return self.game.partition("(")[0]

    @property
    def tables(self) -> tuple[Recipe, ...]:
        """This recipe and its variants: every table size the game is learned at."""
        return (self, *self.variants)

    def for_players(self, players: int | None) -> Recipe:
        """The recipe of the table of ``players`` (``None``: this, the default one);
        :class:`LearnError` naming the table sizes there are."""
        for recipe in self.tables:
            if players is None or recipe.players == players:
                return recipe
        sizes = ", ".join(str(r.players) for r in self.tables)
        raise LearnError(f"{self.name} is learned at {sizes} players, not {players}")


@cache
def recipe_names() -> list[str]:
    """The games with an installed recipe, read from the entry points without loading them (a
    recipe may need NumPy, which a plain install lacks)."""
    return sorted({point.name for point in entry_points(group=RECIPE_GROUP)})


def recipes() -> dict[str, Recipe]:
    """Every installed recipe, by game name (loaded once)."""
    found: dict[str, Recipe] = {}
    for point in sorted(entry_points(group=RECIPE_GROUP), key=lambda p: p.name):
        recipe = load_plugin(point, Recipe, "learning recipe", LearnError)
        if recipe.name != point.name:
            raise LearnError(
                f"the learning recipe entry point {point.name} = {point.value!r} is for "
                f"{recipe.name!r}; name the entry point after its game"
            )
        found[point.name] = recipe
    return found


def recipe_named(name: str, players: int | None = None) -> Recipe:
    """The recipe of the game called ``name`` at ``players`` (``None``: its default table);
    :class:`LearnError` listing the games, or the table sizes, there are."""
    known = recipes()
    if name not in known:
        raise LearnError(f"learn knows {', '.join(sorted(known))}, not {name!r}")
    return known[name].for_players(players)


def is_default_table(recipe: Recipe) -> bool:
    """Whether ``recipe`` is its game's default table (the entry point's own recipe), which a
    command need not name ``--players`` for."""
    default = recipes().get(recipe.name)
    return default is None or default.players == recipe.players


def learn_command(recipe: Recipe) -> str:
    """The command that trains ``recipe``'s network (naming its players where its table is not
    the game's default one)."""
    players = "" if is_default_table(recipe) else f" --players {recipe.players}"
    return f"gameshelf learn {recipe.name}{players}"


def recipe_for(game: Game) -> Recipe:
    """The recipe ``master`` plays ``game`` with; ``ValueError`` when there is none or its
    network was trained for other players or options."""
    every = [table for recipe in recipes().values() for table in recipe.tables]
    for recipe in every:
        if recipe.name == game.spec.name and recipe.players == game.spec.num_players:
            return recipe
    known = ", ".join(r.game for r in every)
    raise ValueError(f"master plays {known} only, not {game.game_string}")
