"""Research adapters: OpenSpiel, PettingZoo and Gymnasium (``pip install gameshelf[rl]``).

Nothing heavy is imported here; import the adapter you need:

* :mod:`gameshelf.rl.openspiel` registers every registered game with ``pyspiel`` as
  ``gameshelf_NAME`` (``gameshelf_cage``; options become game parameters);
* :mod:`gameshelf.rl.pettingzoo` offers AEC environments, ``env("axiom")``;
* :mod:`gameshelf.rl.gymnasium` registers every game as :func:`gym_id` names it
  (``gameshelf/Cage-v0``; the other seats are played by one of our bots);
* :mod:`gameshelf.rl.encodings` holds the observation tensors all three share.

See ``docs/rl.md`` for the encodings (with diagrams) and examples.
"""

from gameshelf.core.registry import available_games

GYM_PREFIX = "gameshelf/"
GYM_VERSION = "v0"


def games() -> list[str]:
    """The games every adapter offers: every registered game (plug-ins included), sorted."""
    return available_games()


def gym_id(name: str) -> str:
    """The Gymnasium id of game ``name``: ``gameshelf/Cage-v0`` for ``cage``."""
    return f"{GYM_PREFIX}{name.capitalize()}-{GYM_VERSION}"


__all__ = ["games", "gym_id"]
