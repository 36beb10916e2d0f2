"""The server hands out the built browser table when there is one, a pointer page otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gameshelf.server import create_app


def test_without_a_build_the_index_says_how_to_get_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMESHELF_STATIC_DIR", str(tmp_path / "nothing"))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_workers=0)) as client:
        page = client.get("/")
        assert page.status_code == 200
        # An install has no scripts/: the page names what works there, then a checkout's way.
        assert "pip install --force-reinstall" in page.text and ".whl[server]" in page.text
        assert "scripts/start.sh" in page.text


def test_the_built_table_is_served_for_its_pages_and_assets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><div id=app>table</div>")
    (static / "assets" / "main.js").write_text("console.log('table')")
    monkeypatch.setenv("GAMESHELF_STATIC_DIR", str(static))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_workers=0)) as client:
        assert "id=app" in client.get("/").text
        assert "id=app" in client.get("/play/match/0123abcd").text
        assert client.get("/assets/main.js").text == "console.log('table')"
        assert client.get("/api/games").status_code == 200
