"""Axiom's bots with ``master``: what the ``axiom`` entry point of ``gameshelf.packs`` names.

A module of its own, apart from the recipe: the packs are loaded while the bots' package is
being imported, and this module needs nothing of the recipe's package but its name.
"""

from __future__ import annotations

from gameshelf.agents.axiom import PACK
from gameshelf.agents.packs import GamePack

from ..level import with_master


def pack() -> GamePack:
    """Axiom's own pack with ``master`` among its bots."""
    return with_master(PACK)
