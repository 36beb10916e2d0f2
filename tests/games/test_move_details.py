"""Each game's legal moves as structures: one structure per legal move, in the same order, and
each structure's parts write exactly its notation (so a table that chooses on the parts and
sends back the notation plays the move it showed)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from gameshelf.core.game import State
from gameshelf.core.registry import GameEntry, game_entry, load

Writer = Callable[[Mapping[str, Any]], str]


def _cell(cell: Mapping[str, int]) -> str:
    return f"({cell['x']},{cell['y']},{cell['z']})"


def axiom_text(move: Mapping[str, Any]) -> str:
    """Axiom notation written from a structure's parts alone."""
    if move["kind"] == "sceptre":
        return f"S{_cell(move['source'])} S{_cell(move['target'])}{move['face']}"
    assert move["kind"] == "cube", move
    return f"C{_cell(move['source'])} C{_cell(move['target'])}{' '.join(move['domes'])}"


def cage_text(move: Mapping[str, Any]) -> str:
    """Cage notation written from a structure's parts alone."""
    if move["kind"] == "drop":
        return f"{move['colour']}{move['column']}"
    if move["kind"] == "twist":
        return f"T{move['layer']}{move['direction']}"
    assert move["kind"] == "flip", move
    return "F"


def _space(index: int) -> str:
    return f"{'abcdef'[index % 6]}{index // 6 + 1}"


AXIA_WRITERS: dict[str, Writer] = {
    "score": lambda m: f"{m['card']}>{('R1', 'R2', 'R3', 'C1', 'C2', 'C3')[m['slot']]}",
    "redraw": lambda m: "redraw " + (",".join(m["cards"]) or "none"),
    "place": lambda m: f"{m['card']}@{'ABC'[m['cell'] % 3]}{m['cell'] // 3 + 1}",
    "take": lambda m: f"take {m['index'] + 1}",
    "hit": lambda m: f"{m['die']}>{_space(m['space'])}",
    "waste": lambda m: f"{m['die']}>-",
    "target": lambda m: f"{'defeat' if m['defeat'] else 'hit'} {_space(m['space'])}",
    "zorak": lambda m: f"zorak {m['die']}>{_space(m['space'])}",
    "hit_pair": lambda m: "hit " + "+".join(_space(s) for s in m["spaces"]),
    "item": lambda m: f"item {m['item']}",
    "change": lambda m: f"{m['die']}={m['value']}",
    "deck": lambda m: "deck",
    "end": lambda m: "end",
    "decline": lambda m: "decline",
}


def axia_text(move: Mapping[str, Any]) -> str:
    """AXIA notation written from a structure's parts alone."""
    return AXIA_WRITERS[move["kind"]](move)


WRITERS: dict[str, Writer] = {"axiom": axiom_text, "cage": cage_text, "axia": axia_text}
CASES = [
    (name, game_string)
    for name in sorted(WRITERS)
    for game_string in game_entry(name).test_game_strings()
]


def positions(game_string: str, seed: int, plies: int) -> list[State]:
    """The states of one seeded random game, every ply up to ``plies``."""
    rng = random.Random(seed)
    state = load(game_string).new_initial_state(seed)
    seen = [state.clone()]
    while not state.is_terminal() and len(seen) < plies:
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize(("name", "game_string"), CASES)
def test_each_structure_writes_exactly_its_legal_move(name: str, game_string: str) -> None:
    describe = game_entry(name).move_details
    write = WRITERS[name]
    kinds: set[str] = set()
    for seed in range(3):
        for state in positions(game_string, seed, 160):
            details = describe(state)
            # one structure per legal move, in the order of legal_moves(): the union is exact
            assert [d["move"] for d in details] == [m.text for m in state.legal_moves()]
            if state.is_chance_node():
                assert {d["kind"] for d in details} == {"chance"}
                continue
            for detail in details:
                assert write(detail) == detail["move"], detail
                kinds.add(detail["kind"])
            # the parts alone tell the moves apart
            parts = [
                tuple(sorted((k, repr(v)) for k, v in d.items() if k != "move")) for d in details
            ]
            assert len(set(parts)) == len(parts)
    assert len(kinds) >= 2, f"{game_string}: only {kinds} seen"


def test_a_game_that_describes_nothing_lists_its_notation() -> None:
    """A plug-in's entry without ``move_details`` gets the state's default: the notation only."""
    real = game_entry("cage")
    plain = GameEntry("cage", options=real.options, factory=real.factory)
    state = load("cage").new_initial_state()
    assert plain.move_details(state) == [{"move": m.text} for m in state.legal_moves()]
    assert State.legal_move_details(state) == [{"move": m.text} for m in state.legal_moves()]
