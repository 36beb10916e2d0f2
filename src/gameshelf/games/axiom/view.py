"""The structured view of an Axiom position: what a table or client draws, as JSON-able data.

Axiom has no hidden information, so every player (and a spectator) gets the same view. Clients
draw from it and never parse :meth:`~.rules.AxiomState.position` text. Pure: it reads a state and
builds plain dicts, lists, strings and ints.

The view (``AxiomState.view(player)``)::

    {
      "game": "axiom(allow_overhang=true)",   # the game string
      "position": "to-move: black\\n...",      # the position text (round-trips through the game)
      "players": ["black", "white"],          # seat 0 is Black, seat 1 White
      "to_move": 0,                           # current_player(): 0, 1, or -4 (TERMINAL)
      "colour_to_move": "black",              # the side to move (still set at the end)
      "ply": 12,                              # plies played (since the start or load)
      "cubes": [                              # every cube, sorted by cell (x, then y, then z)
        {"x": -1, "y": 0, "z": 1,             # the cell; z = 1 is the layer on the table
         "owner": 0, "colour": "black",       # owner seat and its colour name
         "kind": "double",                    # "single" (one dome) or "double" (two adjacent domes)
         "domes": ["x-", "z+"],               # directions of its domes, in order x+ x- y+ y- z+ z-
         "recesses": ["x+", "y+", "y-", "z-"]},  # the other four or five faces, same order
        ...
      ],
      "sceptres": [                           # every sceptre, sorted by (owner, cell, face)
        {"owner": 0, "colour": "black",
         "x": -1, "y": 0, "z": 2,             # the cell of the cube it stands on
         "face": "z+"},                       # the face of that cube it stands on (points away)
        ...
      ],
      "result": null | {"winner": 0 | 1 | null,   # null: a draw
                        "reason": "capture" | "self-capture" | "no-move" | "repetition" | "ply-cap",
                        "text": "black wins (capture)"},
      "returns": null | [1.0, -1.0],          # the engine's returns once the game is over
    }

``last_move`` is not part of the view: the state does not keep it (the server sends the last move
with every state message and with every replay frame).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypedDict

from .geometry import ALL_DIRS, COLOR_NAMES, DIR_NAMES

if TYPE_CHECKING:
    from .state import AxiomState


class AxiomCell(TypedDict):
    """A cell: ``z = 1`` is the layer on the table."""

    x: int
    y: int
    z: int


class AxiomCube(AxiomCell):
    """A cube in its cell, its owner and which of its faces are domes or recesses."""

    owner: int
    colour: str
    kind: Literal["single", "double"]
    domes: list[str]
    recesses: list[str]


class AxiomSceptre(AxiomCell):
    """A sceptre: the cell of the cube it stands on and the face it stands on."""

    owner: int
    colour: str
    face: str


class AxiomResult(TypedDict):
    """How the game ended (``winner`` null: a draw)."""

    winner: int | None
    reason: str
    text: str


class AxiomView(TypedDict):
    """The view described in this module's docstring."""

    game: str
    position: str
    players: list[str]
    to_move: int
    colour_to_move: str
    ply: int
    cubes: list[AxiomCube]
    sceptres: list[AxiomSceptre]
    result: AxiomResult | None
    returns: list[float] | None


def _directions(mask: int) -> list[str]:
    return [DIR_NAMES[d] for d in ALL_DIRS if mask >> d & 1]


def cube_entries(cubes: dict[tuple[int, int, int], int]) -> list[AxiomCube]:
    """The ``cubes`` list of the view from a board's cubes (cell → ``colour << 6 | mask``)."""
    out: list[AxiomCube] = []
    for cell in sorted(cubes):
        value = cubes[cell]
        owner, mask = value >> 6, value & 63
        domes = _directions(mask)
        out.append(
            {
                "x": cell[0],
                "y": cell[1],
                "z": cell[2],
                "owner": owner,
                "colour": COLOR_NAMES[owner],
                "kind": "single" if len(domes) == 1 else "double",
                "domes": domes,
                "recesses": _directions(63 & ~mask),
            }
        )
    return out


def sceptre_entries(sceptres: list[tuple[int, tuple[int, int, int], int]]) -> list[AxiomSceptre]:
    """The ``sceptres`` list of the view from a board's sceptres (``(colour, cell, face)``)."""
    return [
        {
            "owner": owner,
            "colour": COLOR_NAMES[owner],
            "x": cell[0],
            "y": cell[1],
            "z": cell[2],
            "face": DIR_NAMES[face],
        }
        for owner, cell, face in sorted(sceptres)
    ]


def build_view(state: AxiomState, player: int | None = None) -> dict[str, Any]:
    """The view described in this module's docstring (the same for every ``player``), as the
    protocol's JSON object; :func:`typed_view` gives the same data typed."""
    return dict(typed_view(state))


def typed_view(state: AxiomState) -> AxiomView:
    """The view described in this module's docstring, as an :class:`AxiomView`."""
    terminal = state.is_terminal()
    result: AxiomResult | None = None
    if terminal:
        winner = state.winner()
        result = {
            "winner": None if winner is None or winner < 0 else winner,
            "reason": state.end_reason() or "",
            "text": state.result_text(),
        }
    return {
        "game": state.game.game_string,
        "position": state.position(),
        "players": list(COLOR_NAMES),
        "to_move": state.current_player(),
        "colour_to_move": COLOR_NAMES[state.to_move],
        "ply": state.ply,
        "cubes": cube_entries(state.cubes),
        "sceptres": sceptre_entries(state.sceptres),
        "result": result,
        "returns": state.returns() if terminal else None,
    }
