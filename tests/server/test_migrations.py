"""The schema is migrated with Alembic: a database made before migrations upgrades and its
matches resume; the models and the migrations describe the same tables."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from gameshelf.server.client import SeatClient
from gameshelf.server.store import MIGRATIONS, Base, Store, schema_revision
from gameshelf.server.store.schema import alembic_config

from .conftest import DATABASES, RunningServer, database_url

OLD_SQLITE = Path(__file__).with_name("data") / "schema_2026_11_29_sqlite.sql"
MATCH = "00000000000000ab"
HEAD = ScriptDirectory(str(MIGRATIONS)).get_current_head()


def _old_database(kind: str, tmp_path: Path) -> str:
    """A database in the schema of 2026-11-29 holding one running match, two moves in."""
    url = database_url(kind, tmp_path)
    if kind == "sqlite":
        connection = sqlite3.connect(tmp_path / "gameshelf.sqlite3")
        connection.executescript(OLD_SQLITE.read_text())
        connection.close()
        return url
    engine = create_engine(url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
        inserts = [
            line for line in OLD_SQLITE.read_text().splitlines() if line.startswith("INSERT")
        ]
        for line in inserts:
            connection.execute(text(line.replace("%", "%%")))
        for table in ("seats", "moves"):  # rows inserted with their ids, as a dump restores them
            connection.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
            )
        connection.execute(text("DROP TABLE alembic_version"))  # as create_all left it
    engine.dispose()
    return url


@pytest.mark.parametrize("kind", DATABASES)
def test_a_database_from_before_migrations_upgrades_and_its_match_resumes(
    kind: str, tmp_path: Path
) -> None:
    url = _old_database(kind, tmp_path)
    server = RunningServer(url)
    try:
        with SeatClient(server.url, MATCH, ["token-zero", "token-one"]) as table:
            state = table.state
            assert state["plies"] == 2 and state["moves"] == ["R3", "O1"]
            seat = state["to_move"]
            reply = table.move(seat, state["seats"][str(seat)]["legal_moves"][0])
            assert reply["plies"] == 3
    finally:
        server.stop()
    store = Store(url)
    assert schema_revision(store.engine) == HEAD
    assert len(store.load(MATCH).moves) == 3  # type: ignore[union-attr]
    store.close()


def test_the_models_and_the_migrations_agree(tmp_path: Path) -> None:
    store = Store(database_url("sqlite", tmp_path))
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    store.close()


def test_db_upgrade_command(tmp_path: Path) -> None:
    url = _old_database("sqlite", tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "gameshelf.cli.main", "db", "upgrade", "--database-url", url],
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(HEAD) in done.stdout
    engine = create_engine(url)
    assert schema_revision(engine) == HEAD
    engine.dispose()
