"""The OpenSpiel adapter builds AXIA views only when an observation is asked for.

Playing (legal actions, chance outcomes, applying, cloning, returns) must never build a view;
information states and observations come from the asking seat's own view (``view(player)``)
or, for the public observer, from the spectator's (``view(None)``), and nothing else. (OpenSpiel
also sizes a tensor by filling it from a fresh initial state as seat 0: no card is dealt there.)
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel  # type: ignore[import-not-found]
import pytest

import gameshelf.rl.openspiel  # noqa: F401  (registers the games)
from gameshelf.games.axia.rules import AxiaState


@pytest.fixture
def view_calls(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Every ``AxiaState.view`` call of a game in progress, by the viewer asked for."""
    calls: list[int | None] = []
    original = AxiaState.view

    def counted(self: AxiaState, player: int | None) -> dict[str, Any]:
        if self.actions_played:
            calls.append(player)
        else:  # OpenSpiel sizing a tensor: nothing is dealt yet
            assert not any(self.hands) and not any(self.scoring_offers)
        return original(self, player)

    monkeypatch.setattr(AxiaState, "view", counted)
    return calls


def _play(state: Any, rng: random.Random, steps: int) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [action for action, _ in outcomes]
            weights = [probability for _, probability in outcomes]
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        state = state.clone() if rng.random() < 0.1 else state
    return state


@pytest.mark.parametrize("players", [1, 2, 4])
def test_playing_builds_no_view(players: int, view_calls: list[int | None]) -> None:
    game = pyspiel.load_game("gameshelf_axia", {"players": players})
    rng = random.Random(players)
    for _ in range(3):
        state = _play(game.new_initial_state(), rng, 10_000)
        assert view_calls == []
        assert state.is_terminal()
        assert len(state.returns()) == players
        assert state.history()
    assert view_calls == []


def test_observations_read_only_the_asking_seats_view(view_calls: list[int | None]) -> None:
    game = pyspiel.load_game("gameshelf_axia", {"players": 3})
    state = _play(game.new_initial_state(), random.Random(7), 60)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert view_calls == []
    for player in range(3):
        state.information_state_string(player)
        state.observation_string(player)
        state.information_state_tensor(player)
        state.observation_tensor(player)
        assert view_calls and set(view_calls) == {player}
        view_calls.clear()
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    observer.string_from(state, 1)
    observer.set_from(state, 1)
    assert view_calls and set(view_calls) == {None}
