"""Accounts, sessions, claimed guest seats, player pages and ratings (docs/server.md,
"Accounts, players and ratings"), on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select, update
from starlette.requests import Request
from starlette.responses import Response

from gameshelf.server.accounts import SESSION_COOKIE, AccountStore
from gameshelf.server.client import SeatClient
from gameshelf.server.ratings import (
    BOT_RATINGS,
    forfeit_ranks,
    on_game_over,
    settle,
)
from gameshelf.server.routes.accounts import _set_cookie
from gameshelf.server.settings import ServerSettings
from gameshelf.server.store import (
    AccountRow,
    RatingChangeRow,
    RatingRow,
    SessionRow,
    Store,
    utcnow,
)

from .conftest import DATABASES, RunningServer, database_url
from .helpers import GENEROUS, PASSWORD, ROOMY
from .helpers import client as _client
from .helpers import expected_ratings as _expected
from .helpers import rating_of as _rating
from .helpers import register as _register
from .helpers import seated_accounts as _seated

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "agent": "random"}


def _error(answer: httpx.Response) -> str:
    code: str = answer.json()["error"]["code"]
    return code


def _play_out(server: RunningServer, match_id: str, tokens: list[str]) -> dict[str, Any]:
    """Play each held seat's first legal move until the game ends; the last state."""
    with SeatClient(server.url, match_id, tokens) as table:
        state = table.state
        while state["status"] != "finished":
            seat = state["to_move"]
            held = state["seats"].get(str(seat))
            if held is None or not held["legal_moves"]:
                state = table.receive()
                continue
            state = table.move(seat, held["legal_moves"][0])
        return state


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningServer]:
    """The suite's server, with room for many log-ins from one address."""
    running = RunningServer(database_url(request.param, tmp_path), ROOMY)
    yield running
    running.stop()


@pytest.fixture(params=DATABASES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = Store(database_url(request.param, tmp_path))
    yield opened
    opened.close()


# --- passwords, sessions, cookies ----------------------------------------------------------
def test_passwords_are_stored_only_as_argon2id_hashes(store: Store) -> None:
    accounts = AccountStore(store)
    account, token = accounts.register("Ada", PASSWORD)
    with store.session() as session:
        row = session.get(AccountRow, account.id)
        assert row is not None
        digest = row.password_hash
        sessions = list(session.scalars(select(SessionRow)))
    assert digest.startswith("$argon2id$") and PASSWORD not in digest
    assert PasswordHasher().verify(digest, PASSWORD)
    # the session token is kept only as its SHA-256
    assert [s.token_hash for s in sessions] == [hashlib.sha256(token.encode()).hexdigest()]
    assert accounts.session_account(token) == account
    assert accounts.log_in("ada", PASSWORD)[0] == account
    with pytest.raises(Exception, match="wrong password") as refused:
        accounts.log_in("Ada", PASSWORD + "!")
    assert getattr(refused.value, "code", None) == "auth/bad-login"


def test_an_expired_session_logs_nobody_in(store: Store) -> None:
    accounts = AccountStore(store)
    _, token = accounts.register("Grace", PASSWORD)
    with store.session() as session:
        session.execute(update(SessionRow).values(expires=utcnow() - timedelta(seconds=1)))
    assert accounts.session_account(token) is None
    with store.session() as session:  # and it is gone
        assert session.scalar(select(func.count()).select_from(SessionRow)) == 0


def test_the_session_cookie_is_http_only_same_site_and_server_side(
    server: RunningServer,
) -> None:
    client = _client(server)
    answer = client.post("/api/account/register", json={"name": "Hedy", "password": PASSWORD})
    assert answer.status_code == 201 and answer.json() == {"name": "Hedy"}
    cookie = answer.headers["set-cookie"]
    flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert {"httponly", "path", "max-age", "samesite"} <= flags
    assert "samesite=lax" in cookie.lower()
    assert "secure" not in flags  # plain http: see the https case below
    token = client.cookies[SESSION_COOKIE]
    assert client.get("/api/account").json() == {"name": "Hedy"}
    assert client.post("/api/account/logout").json() == {"name": None}
    # the old cookie is dead on the server, not only forgotten by this browser
    stale = _client(server)
    stale.cookies.set(SESSION_COOKIE, token)
    assert stale.get("/api/account").json() == {"name": None}
    assert _client(server).get("/api/account").json() == {"name": None}


def test_the_cookie_is_secure_over_https() -> None:
    class _State:
        settings = ServerSettings()

    class _App:
        state = _State()

    for scheme, secure in (("https", True), ("http", False)):
        scope = {"type": "http", "scheme": scheme, "app": _App(), "headers": [], "path": "/"}
        response = Response()
        _set_cookie(Request(scope), response, "token")
        header = response.headers["set-cookie"].lower()
        assert ("; secure" in header) is secure
        assert "httponly" in header and "samesite=lax" in header


def test_a_page_of_another_origin_is_refused(server: RunningServer) -> None:
    client = _client(server)
    body = {"name": "Mallory", "password": PASSWORD}
    evil = client.post(
        "/api/account/register", json=body, headers={"Origin": "https://evil.example"}
    )
    assert evil.status_code == 403 and _error(evil) == "auth/bad-origin"
    assert client.post("/api/account/login", json=body).status_code == 401  # nothing was made
    same = client.post("/api/account/register", json=body, headers={"Origin": server.url})
    assert same.status_code == 201


# --- names ---------------------------------------------------------------------------------
def test_names_are_unique_after_normalisation(server: RunningServer) -> None:
    _register(server, "Ada  Lovelace")
    client = _client(server)
    for twin in ("ada lovelace", "ADA LOVELACE", "\uff21da Lovelace", " Ada\u3000Lovelace "):
        answer = client.post("/api/account/register", json={"name": twin, "password": PASSWORD})
        assert answer.status_code == 409 and _error(answer) == "account/name-taken", twin
    logged = client.post("/api/account/login", json={"name": "ada lovelace", "password": PASSWORD})
    assert logged.status_code == 200 and logged.json() == {"name": "Ada Lovelace"}


def test_bots_cannot_be_impersonated(server: RunningServer) -> None:
    client = _client(server)
    for name in ("hard", "Random", "bot Alice", "Bot: greedy", "bot_x", "\u202ebob"):
        answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 400 and _error(answer) == "request/invalid", name
    short = client.post("/api/account/register", json={"name": "Bob", "password": "short"})
    assert short.status_code == 400 and "password" in short.json()["error"]["message"]


def test_a_guest_cannot_take_an_accounts_name(server: RunningServer) -> None:
    _register(server, "Margaret")
    guest = _client(server)
    match = guest.post("/api/matches", json={"game": "axiom", "seats": [HUMAN, RANDOM]}).json()
    taken = guest.post(f"/api/matches/{match['id']}/join", json={"name": "MARGARET"})
    assert taken.status_code == 400 and "registered" in taken.json()["error"]["message"]
    assert guest.post(f"/api/matches/{match['id']}/join", json={"name": "Meg"}).status_code == 200


# --- rate limits ---------------------------------------------------------------------------
def _limited_server(tmp_path: Path, **limits: float) -> RunningServer:
    settings = ServerSettings(**{**GENEROUS.__dict__, **limits})
    return RunningServer(database_url("sqlite", tmp_path), settings)


def test_log_in_is_rate_limited_per_name(tmp_path: Path) -> None:
    server = _limited_server(tmp_path, logins_per_minute=1e6, logins_per_name_per_minute=2)
    try:
        _register(server, "Target")
        _register(server, "Other")
        client = _client(server)
        codes = [
            client.post("/api/account/login", json={"name": "target", "password": "wrong guess"})
            for _ in range(3)
        ]
        assert [c.status_code for c in codes] == [401, 401, 429]
        # even the right password waits now: the name, not the guess, is limited
        right = client.post("/api/account/login", json={"name": "Target", "password": PASSWORD})
        assert right.status_code == 429 and _error(right) == "request/rate-limited"
        other = client.post("/api/account/login", json={"name": "Other", "password": PASSWORD})
        assert other.status_code == 200
    finally:
        server.stop()


def test_log_in_is_rate_limited_per_address(tmp_path: Path) -> None:
    server = _limited_server(tmp_path, logins_per_minute=3, logins_per_name_per_minute=1e6)
    try:
        client = _client(server)
        codes = [
            client.post("/api/account/login", json={"name": f"n{i}", "password": PASSWORD})
            for i in range(4)
        ]
        assert [c.status_code for c in codes] == [401, 401, 401, 429]
        again = client.post("/api/account/register", json={"name": "Late", "password": PASSWORD})
        assert again.status_code == 429
    finally:
        server.stop()


# --- claiming a guest's games, the player page ---------------------------------------------------
def test_a_guests_game_is_claimed_and_shows_on_the_player_page(server: RunningServer) -> None:
    guest = _client(server)
    match = guest.post("/api/matches", json={"game": "axiom", "seats": [HUMAN, RANDOM]}).json()
    token = guest.post(f"/api/matches/{match['id']}/join", json={"name": "Guest"}).json()["token"]
    other = guest.post("/api/matches", json={"game": "axiom", "seats": [HUMAN, RANDOM]}).json()
    other_token = guest.post(f"/api/matches/{other['id']}/join", json={}).json()["token"]
    assert guest.get("/api/players/Alan").status_code == 404

    alan = _register(server, "Alan")
    forged = [
        {"match": match["id"], "token": token},
        {"match": other["id"], "token": "forged-token"},
    ]
    refused = alan.post("/api/account/claim", json={"seats": forged})
    assert refused.status_code == 403 and _error(refused) == "auth/bad-token"
    assert alan.get("/api/players/Alan").json()["games"] == []  # all or nothing
    guest_claim = _client(server).post(
        "/api/account/claim", json={"seats": [{"match": match["id"], "token": token}]}
    )
    assert guest_claim.status_code == 401 and _error(guest_claim) == "auth/login-required"

    seats = [{"match": match["id"], "token": token}, {"match": other["id"], "token": other_token}]
    claimed = alan.post("/api/account/claim", json={"seats": seats})
    assert claimed.status_code == 200
    assert claimed.json()["claimed"] == [
        {"match": match["id"], "seat": 0},
        {"match": other["id"], "seat": 0},
    ]
    # a second account cannot take a claimed seat, even with its token
    thief = _register(server, "Thief")
    stolen = thief.post("/api/account/claim", json={"seats": seats[:1]})
    assert stolen.status_code == 409 and _error(stolen) == "match/seat-taken"

    page = _client(server).get("/api/players/alan").json()
    assert page["name"] == "Alan"
    assert {g["match"] for g in page["games"]} == {match["id"], other["id"]}
    assert all(g["name"] == "axiom" and g["seat"] == 0 and not g["rated"] for g in page["games"])
    # both games wait for Alan's move (the human seat moves first)
    assert {g["match"] for g in page["your_turn"]} == {match["id"], other["id"]}
    holders = _client(server).get(f"/api/matches/{match['id']}/players").json()
    assert holders == {
        "match": match["id"],
        "rated": False,
        "seats": [{"seat": 0, "account": "Alan"}, {"seat": 1, "account": None}],
    }
    state = _play_out(server, match["id"], [token])
    finished = [
        g for g in alan.get("/api/players/Alan").json()["games"] if g["match"] == match["id"]
    ]
    assert finished[0]["status"] == "finished"
    mine, theirs = state["result"]
    expected = "draw" if mine == theirs else "win" if mine > theirs else "loss"
    assert finished[0]["outcome"] == expected
    assert alan.get("/players/Alan").status_code == 200  # the page itself


# --- rated matches ---------------------------------------------------------------------------
def test_a_rated_game_between_accounts_changes_both_ratings_as_openskill_says(
    server: RunningServer,
) -> None:
    alice, bob = _register(server, "Alice"), _register(server, "Bob")
    humans = {"game": "axiom", "seats": [HUMAN, HUMAN], "rated": True}
    guest = _client(server)
    assert _error(guest.post("/api/matches", json=humans)) == "auth/login-required"
    created = alice.post("/api/matches", json=humans)
    assert created.status_code == 201, created.text
    match = created.json()["id"]
    refused = guest.post(f"/api/matches/{match}/join", json={"name": "Gus"})
    assert refused.status_code == 401 and _error(refused) == "auth/login-required"
    tokens = [alice.post(f"/api/matches/{match}/join", json={}).json()["token"]]
    twice = alice.post(f"/api/matches/{match}/join", json={})
    assert twice.status_code == 409  # one account, one seat of a rated match
    tokens.append(bob.post(f"/api/matches/{match}/join", json={"name": "ignored"}).json()["token"])
    summary = alice.get(f"/api/matches/{match}").json()
    assert [s["name"] for s in summary["seats"]] == ["Alice", "Bob"]  # the accounts' names

    state = _play_out(server, match, tokens)
    result = state["result"]
    assert result[0] != result[1]
    expected = _expected([(25.0, 25.0 / 3.0)] * 2, result)
    assert _rating(alice, "Alice", "axiom", 2) == pytest.approx(expected[0])
    assert _rating(alice, "Bob", "axiom", 2) == pytest.approx(expected[1])
    page = alice.get("/api/players/Alice").json()
    assert page["games"][0]["rated"] and page["ratings"][0]["games"] == 1
    assert page["ratings"][0]["rating"] == pytest.approx(expected[0][0] - 3 * expected[0][1])


def test_a_person_is_rated_against_a_bots_fixed_rating(server: RunningServer) -> None:
    carol = _register(server, "Carol")
    unrated_bot = {"game": "axiom", "seats": [HUMAN, {"kind": "bot", "agent": "mcts"}]}
    refused = carol.post("/api/matches", json={**unrated_bot, "rated": True})
    assert refused.status_code == 400 and "published rating" in refused.json()["error"]["message"]
    created = carol.post("/api/matches", json={"game": "axiom", "rated": True}).json()
    token = carol.post(f"/api/matches/{created['id']}/join", json={}).json()["token"]
    state = _play_out(server, created["id"], [token])
    bot = BOT_RATINGS[("axiom", 2)]["random"]
    expected = _expected([(25.0, 25.0 / 3.0), bot], state["result"])
    assert _rating(carol, "Carol", "axiom", 2) == pytest.approx(expected[0])


def _ratings(store: Store) -> dict[int, tuple[float, float, int]]:
    with store.session() as session:
        return {
            r.account_id: (r.mu, r.sigma, r.games)
            for r in session.scalars(select(RatingRow).where(RatingRow.players == 3))
        }


def test_three_players_rate_by_placement_once_and_an_abandon_is_a_loss(store: Store) -> None:
    accounts = AccountStore(store)
    match_id = _seated(store, accounts, "cage(players=3)", ["P0", "P1", "P2"])
    result = [0.0, 1.0, -1.0]  # seat 1 first, seat 0 second, seat 2 last
    with store.session() as session:
        changes = settle(session, match_id, result)
    assert [c.seat for c in changes] == [0, 1, 2]
    expected = _expected([(25.0, 25.0 / 3.0)] * 3, result)
    after = _ratings(store)
    ids = [accounts.find(n).id for n in ("P0", "P1", "P2")]  # type: ignore[union-attr]
    for seat, ident in enumerate(ids):
        assert after[ident][:2] == pytest.approx(expected[seat]) and after[ident][2] == 1
    assert after[ids[1]][0] > after[ids[0]][0] > after[ids[2]][0]
    # a game-over told again (a replay, a restart) counts nothing twice
    with store.session() as session:
        assert settle(session, match_id, result) == []
        store.game_over_hooks.append(on_game_over)
        store.finished(session, match_id, result)
    assert _ratings(store) == after

    # abandoning: the seat that left is last whatever the board said
    second = _seated(store, accounts, "cage(players=3,stock=standard)", ["P0", "P1", "P2"])
    with store.session() as session:
        settle(session, second, [1.0, 0.0, -1.0], forfeits=[0])
    before = [after[i][:2] for i in ids]
    forfeit = _expected(before, [1.0, 0.0, -1.0], forfeits=[0])
    final = _ratings(store)
    assert final[ids[0]][:2] == pytest.approx(forfeit[0]) and final[ids[0]][0] < after[ids[0]][0]
    assert forfeit_ranks([1.0, 0.0, -1.0], [0]) == [4, 2, 3]
    with store.session() as session:
        assert session.scalar(select(func.count()).select_from(RatingChangeRow)) == 6


def test_a_failed_game_over_commit_rates_nothing(store: Store) -> None:
    accounts = AccountStore(store)
    match_id = _seated(store, accounts, "axiom", ["Q0", "Q1"])
    with pytest.raises(RuntimeError), store.session() as session:
        settle(session, match_id, [1.0, -1.0])
        raise RuntimeError("the game-over's transaction fails after the rating")
    assert _ratings(store) == {}
    with store.session() as session:  # the match can still be settled, once
        assert len(settle(session, match_id, [1.0, -1.0])) == 2


def test_ratings_survive_a_restart_without_counting_twice(tmp_path: Path) -> None:
    url = database_url("sqlite", tmp_path)
    server = RunningServer(url, ROOMY)
    try:
        dora = _register(server, "Dora")
        match = dora.post("/api/matches", json={"game": "axiom", "rated": True}).json()["id"]
        token = dora.post(f"/api/matches/{match}/join", json={}).json()["token"]
        _play_out(server, match, [token])
        first = _rating(dora, "Dora", "axiom", 2)
    finally:
        server.stop()
    again = RunningServer(url)
    try:
        client = _client(again)
        assert _rating(client, "Dora", "axiom", 2) == first
        assert client.get("/api/players/Dora").json()["ratings"][0]["games"] == 1
    finally:
        again.stop()


@pytest.mark.parametrize(
    "body",
    [
        {"game": "axia", "seats": [HUMAN, {"kind": "bot", "agent": "hard"}], "seed": 5},
        {"game": "axiom", "seats": [HUMAN, {"kind": "bot", "agent": "hard"}], "seed": 0},
        {"game": "cage", "seed": 7},
    ],
)
def test_a_rated_match_refuses_a_chosen_seed(server: RunningServer, body: dict[str, Any]) -> None:
    """A seed tells its chooser every card, die and bot draw: fine for practice against bots,
    worthless for a rating. Refused, and nothing is created."""
    gail = _register(server, "Gail")
    assert gail.post("/api/matches", json={**body, "rated": False}).status_code == 201
    before = [m["id"] for m in gail.get("/api/matches").json()]
    refused = gail.post("/api/matches", json={**body, "rated": True})
    assert refused.status_code == 400 and _error(refused) == "request/seed-not-allowed"
    assert "rated" in refused.json()["error"]["message"]
    assert [m["id"] for m in gail.get("/api/matches").json()] == before


def test_a_rated_bot_plays_at_its_own_think_time(server: RunningServer) -> None:
    """A bot's published rating is its rating at its own time per move: a rated match cannot
    seat it with another (it would be a weaker or stronger player under the same rating)."""
    hal = _register(server, "Hal")
    bot = {"kind": "bot", "agent": "hard", "think_seconds": 0.01}
    body = {"game": "axiom", "seats": [HUMAN, bot], "rated": True}
    refused = hal.post("/api/matches", json=body)
    assert refused.status_code == 400 and _error(refused) == "request/invalid"
    assert "think_seconds" in refused.json()["error"]["message"]
    assert hal.get("/api/matches").json() == []
    named = {**body, "seats": [HUMAN, {"kind": "bot", "agent": "hard@0.01"}]}
    assert _error(hal.post("/api/matches", json=named)) == "request/invalid"
    assert hal.get("/api/matches").json() == []


def test_an_invisible_character_cannot_copy_a_registered_name(server: RunningServer) -> None:
    """ "Ann" followed by a Hangul filler or a combining grapheme joiner looks exactly like
    "Ann": neither a second account nor a guest may take it."""
    _register(server, "Ann")
    for copy in ("Ann\u3164", "Ann\u034f", "A\u115fnn"):
        other = _client(server)
        answer = other.post("/api/account/register", json={"name": copy, "password": PASSWORD})
        assert answer.status_code == 400 and _error(answer) == "request/invalid", copy
        assert "invisible" in answer.json()["error"]["message"]
        assert other.get("/api/account").json() == {"name": None}  # no session either
    match = _client(server).post("/api/matches", json={"game": "axiom"}).json()["id"]
    joined = _client(server).post(f"/api/matches/{match}/join", json={"name": "Ann\u3164"})
    assert joined.status_code == 400 and _error(joined) == "request/invalid"
    assert _client(server).get("/api/players/Ann\u3164").status_code == 404


def test_a_rated_match_always_has_a_clock_and_a_flag_is_a_loss(tmp_path: Path) -> None:
    # a short bank is allowed here so the flag comes soon; both seats move first (a flag
    # before that aborts the match: tests/server/test_rated_play.py)
    settings = ServerSettings(**{**ROOMY.__dict__, "rated_min_bank_seconds": 1.0})
    server = RunningServer(database_url("sqlite", tmp_path), settings)
    try:
        _flag_costs_rating(server)
    finally:
        server.stop()


def _flag_costs_rating(server: RunningServer) -> None:
    eve, finn = _register(server, "Eve"), _register(server, "Finn")
    plain = eve.post("/api/matches", json={"game": "axiom", "seats": [HUMAN, HUMAN], "rated": True})
    assert plain.json()["clock"]["mode"] == "correspondence"  # none chosen: one is given
    fast = {"mode": "realtime", "minutes": 0.03, "increment_seconds": 0}
    body = {"game": "axiom", "seats": [HUMAN, HUMAN], "rated": True, "clock": fast}
    match = eve.post("/api/matches", json=body).json()["id"]
    tokens = [c.post(f"/api/matches/{match}/join", json={}).json()["token"] for c in (eve, finn)]
    with SeatClient(server.url, match, tokens) as table:
        for seat in (0, 1):  # each seat's first move, within its grace window
            table.move(seat, table.state["seats"][str(seat)]["legal_moves"][0])
    deadline = time.monotonic() + 30
    while eve.get(f"/api/matches/{match}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the clock never flagged"
        time.sleep(0.2)
    result = eve.get(f"/api/matches/{match}").json()["result"]
    assert result[0] < result[1]  # Eve, to move, ran out of time
    expected = _expected([(25.0, 25.0 / 3.0)] * 2, result)
    assert _rating(eve, "Eve", "axiom", 2) == pytest.approx(expected[0])
    assert _rating(eve, "Finn", "axiom", 2) == pytest.approx(expected[1])
    assert _rating(eve, "Eve", "axiom", 2)[0] < 25.0  # the flag cost Eve rating


def test_hostile_ids_and_names_are_refused_before_the_database(server: RunningServer) -> None:
    ivy = _register(server, "Ivy")
    for match in ("\x00", "../etc", "0" * 32, "ABCDEF0123456789"):
        claim = ivy.post("/api/account/claim", json={"seats": [{"match": match, "token": "t"}]})
        assert claim.status_code == 400 and _error(claim) == "request/invalid", match
    joined = ivy.post("/api/matches/%00/join", json={})
    assert joined.status_code == 404 and _error(joined) == "match/not-found"
    for name in ("%00", "a%0Ab", "x" * 64):
        page = ivy.get(f"/api/players/{name}")
        assert page.status_code == 404 and _error(page) == "player/not-found", name


def _join_twice_at_once(server: RunningServer, who: httpx.Client, match: str) -> list[int]:
    """Two tabs of one account join ``match`` at the same instant; their status codes."""
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def join() -> None:
        tab = _client(server)
        tab.cookies = who.cookies
        barrier.wait()
        codes.append(tab.post(f"/api/matches/{match}/join", json={}).status_code)

    threads = [threading.Thread(target=join) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(codes)


def test_one_account_racing_itself_gets_one_seat_of_a_rated_match(server: RunningServer) -> None:
    """Two joins by one account at the same instant (two tabs): one seat, the other refused.

    The one-seat check and the link of the seat to the account are one step per match; checked
    apart, both joins passed the check before either seat was linked."""
    dora = _register(server, "Dora")
    for _ in range(4):
        rated = {"game": "axiom", "rated": True, "seats": [HUMAN, HUMAN]}
        created = dora.post("/api/matches", json=rated)
        assert created.status_code == 201, created.text
        match = created.json()["id"]
        assert _join_twice_at_once(server, dora, match) == [200, 409]
        seats = dora.get(f"/api/matches/{match}").json()["seats"]
        assert [seat["name"] for seat in seats].count("Dora") == 1
