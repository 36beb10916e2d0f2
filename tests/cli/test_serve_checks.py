"""``gameshelf serve`` (and ``scripts/start.sh``'s preflight) refuse a database they could not
write in one line, before any URL is printed."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from gameshelf.cli import preflight
from gameshelf.cli.main import main
from gameshelf.server import store as db


def serve(capsys: pytest.CaptureFixture[str], url: str) -> tuple[int, str, str]:
    """Run ``gameshelf serve`` on ``url``, on a port held busy: should the database pass
    unchecked, the run stops at the port (and the test fails) instead of serving."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        status = main(["serve", "--port", port, "--database-url", url])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_missing_database_folder_is_one_line_before_any_url(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "no" / "such"
    status, out, err = serve(capsys, f"sqlite:///{missing / 'db.sqlite3'}")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and str(missing) in err and "does not exist" in err
    assert not missing.exists()  # refused, not created


def test_start_sh_preflight_refuses_it_before_the_build(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "gone"
    status = preflight.main(["--database-url", f"sqlite:///{missing / 'db'}"])
    _, err = capsys.readouterr()
    assert status == 2 and err.count("\n") == 1 and str(missing) in err


def test_the_environment_variable_is_checked_the_same_way(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMESHELF_DATABASE_URL", f"sqlite:///{tmp_path / 'gone' / 'db'}")
    assert preflight.main([]) == 2
    assert "gone" in capsys.readouterr().err


def test_a_file_where_the_folder_should_be_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "plain-file"
    blocker.write_text("")
    status, out, err = serve(capsys, f"sqlite:///{blocker / 'db.sqlite3'}")
    assert status == 2 and out == ""
    assert str(blocker) in err and "not a folder" in err


def test_an_unwritable_folder_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    if os.geteuid() == 0:
        # Mode bits do not bind root: answer as access(2) would for anyone else.
        real_access = os.access
        monkeypatch.setattr(
            os, "access", lambda path, mode: Path(path) != locked and real_access(path, mode)
        )
    try:
        status, out, err = serve(capsys, f"sqlite:///{locked / 'db.sqlite3'}")
    finally:
        locked.chmod(0o755)
    assert status == 2 and out == ""
    assert str(locked) in err and "not writable" in err


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///relative.sqlite3", Path("relative.sqlite3").resolve()),
        ("sqlite:////srv/db.sqlite3?timeout=5", Path("/srv/db.sqlite3")),
        ("sqlite://", None),
        ("sqlite:///:memory:", None),
        ("sqlite:///file:shared?mode=memory&uri=true", None),
        ("postgresql+psycopg://u:p@localhost/db", None),
    ],
)
def test_which_urls_name_a_file(url: str, expected: Path | None) -> None:
    assert db.sqlite_file(url) == expected


def test_a_database_in_a_writable_folder_passes(tmp_path: Path) -> None:
    db.check_database_folder(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    db.check_database_folder("postgresql+psycopg://u:p@localhost/db")  # not ours to look at


def test_a_sqlite_file_another_server_holds_is_one_line_before_any_url(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from gameshelf.server.cluster import SingleProcessGuard

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    holder = SingleProcessGuard(url)
    holder.acquire()  # what a running server holds
    try:
        status, out, err = serve(capsys, url)
    finally:
        holder.release()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "another gameshelf server" in err and "PostgreSQL" in err
    status, out, err = serve(capsys, url)  # free again: the check passes, the busy port stops it
    assert "is already using" not in err and "port" in err
