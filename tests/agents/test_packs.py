"""Game packs: found through their entry points, checked when loaded, and, for a game without
one, the generic parts (levels, evaluator, determinisation) that still let every bot play
without reading hidden cards."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from gameshelf.agents import make_agent
from gameshelf.agents.catalogue import agent_catalogue, unfit_reason
from gameshelf.agents.determinize import copy_state, determinizer_for
from gameshelf.agents.evaluators import evaluator_for, zero_evaluator
from gameshelf.agents.levels import LEVELS, LevelSpec, generic_levels, level_spec
from gameshelf.agents.packs import (
    PACK_GROUP,
    GamePack,
    PackError,
    all_packs,
    pack_from_point,
    pack_named,
    register_pack,
)
from gameshelf.core.registry import available_games, load


@pytest.fixture
def without_pack() -> Iterator[None]:
    """Run a test as if the Cage and AXIA had no pack (each is put back afterwards)."""
    kept = [pack_named("cage"), pack_named("axia")]
    register_pack(GamePack("cage"))
    register_pack(GamePack("axia"))
    try:
        yield
    finally:
        for pack in kept:
            register_pack(pack)


def point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=PACK_GROUP)


def test_every_game_of_this_package_has_its_pack_from_the_entry_points() -> None:
    packed = {pack.game for pack in all_packs()}
    assert {"axia", "axiom", "cage"} <= packed <= set(available_games())
    assert level_spec(load("axiom"), "hard").algorithm == "axiom-search"


def test_a_game_without_a_pack_plays_the_generic_levels(without_pack: None) -> None:
    game = load("cage")
    table = {level: level_spec(game, level) for level in LEVELS}
    assert {spec.algorithm for spec in table.values()} == {"mcts"}
    assert [table[level].time_limit for level in LEVELS] == [0.1, 0.25, 1.0, 3.0]
    assert evaluator_for(game) is zero_evaluator
    for level in LEVELS:
        agent = make_agent(level, game, seed=1)
        state = game.new_initial_state()
        assert agent.step(state) in state.legal_actions()
        assert type(agent).__name__ == "MCTSAgent"


def test_generic_hard_searches_alpha_beta_where_the_pack_gives_an_evaluator() -> None:
    game = load("cage")
    table = generic_levels(game)  # the Cage's pack has knowledge
    assert table["hard"].algorithm == table["expert"].algorithm == "alphabeta"
    assert table["hard"].depth == game.spec.max_game_length
    assert table["easy"].algorithm == "mcts"
    assert {spec.algorithm for spec in generic_levels(load("cage(players=3)")).values()} == {"mcts"}


def test_a_hidden_game_without_a_dealer_gets_no_searching_bot(without_pack: None) -> None:
    game = load("axia(players=2)")
    with pytest.raises(ValueError, match="would read hidden cards"):
        determinizer_for(game)
    assert level_spec(game, "hard").algorithm == "ismcts"
    for name in ("greedy", "hard", "mcts"):
        reason = unfit_reason(name, game)
        assert reason is not None and "hidden cards" in reason
    assert [info.name for info in agent_catalogue(game)] == ["random"]


def test_a_perfect_information_game_is_dealt_as_itself() -> None:
    determinize, _ = determinizer_for(load("cage"))
    assert determinize is copy_state


def test_a_pack_bot_refuses_the_other_games_by_name() -> None:
    with pytest.raises(ValueError, match="axiom-classic plays axiom only, not cage"):
        make_agent("axiom-classic", load("cage"), seed=1)
    assert unfit_reason("cage-paranoid", load("axiom")) == (
        "cage-paranoid plays cage only, not axiom"
    )


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("cage", "gameshelf.no_such_module:PACK", "does not load: ModuleNotFoundError"),
        ("cage", "gameshelf.agents.levels:LEVELS", "gives a tuple, not a GamePack"),
        ("axia", "gameshelf.agents.cage:PACK", "is a pack for 'cage'; name the entry point"),
    ],
)
def test_a_broken_pack_entry_point_is_named_with_the_reason(
    name: str, value: str, message: str
) -> None:
    before = pack_named(name)
    with pytest.raises(PackError, match=message) as raised:
        pack_from_point(point(name, value))
    assert f"{name} = {value!r}" in str(raised.value)
    assert pack_named(name) is before  # nothing was registered


def test_register_pack_takes_packs_only() -> None:
    with pytest.raises(PackError, match="needs a GamePack, not dict"):
        register_pack({"game": "cage"})  # type: ignore[arg-type]
    assert pack_named("cage").levels is not None


def test_a_level_naming_an_unknown_search_says_which() -> None:
    kept = pack_named("cage")
    table = {level: LevelSpec("nosuch", 10, 0.1) for level in LEVELS}
    register_pack(GamePack("cage", levels=lambda game: table))
    try:
        with pytest.raises(ValueError, match="names the search 'nosuch', which neither"):
            make_agent("hard", load("cage"), seed=1)
    finally:
        register_pack(kept)
    assert level_spec(load("cage"), "hard").algorithm == "cage-alphabeta"


def test_a_broken_installed_pack_is_reported_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from gameshelf.agents import packs

    broken = [point("nim", "gameshelf.no_such_module:PACK")]
    monkeypatch.setattr(packs, "entry_points", lambda group: broken)
    monkeypatch.setattr(packs, "_discovered", False)
    for _ in range(2):  # not only the first call: nothing runs without the packs
        with pytest.raises(PackError, match=r"nim = 'gameshelf\.no_such_module:PACK'"):
            packs.discover_packs()
    monkeypatch.setattr(packs, "entry_points", lambda group: [])
    packs.discover_packs()
    assert pack_named("cage").levels is not None  # the packs loaded before are kept
