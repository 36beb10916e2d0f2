"""The observation encoder's base: one seat's view of a state as a flat ``float32`` tensor.

An :class:`Encoder` turns ``(state, player)`` into a flat ``float32`` vector made of named
pieces (``encoder.pieces``: name and shape, in order). Every tensor is written from the point of
view of ``player``: seats are listed *relative* to it (itself first, then the next seat to its
left, ...), so one policy can play any seat. A game's pack gives its encoder
(:mod:`gameshelf.agents.packs`); the RL adapters use it through
:func:`gameshelf.rl.encodings.encoder_for`. Needs numpy (the ``rl`` extra), so nothing in the
agents imports this module until an encoder is asked for.

Action ids are the engines' own (``legal_actions()``); :func:`action_mask` builds the 0/1 mask.
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from typing import Any

import numpy as np
import numpy.typing as npt

from gameshelf.core.game import Game, State

Tensor = npt.NDArray[np.float32]
Pieces = tuple[tuple[str, tuple[int, ...]], ...]


class Encoder(ABC):
    """Writes one seat's observation of a state into named pieces of a flat tensor."""

    pieces: Pieces
    low: float = 0.0
    high: float = 1.0
    """Every value lies in ``[low, high]``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def size(self) -> int:
        """Length of the flat tensor."""
        return sum(math.prod(shape) for _, shape in self.pieces)

    def new_buffer(self) -> tuple[Tensor, dict[str, Tensor]]:
        """A zeroed flat tensor and named, reshaped views into it (they share memory)."""
        flat = np.zeros(self.size, dtype=np.float32)
        views: dict[str, Tensor] = {}
        start = 0
        for name, shape in self.pieces:
            length = math.prod(shape)
            views[name] = flat[start : start + length].reshape(shape)
            start += length
        return flat, views

    def encode(self, state: State, player: int) -> Tensor:
        """A new flat tensor of ``state`` as ``player`` sees it."""
        flat, views = self.new_buffer()
        self.fill(state, player, views)
        return flat

    @abstractmethod
    def fill(self, state: State, player: int, views: dict[str, Tensor]) -> None:
        """Write ``state`` as seen by ``player`` into zeroed ``views`` (from :meth:`new_buffer`)."""

    def text(self, state: State, player: int) -> str:
        """A readable observation string (the full position for perfect-information games)."""
        return state.position()


def relative_seats(player: int, players: int) -> list[int]:
    """Seats in the order the tensors list them: ``player`` first, then to its left."""
    return [(player + k) % players for k in range(players)]


def action_mask(state: State, num_actions: int) -> npt.NDArray[np.int8]:
    """``1`` at every legal action id of the player to move, ``0`` elsewhere."""
    mask = np.zeros(num_actions, dtype=np.int8)
    if not state.is_terminal() and not state.is_chance_node():
        mask[state.legal_actions()] = 1
    return mask


def view_text(view: dict[str, Any]) -> str:
    """A view as canonical JSON (sorted keys, no spaces): equal views give equal strings."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))
