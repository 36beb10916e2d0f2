"""The legal moves a seat may choose from, as structures: each move's parts beside its notation.

A table picks a move by its parts (a piece, a cell, a colour) and sends back the move's
notation; it never reads notation. The structures come from the game's registry entry
(``GameEntry.move_details``: by default the state's own ``legal_move_details``, which names
only the notation), so a plug-in game's moves are listed too.
"""

from __future__ import annotations

from gameshelf.core.game import State
from gameshelf.core.registry import game_entry

from .contract import LegalMove


def legal_details(state: State) -> list[LegalMove]:
    """The legal moves of the player to move in ``state``, in the order of ``legal_moves()``,
    each with its notation under ``move`` and the parts the game names (empty where no player
    is to move: at the end, or where chance acts)."""
    if state.current_player() < 0:
        return []
    describe = game_entry(state.game.spec.name).move_details
    return [LegalMove(**detail) for detail in describe(state)]
