"""Research adapters: OpenSpiel, PettingZoo and Gymnasium (``pip install gameshelf[rl]``).

Nothing heavy is imported here; import the adapter you need:

* :mod:`gameshelf.rl.openspiel` registers ``gameshelf_axiom``, ``gameshelf_cage`` and
  ``gameshelf_axia`` with ``pyspiel`` (options become game parameters);
* :mod:`gameshelf.rl.pettingzoo` offers AEC environments, ``env("axiom")``;
* :mod:`gameshelf.rl.gymnasium` registers ``gameshelf/Axiom-v0``, ``gameshelf/Cage-v0`` and
  ``gameshelf/Axia-v0`` (the other seats are played by one of our bots);
* :mod:`gameshelf.rl.encodings` holds the observation tensors all three share.

See ``docs/rl.md`` for the encodings (with diagrams) and examples.
"""

GAMES = ("axiom", "cage", "axia")
"""The games every adapter offers."""

GYM_IDS = {"axiom": "gameshelf/Axiom-v0", "cage": "gameshelf/Cage-v0", "axia": "gameshelf/Axia-v0"}
"""Gymnasium ids, registered when :mod:`gameshelf.rl.gymnasium` is imported."""

__all__ = ["GAMES", "GYM_IDS"]
