"""The structured view of Axiom (``state.view(player)``): what the browser draws."""

from __future__ import annotations

import json
import random
from typing import Any

import gameshelf
from gameshelf.core import TERMINAL
from gameshelf.games.axiom.geometry import DIR_NAMES, mask_names
from gameshelf.games.axiom.rules import AxiomGame, AxiomState

# Every piece of the standard start (docs/games/axiom.md), written out by hand.
START_CUBES = {
    (-1, 0, 1, "black", ("x-", "z+")),
    (0, 0, 1, "black", ("x-", "y-")),
    (1, 0, 1, "black", ("x-", "z+")),
    (-1, 0, 2, "black", ("x+",)),
    (0, 0, 2, "black", ("z-",)),
    (1, 0, 2, "black", ("x+",)),
    (1, 1, 1, "white", ("x+", "z+")),
    (0, 1, 1, "white", ("x+", "y+")),
    (-1, 1, 1, "white", ("x+", "z+")),
    (1, 1, 2, "white", ("x-",)),
    (0, 1, 2, "white", ("z-",)),
    (-1, 1, 2, "white", ("x-",)),
}
START_SCEPTRES = {
    (0, -1, 0, 2, "z+"),
    (0, 1, 0, 2, "z+"),
    (1, -1, 1, 2, "z+"),
    (1, 1, 1, 2, "z+"),
}
ALL_FACES = ["x+", "x-", "y+", "y-", "z+", "z-"]


def test_the_start_view_lists_every_cube_and_sceptre() -> None:
    state = gameshelf.load("axiom").new_initial_state()
    view = state.view(None)
    assert view["game"] == "axiom" and view["position"] == state.position()
    assert view["players"] == ["black", "white"]
    assert (view["to_move"], view["colour_to_move"], view["ply"]) == (0, "black", 0)
    assert view["result"] is None and view["returns"] is None
    cubes = {(c["x"], c["y"], c["z"], c["colour"], tuple(c["domes"])) for c in view["cubes"]}
    assert cubes == START_CUBES and len(view["cubes"]) == 12
    for cube in view["cubes"]:
        assert cube["owner"] == ["black", "white"].index(cube["colour"])
        assert cube["kind"] == ("single" if len(cube["domes"]) == 1 else "double")
        assert sorted(cube["domes"] + cube["recesses"], key=ALL_FACES.index) == ALL_FACES
    sceptres = {(s["owner"], s["x"], s["y"], s["z"], s["face"]) for s in view["sceptres"]}
    assert sceptres == START_SCEPTRES and len(view["sceptres"]) == 4
    assert all(s["colour"] == ["black", "white"][s["owner"]] for s in view["sceptres"])
    # No hidden information: every seat sees the same.
    assert state.view(0) == state.view(1) == view


def _board_of(view: dict[str, Any]) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    cubes = {(c["x"], c["y"], c["z"], c["owner"], " ".join(c["domes"])) for c in view["cubes"]}
    sceptres = {(s["owner"], s["x"], s["y"], s["z"], s["face"]) for s in view["sceptres"]}
    return cubes, sceptres


def test_views_after_moves_agree_with_the_position_text_and_round_trip_json() -> None:
    """Random games (with overhangs): each view's pieces are those of its own position text read
    back by the engine, and the view survives JSON unchanged."""
    game = gameshelf.load("axiom(allow_overhang=true,max_plies=60)")
    assert isinstance(game, AxiomGame)
    rng = random.Random(7)
    eliminated = False
    for _ in range(6):
        state: AxiomState = game.new_initial_state()
        while True:
            view = state.view(None)
            assert json.loads(json.dumps(view)) == view
            again = game.state_from_position(view["position"])
            assert _board_of(again.view(None)) == _board_of(view)
            cubes = {(*cell, v >> 6, mask_names(v & 63)) for cell, v in state.cubes.items()}
            sceptres = {(s, *cell, DIR_NAMES[d]) for s, cell, d in state.sceptres}
            assert _board_of(view) == (cubes, sceptres)
            assert len(view["cubes"]) == len(state.cubes)
            eliminated = eliminated or len(state.cubes) < 12
            assert view["ply"] == state.ply
            if state.is_terminal():
                break
            assert (
                view["to_move"]
                == state.current_player()
                == ["black", "white"].index(view["colour_to_move"])
            )
            state.apply_action(rng.choice(state.legal_actions()))
        assert view["to_move"] == TERMINAL
        assert view["result"]["text"] == state.result_text()
        assert view["result"]["reason"] == state.end_reason()
        assert view["returns"] == state.returns()
        winner = view["result"]["winner"]
        assert winner is None or state.returns()[winner] == 1.0
    assert eliminated  # some game lost a cube along the way: the view followed it


def test_a_cube_move_shows_in_the_view() -> None:
    state = gameshelf.load("axiom").new_initial_state()
    state.apply_action(state.parse_action("C(0,0,2) C(0,1,3)z-"))
    view = state.view(1)
    moved = [c for c in view["cubes"] if (c["x"], c["y"], c["z"]) == (0, 1, 3)]
    assert moved == [
        {
            "x": 0,
            "y": 1,
            "z": 3,
            "owner": 0,
            "colour": "black",
            "kind": "single",
            "domes": ["z-"],
            "recesses": ["x+", "x-", "y+", "y-", "z+"],
        }
    ]
    assert not [c for c in view["cubes"] if (c["x"], c["y"], c["z"]) == (0, 0, 2)]
    assert (view["to_move"], view["colour_to_move"], view["ply"]) == (1, "white", 1)
