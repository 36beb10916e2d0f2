"""``scripts/postgres.sh``: each run gets a private cluster of its own, and stop removes it."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "postgres.sh"


def postgres_sh(*words: str) -> subprocess.CompletedProcess[str]:
    """Run the script; its output and status are the caller's to check."""
    return subprocess.run(
        ["bash", str(SCRIPT), *words], capture_output=True, text=True, timeout=120
    )


def databases(url: str) -> set[str]:
    """The names of the databases of the cluster behind ``url``."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            return set(connection.scalars(text("SELECT datname FROM pg_database")))
    finally:
        engine.dispose()


@pytest.fixture
def folders() -> Iterator[list[Path]]:
    """Fresh folders in the shared temporary folder (where the cluster's owner, the postgres
    user when the tests run as root, can reach them); stopped and removed afterwards."""
    made: list[Path] = []
    yield made
    for folder in made:
        postgres_sh("stop", str(folder))


def fresh(folders: list[Path]) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="gameshelf-pg-test."))
    folders.append(folder)
    return folder


def test_two_runs_get_two_clusters_and_stop_removes_each(folders: list[Path]) -> None:
    first, second = fresh(folders), fresh(folders)
    urls = []
    for folder in (first, second):
        started = postgres_sh("start", str(folder))
        assert started.returncode == 0, started.stderr
        urls.append(started.stdout.strip())
    ports = {make_url(url).port for url in urls}
    assert len(ports) == 2 and 5432 not in ports
    assert all(make_url(url).host == "127.0.0.1" for url in urls)
    engine = create_engine(urls[0], isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text('CREATE DATABASE "gameshelf_t_only_in_one"'))
    engine.dispose()
    assert "gameshelf_t_only_in_one" in databases(urls[0])
    assert "gameshelf_t_only_in_one" not in databases(urls[1])
    stopped = postgres_sh("stop", str(first))
    assert stopped.returncode == 0, stopped.stderr
    assert not first.exists()
    with pytest.raises(OperationalError):
        databases(urls[0])
    assert "gameshelf_test" in databases(urls[1])  # the other run's cluster goes on


def test_stop_leaves_a_folder_that_is_not_a_cluster_alone(folders: list[Path]) -> None:
    folder = fresh(folders)
    keep = folder / "notes.txt"
    keep.write_text("mine")
    refused = postgres_sh("stop", str(folder))
    assert refused.returncode == 1 and "left as it is" in refused.stderr
    assert keep.read_text() == "mine"
    keep.unlink()


def test_start_wants_an_empty_folder(folders: list[Path]) -> None:
    folder = fresh(folders)
    (folder / "something").write_text("")
    refused = postgres_sh("start", str(folder))
    assert refused.returncode == 1 and "not empty" in refused.stderr
    assert refused.stdout == ""
    (folder / "something").unlink()
