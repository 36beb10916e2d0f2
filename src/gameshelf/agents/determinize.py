"""Determinisation: a full state consistent with what one seat may know, drawn at random.

A bot of a hidden-information game must decide from its own view only. The functions here
build a *sample* world from the public part of the state and the observer's private cards:
every card the observer cannot see is pooled and dealt again at random into the same hidden
places (opponents' hands, items and face-down placements, the decks, the discard), with the
same counts. The result depends only on what the observer may know and on the RNG, so two
states that differ only in hidden cards give the same samples (``tests/agents`` checks this).

A hidden-information game's pack gives its determiniser (:mod:`gameshelf.agents.packs`); for
perfect-information games a determinisation is a plain copy.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from gameshelf.core.game import Game, State

from .packs import pack_for

Determinizer = Callable[[State, int, random.Random], State]
Observer = Callable[[State, int, int], bool]

HIDDEN_EDGE = -2
"""Tree key shared by every move or chance outcome the observer cannot see."""


def copy_state(state: State, observer: int, rng: random.Random) -> State:
    """Perfect information: the state itself (copied) is the only world."""
    return state.clone()


def everything_visible(state: State, observer: int, action: int) -> bool:
    """Perfect information: every move and chance outcome is seen by everyone."""
    return True


def determinizer_for(game: Game) -> tuple[Determinizer, Observer]:
    """The determiniser and visibility test of ``game``: its pack's, else (perfect
    information) the plain copy and "everyone sees everything".

    A hidden-information game whose pack deals no worlds raises ``ValueError`` (a bot would
    otherwise decide from cards its seat cannot see), which makes the searching bots unfit
    for it."""
    pack = pack_for(game)
    if pack.determinizer is not None:
        return pack.determinizer, pack.observer or everything_visible
    if game.spec.hidden_information:
        raise ValueError(
            f"{game.game_string} hides information and no pack deals a seat's view into a "
            "world, so a searching bot would read hidden cards"
        )
    return copy_state, everything_visible
