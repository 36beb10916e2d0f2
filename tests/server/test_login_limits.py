"""Per-name log-in limits: counted in the database (every server process together), slowing
strangers who guess a name's password without ever locking its owner out."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from gameshelf.server.logins import LoginThrottle
from gameshelf.server.settings import ServerSettings
from gameshelf.server.store import Store, utcnow

from .conftest import DATABASES, GENEROUS, RunningServer, database_url

PASSWORD = "correct horse battery"
FIVE_A_MINUTE = ServerSettings(
    **{**GENEROUS.__dict__, "logins_per_minute": 1e6, "logins_per_name_per_minute": 5.0}
)


def _log_in(server: RunningServer, password: str, client: httpx.Client | None = None) -> int:
    client = client or httpx.Client(base_url=server.url, timeout=20.0)
    body = {"name": "Olga", "password": password}
    return client.post("/api/account/login", json=body).status_code


def _owner(server: RunningServer) -> httpx.Client:
    """Olga's browser: it registered the account (so it is a known device), then logged out."""
    client = httpx.Client(base_url=server.url, timeout=20.0)
    body = {"name": "Olga", "password": PASSWORD}
    assert client.post("/api/account/register", json=body).status_code == 201
    assert client.post("/api/account/logout").status_code == 200
    return client


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningServer]:
    running = RunningServer(database_url(request.param, tmp_path), FIVE_A_MINUTE)
    yield running
    running.stop()


def test_strangers_guessing_are_slowed_and_the_owners_browser_is_not(
    server: RunningServer,
) -> None:
    owner = _owner(server)
    guesses = [_log_in(server, f"guess number {n}") for n in range(5)]
    assert guesses == [401] * 5  # each wrong guess is answered as one
    assert _log_in(server, "guess number 6") == 429  # a stranger now waits
    assert _log_in(server, PASSWORD) == 429  # even with the right password, a stranger waits
    assert _log_in(server, PASSWORD, owner) == 200  # the owner's known browser goes through


def test_a_right_password_does_not_count_against_the_name(server: RunningServer) -> None:
    _owner(server)
    for _ in range(8):  # more than the burst: only wrong guesses spend it
        assert _log_in(server, PASSWORD) == 200
    assert _log_in(server, "a wrong guess") != 429


def test_two_processes_share_one_count(tmp_path: Path) -> None:
    if not os.environ.get("GAMESHELF_TEST_POSTGRES_URL"):
        pytest.fail("two processes share PostgreSQL: export GAMESHELF_TEST_POSTGRES_URL")
    url = database_url("postgresql", tmp_path)
    first = RunningServer(url, FIVE_A_MINUTE)
    second = RunningServer(url, FIVE_A_MINUTE)
    try:
        _owner(first)
        guesses = [_log_in((first, second)[n % 2], f"guess {n}") for n in range(5)]
        assert 429 not in guesses
        assert _log_in(second, "guess 6") == 429
        assert _log_in(first, "guess 7") == 429
    finally:
        first.stop()
        second.stop()


@pytest.mark.parametrize("kind", DATABASES)
def test_the_bucket_refills_at_its_rate(kind: str, tmp_path: Path) -> None:
    store = Store(database_url(kind, tmp_path))
    try:
        throttle = LoginThrottle(store, per_minute=6.0, burst=2.0)
        start = utcnow()
        assert [throttle.reserve("olga", start) for _ in range(2)] == [0.0, 0.0]
        assert throttle.reserve("olga", start) == pytest.approx(10.0)
        assert throttle.reserve("olga", start + timedelta(seconds=10)) == 0.0
        assert throttle.reserve("someone else", start) == 0.0  # names count apart
    finally:
        store.close()
