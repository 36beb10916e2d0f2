"""The sizes of the Cage's network inputs and moves, apart from the features' NumPy code so that
the recipe (read wherever the bots are, learn extra or not) imports no third-party package."""

from __future__ import annotations

from gameshelf.games.cage.actions import FLIP, TWIST_BASE
from gameshelf.games.cage.geometry import CELLS, LINES
from gameshelf.games.cage.geometry import COLOURS as COLOUR_LETTERS

COLOURS = len(COLOUR_LETTERS)
NUM_ACTIONS = FLIP + 1
"""Drops (6 colours x 8 columns), the six twists and the flip: the engine's action ids."""
NO_FORBID = FLIP - TWIST_BASE + 1
"""The forbidden-turn slot meaning "none" (after a drop, or before the first move)."""
FORBID_SLOTS = NO_FORBID + 1
FEATURES = CELLS * COLOURS + COLOURS + FORBID_SLOTS + 1 + len(LINES) * (COLOURS + 2)
"""One-hot canonical colour per cell, cubies left per canonical colour, the forbidden turn
one-hot, the fraction of the ply cap played; then per line, the share of its cells holding each
canonical colour, the share empty and the share a drop could fill now (the lowest empty cell of
its column). The cells alone hold all of it, but the line counts spare a small network from
learning the cage's geometry before it can see a threat."""
