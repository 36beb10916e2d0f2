"""Fixed-size observation tensors for every game, shared by all the adapters.

An :class:`Encoder` turns ``(state, player)`` into a flat ``float32`` vector made of named
pieces (``encoder.pieces``: name and shape, in order). Every tensor is written from the point of
view of ``player``: seats are listed *relative* to it (itself first, then the next seat to its
left, ...), so one policy can play any seat. ``docs/rl.md`` draws each layout.

Hidden information: the AXIA encoder reads **only** ``state.view(player)`` (the engine's
per-seat view, tested to hold no other seat's cards), never the state itself, so a tensor cannot
reveal more than that seat may know. The Cage and Axiom have no hidden information.

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
    high: float = 1.0
    """Every value lies in ``[0, high]``."""

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


# --------------------------------------------------------------------------- the Cage


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


# --------------------------------------------------------------------------- Axiom

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


# --------------------------------------------------------------------------- Axiom fixed actions


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


# --------------------------------------------------------------------------- AXIA


def _axia_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Phase, effect and region names as the AXIA engine writes them in its views."""
    from gameshelf.games.axia.actions import PHASE_NAMES
    from gameshelf.games.axia.cards import REGIONS
    from gameshelf.games.axia.effects import EFFECT_NAMES

    return tuple(PHASE_NAMES), tuple(EFFECT_NAMES), tuple(REGIONS)


MAX_SCORE = 1000


class AxiaEncoder(Encoder):
    """AXIA from one seat's view (``state.view(player)`` only; nothing else is read).

    Per seat (relative order) ``spaces`` (n, 36, F): occupied, wounded, defeated, region
    one-hot (5), magical, critical number one-hot (7; 0 = none), beast kind one-hot; ``scoring``
    (n, 6, S) the card in each slot (zeros while hidden); ``seats`` (n, 5): hand count / 10,
    item count / 10, committed, public score / 200 (capped at 1000), scoring hidden. Shared:
    ``phase`` (6,),
    ``round`` (1,) / 8, ``starting`` (n,), ``to_move`` (n + 2,) (seats, chance, over),
    ``dice`` (D, 8 + n): magic, value one-hot (6), unused, used by (relative seat),
    ``face_up`` (F, T), ``decks`` (3,), ``effect`` (12 + 5 + 36,), ``turn`` (3,). Private to the
    viewer: ``hand`` (T,), ``items`` (I,), ``offer`` (S,), ``pending`` (T + 9,).
    """

    high = MAX_SCORE / 200.0

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        g: Any = game
        self.n: int = g.players
        self.beasts = sorted(set(g.tables.beast))
        self.beast_index = {name: i for i, name in enumerate(self.beasts)}
        t, s, i = len(g.cards.territory), len(g.cards.scoring), len(g.cards.items)
        self.counts = (t, s, i)
        self.phases, self.effects, self.regions = _axia_names()
        features = 3 + len(self.regions) + 1 + 7 + len(self.beasts)
        self.offsets = (3 + len(self.regions), 4 + len(self.regions), 11 + len(self.regions))
        n = self.n
        self.pieces = (
            ("spaces", (n, 36, features)),
            ("scoring", (n, 6, s)),
            ("seats", (n, 5)),
            ("phase", (len(self.phases),)),
            ("round", (1,)),
            ("starting", (n,)),
            ("to_move", (n + 2,)),
            ("dice", (g.num_dice, 8 + n)),
            ("face_up", (g.face_up_size, t)),
            ("decks", (3,)),
            ("effect", (len(self.effects) + len(self.regions) + 36,)),
            ("turn", (3,)),
            ("hand", (t,)),
            ("items", (i,)),
            ("offer", (s,)),
            ("pending", (t + 9,)),
        )

    def text(self, state: State, player: int) -> str:
        """The seat's view as canonical JSON (keys sorted)."""
        return view_text(state.view(player))

    def fill(self, state: State, player: int, views: dict[str, Tensor]) -> None:
        """Write the tensor from ``state.view(player)``."""
        self.fill_view(state.view(player), player, views)

    def fill_view(self, view: dict[str, Any], player: int, views: dict[str, Tensor]) -> None:
        """Write the tensor from a view (``view(None)`` for the public part only), seats
        relative to ``player``."""
        g: Any = self.game
        seats = relative_seats(player, self.n)
        for row, seat in enumerate(seats):
            self._fill_seat(views, row, view["players"][seat], g)
        views["phase"][self.phases.index(view["phase"])] = 1.0
        views["round"][0] = view["round"] / 8.0
        views["starting"][(view["starting_slayer"] - player) % self.n] = 1.0
        to_move = view["to_move"]
        if to_move >= 0:
            views["to_move"][(to_move - player) % self.n] = 1.0
        elif to_move == -1:
            views["to_move"][self.n] = 1.0
        else:
            views["to_move"][self.n + 1] = 1.0
        self._fill_dice(views["dice"], view["dice"], player)
        for slot, card in enumerate(view["face_up"]):
            if card is not None:
                views["face_up"][slot, g.territory_index[card]] = 1.0
        views["decks"][:] = (
            view["territory_deck"] / 60.0,
            view["discard"] / 60.0,
            view["item_deck"] / 24.0,
        )
        self._fill_effect(views["effect"], view["effect"])
        turn = view.get("turn")
        if turn is not None:
            views["turn"][:] = (turn["die_taken"], turn["item_played"], turn["physical_as_magic"])
        self._fill_private(views, view["players"][player], g)

    def _fill_seat(self, views: dict[str, Tensor], row: int, seat: dict[str, Any], g: Any) -> None:
        from gameshelf.games.axia.board import CELL_SPACES

        spaces = views["spaces"][row]
        tables = g.tables
        for cell, card in enumerate(seat["grid"]):
            if card is None:
                continue
            base = g.territory_index[card] * 4
            for local, space in enumerate(CELL_SPACES[cell]):
                index = base + local
                features = spaces[space]
                magic, critical, beast = self.offsets
                features[0] = 1.0
                features[3 + tables.region[index]] = 1.0
                features[magic] = 1.0 if tables.magic[index] else 0.0
                features[critical + tables.critical[index]] = 1.0
                features[beast + self.beast_index[tables.beast[index]]] = 1.0
        for space, mark in enumerate(seat["marks"]):
            if mark == "w":
                spaces[space, 1] = 1.0
            elif mark == "X":
                spaces[space, 2] = 1.0
        hidden = True
        for slot, card in enumerate(seat["scoring"]):
            if card is not None:
                hidden = False
                views["scoring"][row, slot, g.scoring_index[card]] = 1.0
        score = seat["score"]
        views["seats"][row] = (
            seat["hand_count"] / 10.0,
            seat["item_count"] / 10.0,
            1.0 if seat["committed"] else 0.0,
            0.0 if score is None else min(max(score, 0), MAX_SCORE) / 200.0,
            1.0 if hidden else 0.0,
        )

    def _fill_dice(self, dice: Tensor, data: list[dict[str, Any]], player: int) -> None:
        for index, die in enumerate(data):
            dice[index, 0] = 1.0 if die["magic"] else 0.0
            if die["value"]:
                dice[index, die["value"]] = 1.0
            if die["used_by"] is None:
                dice[index, 7] = 1.0
            else:
                dice[index, 8 + (die["used_by"] - player) % self.n] = 1.0

    def _fill_effect(self, effect: Tensor, data: dict[str, Any] | None) -> None:
        from gameshelf.games.axia.actions import parse_space

        if data is None:
            return
        kinds, regions = len(self.effects), len(self.regions)
        effect[self.effects.index(data["name"])] = 1.0
        if "region" in data:
            effect[kinds + self.regions.index(data["region"])] = 1.0
        if "space" in data:
            space = parse_space(data["space"])
            if space is not None:
                effect[kinds + regions + space] = 1.0

    def _fill_private(self, views: dict[str, Tensor], own: dict[str, Any], g: Any) -> None:
        from gameshelf.games.axia.actions import parse_cell

        for card in own.get("hand", []):
            views["hand"][g.territory_index[card]] = 1.0
        for card in own.get("items", []):
            views["items"][g.item_index[card]] = 1.0
        for card in own.get("offer", []):
            views["offer"][g.scoring_index[card]] = 1.0
        pending = own.get("pending")
        if pending:
            card, cell = pending.split("@")
            views["pending"][g.territory_index[card]] = 1.0
            cell_index = parse_cell(cell)
            if cell_index is not None:
                views["pending"][self.counts[0] + cell_index] = 1.0


ENCODERS: dict[str, type[Encoder]] = {
    "cage": CageEncoder,
    "axiom": AxiomEncoder,
    "axia": AxiaEncoder,
}


def encoder_for(game: Game) -> Encoder:
    """The observation encoder of ``game`` (configured by its options)."""
    try:
        cls = ENCODERS[game.spec.name]
    except KeyError:
        raise ValueError(f"no observation encoding for game {game.spec.name!r}") from None
    return cls(game)
