"""The fixed Axiom action encoding: a bijection with the legal moves, the same meaning in every
position up to translation, played through the Gymnasium adapter, and clear refusals."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from gameshelf.agents.axiom.encoding import AxiomActionEncoding, OutsideEncoding
from gameshelf.core.registry import load
from gameshelf.games.axiom import load_listing
from gameshelf.rl.gymnasium import GameshelfEnv

ENCODING = AxiomActionEncoding()


def box_cell(origin: tuple[int, int], index: int) -> tuple[int, int, int]:
    """The ``(x, y, z)`` cell of a box cell index (the layout the class docstring gives)."""
    rest, z = divmod(index, ENCODING.HEIGHT)
    dx, dy = divmod(rest, ENCODING.SPAN)
    return (origin[0] + dx, origin[1] + dy, z + 1)


def shifted(listing: str, dx: int, dy: int) -> str:
    """A listing moved by ``dx``, ``dy`` (every cell in it)."""

    def move(match: re.Match[str]) -> str:
        x, y, z = (int(v) for v in match.groups())
        return f"({x + dx},{y + dy},{z})"

    return re.sub(r"\((-?\d+),(-?\d+),(-?\d+)\)", move, listing)


@pytest.mark.parametrize("game_string", ["axiom", "axiom(sceptre_clearance=tall)"])
def test_gymnasium_games_played_by_fixed_ids(game_string: str) -> None:
    env = GameshelfEnv(game=game_string, opponent="random", seat=0)
    rng = random.Random(3)
    checked = 0
    for seed in range(2):
        env.reset(seed=seed)
        done = False
        while not done:
            state: Any = env.state
            legal = ENCODING.legal_fixed(state)
            assert sorted(legal.values()) == state.legal_actions()  # one fixed id per move
            origin = ENCODING.origin(state)
            for fixed, action in legal.items():
                source, target, kind = ENCODING.parts(fixed)
                info = state.action_info(action)
                assert (box_cell(origin, source), box_cell(origin, target)) == (
                    info.source,
                    info.target,
                )
                assert (kind < 6) == (info.kind == "sceptre")
                checked += 1
            choice = rng.choice(sorted(legal))
            action = ENCODING.from_fixed(state, choice)
            assert action == legal[choice]
            _, _, done, _, _ = env.step(action)
    assert checked > 500


def test_a_fixed_id_means_the_same_move_wherever_the_structure_stands() -> None:
    game = load("axiom")
    state: Any = game.new_initial_state()
    rng = random.Random(8)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():
        pytest.fail("the seeded game ended too early for this test")
    far = load_listing(game, shifted(state.listing(), 5, -7), "white" if state.to_move else "black")
    here, there = ENCODING.legal_fixed(state), ENCODING.legal_fixed(far)
    assert set(here) == set(there)
    for fixed, action in here.items():
        moved = shifted(state.action_to_string(action), 5, -7)
        assert far.action_to_string(there[fixed]) == moved
    # the engine's ids, by contrast, are state-relative: the same id is not the same move text
    assert any(state.action_to_string(a) != far.action_to_string(a) for a in here.values())


def test_positions_beyond_the_box_and_bad_ids_are_refused_by_name() -> None:
    game = load("axiom")
    start: Any = game.new_initial_state()
    listing = start.listing().replace("(black) C (0,0,2)z-", "(black) C (12,0,1)x-")
    wide = load_listing(game, listing, "black")
    before = wide.position()
    with pytest.raises(OutsideEncoding, match=r"span 14 cells in x; .* at most 10"):
        ENCODING.legal_fixed(wide)
    assert wide.position() == before
    with pytest.raises(OutsideEncoding, match="not an int"):
        ENCODING.from_fixed(start, ENCODING.size)
    sceptre_to_nowhere = ENCODING.join(0, 0, 0)
    with pytest.raises(OutsideEncoding, match="no legal move"):
        ENCODING.from_fixed(start, sceptre_to_nowhere)
    with pytest.raises(OutsideEncoding, match="no legal move"):
        ENCODING.to_fixed(start, 1)
