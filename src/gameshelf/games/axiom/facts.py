"""What people are told about an Axiom table: notation examples and a rules summary that states
the table's options. The long form is ``docs/games/axiom.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameshelf.core.registry import NotationExample, RulesSection

NOTATION = (
    NotationExample(
        "S(-1,0,2) S(0,0,2)z+", "move the sceptre on cube (-1,0,2) onto the z+ face of (0,0,2)"
    ),
    NotationExample(
        "C(0,0,2) C(-2,0,1)x-", "move cube (0,0,2) to (-2,0,1) with its dome facing x-"
    ),
)

_SELF_CAPTURE = {
    "losing_move": "Ending on the cube that holds your own other sceptre loses.",
    "only_if_forced": "You may end on the cube that holds your own other sceptre only when "
    "you have no other move.",
}


def rules_summary(values: Mapping[str, Any]) -> tuple[RulesSection, ...]:
    """Axiom's rules in short, for these resolved option values."""
    return (
        RulesSection(
            "Goal",
            (
                "Move one of your sceptres onto a cube that holds an opponent's sceptre (on "
                "another face): you win.",
                _SELF_CAPTURE[str(values["self_capture"])],
            ),
        ),
        RulesSection("A turn: move one cube or one sceptre of your colour", _turn(values)),
        RulesSection("The end", _end(values)),
    )


def _turn(values: Mapping[str, Any]) -> tuple[str, ...]:
    diagonal = (
        " Diagonal moves stay in one plane." if values["diagonal_moves"] else " No diagonals."
    )
    items = [
        "Black moves first. Each side has 6 cubes (3 with one dome, 3 with two) and 2 sceptres.",
        "Sceptre: slides in a straight line over recessed faces and may stop on any face it "
        "passes." + diagonal + " Domes, other sceptres and the table block it.",
        "Cube: lifted and placed anywhere new where it interlocks (dome into recess) with at "
        "least one cube. It may not be moved while a sceptre stands on it or a cube sits on "
        "it; no dome may touch a dome or face the table.",
        "Elimination: when your sceptre moves from an opponent's cube onto a cube of your "
        "colour, the cube it left is removed (unless a cube is on top of it).",
    ]
    if values["allow_overhang"]:
        items.append("Cubes may hang from interlocked side joints.")
    else:
        items.append("A cube above the table needs an interlocked cube under it.")
    if values["require_connected"]:
        items.append("A cube move may not split the structure.")
    if values["forbid_recess_contact"]:
        items.append("A placed cube may not put a recess against a recess.")
    return tuple(items)


def _end(values: Mapping[str, Any]) -> tuple[str, ...]:
    stuck = "loses" if values["no_move_result"] == "loss" else "draws"
    items = [f"A player with no legal move {stuck}."]
    repetition = int(values["repetition_draw"])
    if repetition:
        items.append(f"A position that occurs {repetition} times is a draw.")
    items.append(f"After {values['max_plies']} plies the game is a draw.")
    return tuple(items)
