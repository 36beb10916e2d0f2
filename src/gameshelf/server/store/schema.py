"""The schema's life: Alembic migrations (under an advisory lock on PostgreSQL), SQLite's
pragmas, and the check that a SQLite database's folder can be written."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError

from gameshelf.core.errors import GameshelfError

MIGRATIONS = Path(__file__).parent.parent / "migrations"
MIGRATION_LOCK = -0x6761_6D65_7368_656C  # "gameshelf"-ish; negative, unlike any match's key
"""The PostgreSQL advisory-lock key held while the schema is migrated."""
FIRST_REVISION = "0001"


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names, made absolute; None for other databases, in-memory ones
    and text that is no database URL (the engine names that problem itself)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    if parsed.query.get("mode") == "memory":
        return None
    return Path(name).resolve()


def check_database_folder(url: str) -> None:
    """Refuse, in one line naming the folder, a SQLite database the server could not create
    or write: SQLite and the server's lock need to write files beside it, and finding out at
    start-up would come after the server announced itself."""
    path = sqlite_file(url)
    if path is None:
        return
    folder = path.parent
    if not folder.exists():
        raise GameshelfError(
            f"the database's folder {str(folder)!r} does not exist: create it "
            f"(mkdir -p {folder}) or give another --database-url"
        )
    if not folder.is_dir():
        raise GameshelfError(f"the database's folder {str(folder)!r} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameshelfError(
            f"the database's folder {str(folder)!r} is not writable here: SQLite keeps its "
            "journal and the server its lock beside the database; give another --database-url"
        )
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise GameshelfError(f"the database {str(path)!r} cannot be read and written here")


def alembic_config(connection: Connection) -> AlembicConfig:
    """Alembic's configuration for migrating over ``connection``."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def upgrade_schema(engine: Engine) -> str:
    """Bring the database to the newest schema with Alembic; returns the revision it is at.

    A database made before migrations existed (the tables of ``create_all``, no version table)
    is first stamped with the first revision, which describes exactly those tables.
    """
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes started at once on an empty database would each create the
            # version table; the lock (freed at commit) makes them migrate one after another.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config = alembic_config(connection)
        inspector = inspect(connection)
        if inspector.has_table("matches") and not inspector.has_table("alembic_version"):
            command.stamp(config, FIRST_REVISION)
        command.upgrade(config, "head")
    return schema_revision(engine) or ""


def schema_revision(engine: Engine) -> str | None:
    """The Alembic revision the database is at (``None`` before any migration)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Write-ahead logging and full sync on every SQLite connection: a move is on disk before
    anyone hears of it, and readers never wait on the writer."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
