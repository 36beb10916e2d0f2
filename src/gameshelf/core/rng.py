"""Seeded randomness for drivers (play loops, bots, arenas), never for the rules themselves.

Games expose chance as explicit chance nodes; whoever drives a game samples them with an RNG
made here, so that a seed in a record reproduces a whole game.
"""

from __future__ import annotations

import random
import secrets


def new_seed() -> int:
    """A fresh random seed (63 bits), for when the user gives none."""
    return secrets.randbits(63)


def make_rng(seed: int | None) -> random.Random:
    """A ``random.Random`` seeded with ``seed`` (a fresh seed when ``None``)."""
    return random.Random(new_seed() if seed is None else seed)


def derive_seed(seed: int, *labels: object) -> int:
    """A child seed for a named purpose (e.g. one per seat), stable across runs and platforms."""
    text = ":".join([str(seed), *(str(label) for label in labels)])
    value = 1469598103934665603
    for byte in text.encode():
        value = ((value ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return value >> 1
