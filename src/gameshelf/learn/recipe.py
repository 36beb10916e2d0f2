"""What the learning code knows of one game: its recipe, and where recipes are registered.

The loop, the network, the learner, the curve and ``master`` are the same for every game; a
game's :class:`Recipe` supplies the rest: the game string the network plays, the network's
input size and policy heads, how to read an engine position (:class:`Codec`), how its
self-play workers play (:class:`SelfPlayer`), its default settings and its shipped weights.

Recipes are found through the ``gameshelf.learners`` entry-point group, one entry point per
game, named after the game and pointing at a :class:`Recipe` (or a function returning one), the
way the games and the packs are registered. Each game's recipe lives in its own learning pack
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
    cheaper test).
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

    @property
    def name(self) -> str:
        """The game's registered name (the entry point's)."""
        return self.game.partition("(")[0]

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless ``game`` is one this recipe's network was trained for."""
        if game.spec.name != self.name or game.spec.num_players != self.players:
            raise ValueError(f"master plays {self.game} only, not {game.game_string}")


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


def recipe_named(name: str) -> Recipe:
    """The recipe of the game called ``name``; :class:`LearnError` listing those there are."""
    known = recipes()
    if name not in known:
        raise LearnError(f"learn knows {', '.join(sorted(known))}, not {name!r}")
    return known[name]


def recipe_for(game: Game) -> Recipe:
    """The recipe ``master`` plays ``game`` with; ``ValueError`` when there is none or its
    network was trained for other players or options."""
    recipe = recipes().get(game.spec.name)
    if recipe is None:
        known = ", ".join(r.game for r in recipes().values())
        raise ValueError(f"master plays {known} only, not {game.game_string}")
    recipe.check_game(game)
    return recipe
