"""Fixed-size observation tensors for every game, shared by all the adapters.

:func:`encoder_for` gives a game's encoder: the one its pack names
(:mod:`gameshelf.agents.packs`; the Cage's, Axiom's and AXIA's are drawn in ``docs/rl.md``), else
a :class:`GenericEncoder` built from what the state offers. The base class and its helpers live
in :mod:`gameshelf.agents.encoding` (so a pack can subclass it) and are re-exported here.

Every tensor is written from the point of view of one seat; a hidden-information encoder reads
only that seat's view (``state.view(player)``), never the state itself, so a tensor cannot
reveal more than that seat may know.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from gameshelf.agents.encoding import (
    Encoder,
    Pieces,
    Tensor,
    action_mask,
    relative_seats,
    view_text,
)
from gameshelf.agents.packs import pack_for
from gameshelf.core.game import Game, State

TENSOR_METHODS = ("observation", "information_state")
"""Methods a state may offer that return one seat's observation as a flat list of numbers
(``state.observation(player)``); the generic encoder uses the first one the state has."""


class GenericEncoder(Encoder):
    """An encoder for a game whose pack gives none.

    It uses the state's own ``observation(player)`` (else ``information_state(player)``) when
    the state has one, else the seat's view (``state.view(player)``) flattened: its leaves in
    sorted key order, a number as itself, a truth value as 0 or 1, a text as the code of each
    character. The length is fixed by the initial state; a state whose flattened view has
    another length raises ``ValueError`` (such a game needs an encoder in its pack). Values are
    not bounded, so :attr:`low` and :attr:`high` are infinite.
    """

    low = -math.inf
    high = math.inf

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        probe = game.new_initial_state(0)
        self.method = next((m for m in TENSOR_METHODS if callable(getattr(probe, m, None))), None)
        self.pieces: Pieces = (("observation", (len(self._values(probe, 0)),)),)

    def _values(self, state: State, player: int) -> list[float]:
        if self.method is None:
            return list(flatten(state.view(player)))
        values: Sequence[float] = getattr(state, self.method)(player)
        return [float(value) for value in values]

    def fill(self, state: State, player: int, views: dict[str, Tensor]) -> None:
        """Write the state's own tensor, or the flattened view, of ``player``."""
        self._write(self._values(state, player), views)

    def fill_view(self, view: dict[str, Any], player: int, views: dict[str, Tensor]) -> None:
        """Write a view (a seat's or the public one) flattened, whatever the state offers."""
        self._write(list(flatten(view)), views)

    def _write(self, values: list[float], views: dict[str, Tensor]) -> None:
        target = views["observation"]
        if len(values) != len(target):
            raise ValueError(
                f"{self.game.game_string} gave an observation of {len(values)} numbers where its "
                f"initial state gave {len(target)}; give the game an encoder in its pack"
            )
        target[:] = values

    def text(self, state: State, player: int) -> str:
        """The seat's view as canonical JSON (never another seat's cards)."""
        return view_text(state.view(player))


def flatten(value: Any) -> Iterator[float]:
    """The numbers of a JSON-like value, its leaves in sorted key order (see
    :class:`GenericEncoder`)."""
    if isinstance(value, bool):
        yield 1.0 if value else 0.0
    elif isinstance(value, int | float):
        yield float(value)
    elif isinstance(value, str):
        yield from (float(ord(char)) for char in value)
    elif isinstance(value, dict):
        for key in sorted(value):
            yield from flatten(value[key])
    elif isinstance(value, list | tuple):
        for item in value:
            yield from flatten(item)
    elif value is not None:
        raise ValueError(f"a view holds a {type(value).__name__}, which is not JSON data")


def encoder_for(game: Game) -> Encoder:
    """The observation encoder of ``game`` (configured by its options): its pack's, else the
    generic one."""
    make = pack_for(game).encoder
    encoder: Encoder = GenericEncoder(game) if make is None else make(game)
    return encoder


__all__ = [
    "Encoder",
    "GenericEncoder",
    "Pieces",
    "Tensor",
    "action_mask",
    "encoder_for",
    "flatten",
    "relative_seats",
    "view_text",
]
