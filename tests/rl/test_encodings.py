"""Observation tensors: shapes, bounds, perspective, alignment with action ids, no leaks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gameshelf.agents.axia.determinize import axia_determinize
from gameshelf.agents.axia.encoding import AxiaEncoder
from gameshelf.agents.axiom.encoding import AxiomEncoder
from gameshelf.agents.cage.encoding import CageEncoder
from gameshelf.core.game import State
from gameshelf.core.registry import load
from gameshelf.games.axia.rules import AxiaState
from gameshelf.rl.encodings import (
    Encoder,
    GenericEncoder,
    Tensor,
    action_mask,
    encoder_for,
    flatten,
    relative_seats,
)

from .helpers import random_states

GAMES = [
    "cage",
    "cage(players=3)",
    "cage(players=4)",
    "cage(stock=20:4)",
    "axiom",
    "axiom(allow_overhang=true)",
    "axia",
    "axia(players=1)",
]


@pytest.mark.parametrize("game_string", GAMES)
def test_every_tensor_has_the_declared_size_and_bounds(game_string: str) -> None:
    encoder = encoder_for(load(game_string))
    players = encoder.game.spec.num_players
    for index, state in enumerate(random_states(game_string, seed=3)):
        if index % 3 and not state.is_terminal():
            continue
        for player in range(players):
            tensor = encoder.encode(state, player)
            assert tensor.shape == (encoder.size,)
            assert tensor.dtype == np.float32
            assert np.all(tensor >= 0.0)
            assert np.all(tensor <= encoder.high)


class Counted:
    """A stand-in state: a count of moves, seen the same from every seat."""

    def __init__(self, moves: int = 0) -> None:
        self.moves = moves
        self.game = CountedGame()

    def view(self, player: int | None) -> dict[str, object]:
        return {"game": "counted", "moves": self.moves, "over": self.moves >= 3}


class Observed(Counted):
    """The same state offering its own observation, which the encoder must prefer."""

    def observation(self, player: int) -> list[float]:
        return [float(player), float(self.moves)]


class CountedGame:
    game_string = "counted"
    state_type: type[Counted] = Counted

    def new_initial_state(self, seed: int | None = None) -> Counted:
        return self.state_type()


def test_a_game_without_a_pack_encoder_gets_its_flattened_view() -> None:
    encoder = GenericEncoder(CountedGame())  # type: ignore[arg-type]
    assert encoder.method is None and encoder.size == len("counted") + 2
    tensor = encoder.encode(Counted(3), 0)  # type: ignore[arg-type]
    assert list(tensor[-2:]) == [3.0, 1.0]  # keys sorted: game, moves, over
    assert list(tensor[:7]) == [float(ord(c)) for c in "counted"]
    assert encoder.text(Counted(3), 0) == '{"game":"counted","moves":3,"over":true}'  # type: ignore[arg-type]


def test_the_generic_encoder_prefers_the_state_s_own_observation() -> None:
    game = CountedGame()
    game.state_type = Observed
    encoder = GenericEncoder(game)  # type: ignore[arg-type]
    assert encoder.method == "observation" and encoder.size == 2
    assert list(encoder.encode(Observed(2), 1)) == [1.0, 2.0]  # type: ignore[arg-type]


def test_a_view_that_changes_shape_is_refused_with_the_reason() -> None:
    cage = load("cage")
    encoder = GenericEncoder(cage)
    state = cage.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    flat, views = encoder.new_buffer()
    with pytest.raises(ValueError, match="give the game an encoder in its pack"):
        encoder.fill(state, 0, views)  # the Cage's view grows once a move is played
    assert not flat.any()  # nothing was written
    with pytest.raises(ValueError, match="not JSON data"):
        list(flatten({"x": object()}))


def test_every_game_with_a_pack_encoder_gets_it_not_the_generic_one() -> None:
    for name in ("cage", "axiom", "axia"):
        assert not isinstance(encoder_for(load(name)), GenericEncoder)


def test_relative_seats() -> None:
    assert relative_seats(2, 4) == [2, 3, 0, 1]
    assert relative_seats(0, 1) == [0]


def test_cage_board_planes_are_relative_to_the_viewer() -> None:
    game = load("cage")
    state = game.new_initial_state()
    state.play("W0")  # player 0 drops white (its first colour) into column 0
    encoder = encoder_for(game)
    assert isinstance(encoder, CageEncoder)
    _, mine = encoder.new_buffer()
    encoder.fill(state, 0, mine)
    _, theirs = encoder.new_buffer()
    encoder.fill(state, 1, theirs)
    assert mine["board"][0, 0, 0] == 1.0  # plane 0 = the viewer's first colour
    assert theirs["board"][3, 0, 0] == 1.0  # for player 1 white is the opponent's first colour
    assert mine["board"][6].sum() == 23  # empty plane
    assert mine["last_move"][0] == 1.0
    assert mine["to_move"][1] == 1.0 and theirs["to_move"][0] == 1.0
    assert mine["left"][0] == pytest.approx(3 / 24)


def test_axiom_cube_rows_follow_the_action_ranks() -> None:
    game = load("axiom")
    state = game.new_initial_state()
    encoder = encoder_for(game)
    assert isinstance(encoder, AxiomEncoder)
    _, views = encoder.new_buffer()
    encoder.fill(state, 0, views)
    cells = sorted(state.cubes)  # type: ignore[attr-defined]
    for action in state.legal_actions():
        if action >= 864:
            continue
        source_rank = action // 72
        text = state.action_to_string(action)  # "S(x,y,z) S(...)face"
        source = tuple(int(v) for v in text.split()[0][2:-1].split(","))
        assert cells[source_rank] == source
        row = views["cubes"][source_rank]
        assert row[0] == 1.0
        held = views["sceptres"][:, 2 + source_rank]
        assert held.sum() == 1.0  # the row's cube carries the moving sceptre
    assert views["cubes"][:, 0].sum() == 12
    assert views["sceptres"][:2, 1].sum() == 2  # own sceptres first
    assert views["side"][0] == 1.0 and views["side"][1] == 1.0


def test_action_mask_marks_exactly_the_legal_actions() -> None:
    game = load("axiom")
    state = game.new_initial_state()
    mask = action_mask(state, game.spec.num_distinct_actions)
    assert mask.dtype == np.int8
    assert sorted(np.flatnonzero(mask).tolist()) == state.legal_actions()
    assert mask.sum() == 32


def _axia_states(game_string: str, seed: int) -> list[AxiaState]:
    states = []
    for index, state in enumerate(random_states(game_string, seed)):
        if index % 7 == 0 and isinstance(state, AxiaState):
            states.append(state.clone())
    return states


def _blindness(encoder: Encoder, game_string: str, seed: int) -> tuple[int, int]:
    """(worlds whose hidden cards differ, of those the ones whose tensor or string changed)."""
    rng = random.Random(seed)
    differing = changed = 0
    for state in _axia_states(game_string, seed=11):
        for player in range(state.game.players):
            world = axia_determinize(state, player, rng)
            assert isinstance(world, AxiaState)
            others = [q for q in range(state.game.players) if q != player]
            if all(world.hands[q] == state.hands[q] for q in others):
                continue
            differing += 1
            same_tensor = np.array_equal(
                encoder.encode(state, player), encoder.encode(world, player)
            )
            same_text = encoder.text(state, player) == encoder.text(world, player)
            changed += not (same_tensor and same_text)
    return differing, changed


@pytest.mark.parametrize("game_string", ["axia", "axia(players=3,prioritize_objectives=true)"])
def test_axia_tensor_is_blind_to_other_seats_hidden_cards(game_string: str) -> None:
    """Redealing every card a seat cannot see never changes that seat's tensor or string,
    while the redealt worlds do differ (so the check has teeth)."""
    differing, changed = _blindness(encoder_for(load(game_string)), game_string, seed=5)
    assert differing > 5
    assert changed == 0


class PeekingEncoder(AxiaEncoder):
    """A deliberately leaky encoder: also marks the next seat's hand in the ``hand`` piece."""

    def fill(self, state: State, player: int, views: dict[str, Tensor]) -> None:
        super().fill(state, player, views)
        assert isinstance(state, AxiaState)
        for card in state.hands[(player + 1) % state.game.players]:
            views["hand"][card] = 1.0


def test_the_blindness_check_catches_a_peeking_encoder() -> None:
    differing, changed = _blindness(PeekingEncoder(load("axia")), "axia", seed=5)
    assert changed > 0 and differing > 0


def test_axia_private_pieces_hold_only_the_viewers_cards() -> None:
    game = load("axia(players=3)")
    encoder = encoder_for(game)
    assert isinstance(encoder, AxiaEncoder)
    checked = 0
    for state in _axia_states("axia(players=3)", seed=2):
        for player in range(3):
            _, views = encoder.new_buffer()
            encoder.fill(state, player, views)
            assert sorted(np.flatnonzero(views["hand"]).tolist()) == sorted(state.hands[player])
            assert sorted(np.flatnonzero(views["items"]).tolist()) == sorted(state.items[player])
            checked += bool(state.hands[player])
    assert checked > 10


def test_axia_public_view_tensor_has_no_private_section() -> None:
    game = load("axia")
    encoder = encoder_for(game)
    assert isinstance(encoder, AxiaEncoder)
    state = _axia_states("axia", seed=4)[5]
    assert state.hands[0]
    _, views = encoder.new_buffer()
    encoder.fill_view(state.view(None), 0, views)
    assert views["hand"].sum() == 0 and views["offer"].sum() == 0
