"""Axiom's observation encoder and its fixed action encoding, for the RL adapters
(``docs/rl.md`` draws the layout)."""

from __future__ import annotations

from typing import Any

from gameshelf.core.game import State

from ..encoding import Encoder, Pieces, Tensor

MAX_CUBES = 12
MAX_SCEPTRES = 4
SPAN = 11
"""x and y offsets are capped here: 12 cubes in a row span 11, but after an elimination two
pieces can drift apart."""


class AxiomEncoder(Encoder):
    """Axiom as a piece list whose cube rows follow the action ids' cube ranks.

    Cells are translated so the lowest cube x and y are 0 (play is translation-free). Pieces:
    ``cubes`` (12, 11): present, mine, x/11, y/11 (offsets capped at 11), z/12, six dome bits
    (x+ x- y+ y- z+ z-), one row per cube in sorted cell order — row *r* is the cube of rank *r*
    in the action ids;
    ``sceptres`` (4, 20): present, mine, the rank of its cube (one-hot 12), its face (one-hot 6),
    own sceptres first; ``side`` (3,): I am Black, I am to move, plies played / ``max_plies``.
    """

    pieces: Pieces = (
        ("cubes", (MAX_CUBES, 11)),
        ("sceptres", (MAX_SCEPTRES, 20)),
        ("side", (3,)),
    )

    def fill(self, state: State, player: int, views: dict[str, Tensor]) -> None:
        """Write the cube rows, sceptre rows and side information."""
        s: Any = state
        cells = sorted(s.cubes)
        rank = {cell: index for index, cell in enumerate(cells)}
        mx = min((c[0] for c in cells), default=0)
        my = min((c[1] for c in cells), default=0)
        cubes = views["cubes"]
        for index, cell in enumerate(cells[:MAX_CUBES]):
            value = s.cubes[cell]
            cubes[index, 0] = 1.0
            cubes[index, 1] = 1.0 if value >> 6 == player else 0.0
            cubes[index, 2] = min(cell[0] - mx, SPAN) / SPAN
            cubes[index, 3] = min(cell[1] - my, SPAN) / SPAN
            cubes[index, 4] = cell[2] / 12.0
            for d in range(6):
                if value >> d & 1:
                    cubes[index, 5 + d] = 1.0
        ordered = sorted(s.sceptres, key=lambda sc: (sc[0] != player, sc[1], sc[2]))
        sceptres = views["sceptres"]
        for index, (colour, cell, face) in enumerate(ordered[:MAX_SCEPTRES]):
            sceptres[index, 0] = 1.0
            sceptres[index, 1] = 1.0 if colour == player else 0.0
            if cell in rank:
                sceptres[index, 2 + rank[cell]] = 1.0
            sceptres[index, 14 + face] = 1.0
        side = views["side"]
        side[0] = 1.0 if player == 0 else 0.0
        side[1] = 1.0 if s.current_player() == player else 0.0
        side[2] = s.ply / s.game.options.max_plies


class OutsideEncoding(ValueError):
    """A position or id the fixed Axiom action encoding cannot express."""


class AxiomActionEncoding:
    """Axiom moves as ids whose meaning does not depend on the position: a fixed encoding.

    The engine's ids name cubes by rank (their place in sorted cell order), so one id means
    different moves in different positions. Here a move is ``(source, target, kind)`` on a box
    laid over the structure, the same for every position up to translation in x and y:

    * the box is :data:`SPAN` cells in x and in y and :data:`HEIGHT` in z; its corner (offset
      0, 0) is one cell west and south of the lowest cube x and lowest cube y, and z starts on
      the table (z = 1), so a cube move one cell beyond the structure still lands inside it;
    * ``source`` and ``target`` are box cells, ``(dx * SPAN + dy) * HEIGHT + (z - 1)``: the
      cube a sceptre stands on and the cube it moves to, or the cube lifted and the cell it is
      placed in;
    * ``kind`` is the face a sceptre ends on (0-5: x+ x- y+ y- z+ z-) or ``6 +`` the index of a
      cube's dome set in :data:`~gameshelf.games.axiom.geometry.PLACEMENTS` (18 of them);
    * the id is ``(source * CELLS + target) * KINDS + kind``, below :attr:`size`.

    Limits: the cubes may span at most ``SPAN - 2`` cells in x and in y and stand at most
    ``HEIGHT - 1`` high (the cells one beyond are targets). :meth:`origin` refuses any other
    position with :class:`OutsideEncoding`, naming the extent; random and bot play stay well
    inside (the widest seen in a sample of random games spans 9 cells, the highest reaches
    z = 5). The flat space is large (``CELLS**2 * KINDS``); a policy usually scores the three
    parts (:meth:`parts`) instead of every id.
    """

    SPAN = 12
    """Box cells in x and in y."""
    HEIGHT = 8
    """Box cells in z."""
    CELLS = SPAN * SPAN * HEIGHT
    KINDS = 6 + 18
    """Six sceptre faces, then the 18 dome sets of a cube."""

    @property
    def size(self) -> int:
        """How many fixed ids there are."""
        return self.CELLS * self.CELLS * self.KINDS

    def origin(self, state: State) -> tuple[int, int]:
        """The ``(x, y)`` of the box's corner for ``state``; :class:`OutsideEncoding` when the
        structure does not fit (see the class docstring)."""
        cubes = _axiom_cubes(state)
        if not cubes:
            raise OutsideEncoding("the position has no cubes to lay the box over")
        for axis, name in ((0, "x"), (1, "y")):
            low = min(cell[axis] for cell in cubes)
            extent = max(cell[axis] for cell in cubes) - low + 1
            if extent > self.SPAN - 2:
                raise OutsideEncoding(
                    f"the cubes span {extent} cells in {name}; the fixed action encoding "
                    f"holds at most {self.SPAN - 2}"
                )
        top = max(cell[2] for cell in cubes)
        if top > self.HEIGHT - 1:
            raise OutsideEncoding(
                f"a cube stands at z = {top}; the fixed action encoding holds cubes up to "
                f"z = {self.HEIGHT - 1}"
            )
        return min(c[0] for c in cubes) - 1, min(c[1] for c in cubes) - 1

    def to_fixed(self, state: State, action: int) -> int:
        """The fixed id of the engine id ``action`` (a legal move of either side here)."""
        from gameshelf.games.axiom.actions import SCEPTRE, decode
        from gameshelf.games.axiom.board import unpack
        from gameshelf.games.axiom.geometry import PLACEMENT_INDEX

        if action not in state.legal_actions() and action not in _axiom_other_moves(state):
            raise OutsideEncoding(f"action {action} is no legal move in this position")
        s: Any = state
        move = decode(s.board, action)
        assert move is not None  # a legal id decodes
        kind, source, target, extra = move
        code = extra if kind == SCEPTRE else 6 + PLACEMENT_INDEX[extra]
        x0, y0 = self.origin(state)
        return self.join(
            self._cell(unpack(source), x0, y0), self._cell(unpack(target), x0, y0), code
        )

    def legal_fixed(self, state: State) -> dict[int, int]:
        """The legal moves of the side to move: fixed id → engine id."""
        return {self.to_fixed(state, action): action for action in state.legal_actions()}

    def from_fixed(self, state: State, fixed: int) -> int:
        """The engine id of the legal move ``fixed`` names here; :class:`OutsideEncoding` when
        it names none (out of range, or no legal move of the side to move)."""
        if isinstance(fixed, bool) or not isinstance(fixed, int) or not 0 <= fixed < self.size:
            raise OutsideEncoding(f"fixed id {fixed!r} is not an int in 0..{self.size - 1}")
        found = self.legal_fixed(state).get(fixed)
        if found is None:
            source, target, kind = self.parts(fixed)
            raise OutsideEncoding(
                f"fixed id {fixed} (source {source}, target {target}, kind {kind}) is no legal "
                "move of the side to move here"
            )
        return found

    def join(self, source: int, target: int, kind: int) -> int:
        """The fixed id of box cells ``source``, ``target`` and ``kind``."""
        return (source * self.CELLS + target) * self.KINDS + kind

    def parts(self, fixed: int) -> tuple[int, int, int]:
        """``(source, target, kind)`` of a fixed id (box cells and kind, see the class)."""
        rest, kind = divmod(fixed, self.KINDS)
        source, target = divmod(rest, self.CELLS)
        return source, target, kind

    def _cell(self, cell: tuple[int, int, int], x0: int, y0: int) -> int:
        """The box cell of ``cell`` (inside the box: :meth:`origin` checked the extent)."""
        x, y, z = cell
        return ((x - x0) * self.SPAN + (y - y0)) * self.HEIGHT + (z - 1)


def _axiom_cubes(state: State) -> dict[tuple[int, int, int], int]:
    """The cubes of an Axiom state (``TypeError`` for another game's)."""
    cubes = getattr(state, "cubes", None)
    if not isinstance(cubes, dict) or getattr(state, "board", None) is None:
        raise TypeError("the fixed action encoding reads Axiom states only")
    return cubes


def _axiom_other_moves(state: State) -> list[int]:
    """The moves the side not to move would have here (ids decode in either side's moves)."""
    s: Any = state
    result: list[int] = s.moves_of(1 - s.to_move)
    return result
