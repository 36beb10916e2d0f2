"""The Cage's observation encoder for the RL adapters (``docs/rl.md`` draws its layout)."""

from __future__ import annotations

from typing import Any

from gameshelf.core.game import State

from ..encoding import Encoder, Pieces, Tensor, relative_seats


class CageEncoder(Encoder):
    """The Cage: 6 colour planes (relative seat order) + empty plane over 3 layers × 8 columns.

    Pieces: ``board`` (7, 3, 8), ``left`` (6,) cubies left per plane colour / 24, ``last_move``
    (56,) one-hot of the previous action id (55 = none; it fixes the no-reverse ban),
    ``to_move`` (4,) relative seat one-hot, ``ply`` (1,) plies played / ``max_plies``.
    """

    pieces: Pieces = (
        ("board", (7, 3, 8)),
        ("left", (6,)),
        ("last_move", (56,)),
        ("to_move", (4,)),
        ("ply", (1,)),
    )

    def plane_colours(self, player: int) -> list[int]:
        """Colour index of each board plane for ``player`` (its colours first)."""
        config = self.game.config  # type: ignore[attr-defined]
        order: list[int] = []
        for seat in relative_seats(player, config.players):
            order.extend(config.colours[seat])
        return order

    def fill(self, state: State, player: int, views: dict[str, Tensor]) -> None:
        """Write the board planes, stock, last move, mover and ply count."""
        s: Any = state
        colours = self.plane_colours(player)
        plane_of = {colour: index for index, colour in enumerate(colours)}
        board = views["board"]
        for cell, value in enumerate(s.board):
            z, r = divmod(cell, 8)
            if value:
                board[plane_of[value - 1], z, r] = 1.0
            else:
                board[6, z, r] = 1.0
        for index, colour in enumerate(colours):
            views["left"][index] = s.left[colour] / 24.0
        views["last_move"][s.last if s.last >= 0 else 55] = 1.0
        players = s.game.config.players
        if not s.is_terminal():
            views["to_move"][(s.player - player) % players] = 1.0
        views["ply"][0] = s.ply / s.game.config.max_plies
