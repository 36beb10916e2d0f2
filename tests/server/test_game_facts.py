"""The server hands out each game's facts from its registry entry: in the game list at the
default options, and with a match at that match's options."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gameshelf.core.registry import available_games, game_entry, load
from gameshelf.server import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_workers=0)) as c:
        yield c


def test_the_game_list_carries_each_games_facts(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert sorted(games) == available_games()
    for name, info in games.items():
        entry = game_entry(name)
        assert info["facts"]["title"] == info["title"] == entry.title
        assert [n["text"] for n in info["facts"]["notation"]] == [n.text for n in entry.notation]
        assert info["facts"]["rules"], f"{name} has no rules summary"
    assert games["axiom"]["facts"]["seats"] == ["black", "white"]
    assert games["cage"]["facts"]["seats"] == ["player 1", "player 2"]


def test_a_match_carries_the_facts_of_its_own_options(client: TestClient) -> None:
    created = client.post("/api/matches", json={"game": "cage(players=3,max_plies=137)"})
    assert created.status_code == 201, created.text
    for summary in (created.json(), client.get(f"/api/matches/{created.json()['id']}").json()):
        facts = summary["facts"]
        assert facts["seats"] == ["player 1", "player 2", "player 3"]
        items = [item for section in facts["rules"] for item in section["items"]]
        assert "After 137 plies the game is a draw." in items
        assert any(item.startswith("3 players.") for item in items)


WEB_SRC = Path(__file__).resolve().parents[2] / "web" / "src"


def test_the_browser_restates_no_game_fact() -> None:
    # The table reads titles, seat names, notation help and rules from the server: none of the
    # registry's words may be written again in the browser's source.
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted(WEB_SRC.rglob("*.ts"))
        if "generated" not in path.parts
    )
    assert "TITLES" not in source and "seatLabel(name" not in source
    restated = []
    for name in available_games():
        facts = game_entry(name).facts(load(name))
        words = [f'"{facts.title}"', *(n.meaning for n in facts.notation)]
        words += [item for section in facts.rules for item in section.items]
        restated += [f"{name}: {w}" for w in words if w in source]
    assert restated == []
