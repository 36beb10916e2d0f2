"""Accounts over HTTP: register, log in, log out, who am I, claim a guest's seats.

The session travels only in the ``gameshelf_session`` cookie: HTTP-only (page scripts never
see it), ``SameSite=Lax`` (other sites' forms and scripts do not send it), and ``Secure``
whenever the request came over https, directly or through a ``--trusted-proxies`` proxy that
says so in ``X-Forwarded-Proto``. On plain-http localhost the cookie is sent without
``Secure`` (there is no https to require); see docs/server.md. Every state-changing request
that a session can affect also checks the ``Origin`` header: a browser page of another origin
is refused (``auth/bad-origin``) even where a browser would send the cookie.
"""

from __future__ import annotations

import asyncio
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response

from ..accounts import SESSION_COOKIE, Account, AccountStore, account_name
from ..contract import (
    AccountInfo,
    ClaimedSeat,
    ClaimRequest,
    ClaimResponse,
    Credentials,
    TimeControlRequest,
)
from ..deps import client_address, get_hub
from ..errors import ServerError
from ..guard import RateLimiter
from ..hub import Hub
from ..logins import DEVICE_COOKIE, DEVICE_LIFE, KnownDevices, LoginThrottle
from ..ratings import check_rated_seats, game_of

router = APIRouter(tags=["accounts"])
LOGIN_BURST = 5.0
RATED_DEFAULT_CLOCK = TimeControlRequest(mode="correspondence", days=3.0)
"""A rated match created without a clock gets this one: leaving it for good is then a flag
(a loss), never an endless unrated limbo."""


def get_accounts(request: Request) -> AccountStore:
    """The app's account store (made on first use, on the hub's database)."""
    hub: Hub = request.app.state.hub
    accounts: AccountStore | None = getattr(request.app.state, "accounts", None)
    if accounts is None or accounts.store is not hub.store:
        if accounts is not None:  # the app was restarted on another store
            accounts.close()
        settings = request.app.state.settings
        accounts = AccountStore(hub.store, settings.session_days, settings.hashing_threads)
        request.app.state.accounts = accounts
        per_address, per_name = settings.logins_per_minute, settings.logins_per_name_per_minute
        request.app.state.login_limiter = RateLimiter(per_address, _burst(per_address))
        request.app.state.login_throttle = LoginThrottle(hub.store, per_name, _burst(per_name))
        request.app.state.known_devices = KnownDevices(hub.store)
    return accounts


def _burst(per_minute: float) -> float:
    """Tries allowed at once: a minute's worth, at most :data:`LOGIN_BURST`."""
    return max(1.0, min(LOGIN_BURST, per_minute))


AccountsDep = Annotated[AccountStore, Depends(get_accounts)]


def check_origin(request: Request) -> None:
    """Refuse a request sent by a page of another origin (the CSRF check).

    Browsers name the page's origin on every cross-origin request and on same-origin POSTs;
    clients that are not browsers send none and are let through (they hold no victim's
    cookie). The origin must name this server's host and port exactly: a ``Host`` without a
    port stands for the scheme's default port, so a page on another port of the same host
    (another origin) is refused (the shipped nginx site forwards the port, ``$http_host``).
    """
    origin = request.headers.get("origin")
    if origin is None:
        return
    if same_origin(origin, request.headers.get("host", "")):
        return
    raise ServerError("auth/bad-origin", f"requests from {origin[:100]!r} are not accepted here")


def same_origin(origin: str, host: str) -> bool:
    """Whether a browser's ``Origin`` names the server that the ``Host`` header names: the
    same host and the same port, a missing port being the scheme's default."""
    parts = urlsplit(origin)
    if parts.scheme not in DEFAULT_PORTS or not parts.netloc or not host:
        return False
    try:
        theirs = (parts.hostname, parts.port or DEFAULT_PORTS[parts.scheme])
        served = urlsplit(f"{parts.scheme}://{host}")
        ours = (served.hostname, served.port or DEFAULT_PORTS[parts.scheme])
    except ValueError:  # a port that is not a number
        return False
    return theirs == ours


DEFAULT_PORTS = {"http": 80, "https": 443}


async def current_account(request: Request) -> Account | None:
    """The logged-in account of this request (None: a guest, or an expired session)."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    accounts = get_accounts(request)
    return await asyncio.to_thread(accounts.session_account, token)


def _limit(limiter: RateLimiter, key: str, what: str) -> None:
    wait = limiter.take(key)
    if wait > 0:
        raise ServerError("request/rate-limited", f"too many {what}; retry in {wait:.0f} s")


def _https(request: Request) -> bool:
    """Whether the browser reached us over https (uvicorn sets the scheme from a trusted
    proxy's ``X-Forwarded-Proto``)."""
    return request.scope.get("scheme") == "https"


def _set_cookie(request: Request, response: Response, token: str) -> None:
    days: float = request.app.state.settings.session_days
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=_https(request),
    )


@router.post("/api/account/register", status_code=201, dependencies=[Depends(check_origin)])
async def register(
    body: Credentials, request: Request, response: Response, accounts: AccountsDep
) -> AccountInfo:
    """Create an account (name + password) and log in: sets the session cookie."""
    _limit(request.app.state.login_limiter, client_address(request), "log-ins from your address")
    account, token = await accounts.hashing(accounts.register, body.name, body.password)
    _set_cookie(request, response, token)
    await _remember_device(request, response, account)
    return AccountInfo(name=account.name)


@router.post("/api/account/login", dependencies=[Depends(check_origin)])
async def log_in(
    body: Credentials, request: Request, response: Response, accounts: AccountsDep
) -> AccountInfo:
    """Log in with a name and password: sets the session cookie (rate-limited per address and
    per name, before the password is checked)."""
    _limit(request.app.state.login_limiter, client_address(request), "log-ins from your address")
    try:
        key = account_name(body.name)[1]
    except ServerError:
        key = body.name.casefold()
    throttle: LoginThrottle = request.app.state.login_throttle
    stranger = not await _owners_browser(request, accounts, body.name)
    if stranger:
        wait = await asyncio.to_thread(throttle.reserve, key)
        if wait > 0:
            raise ServerError(
                "request/rate-limited", f"too many log-ins for this name; retry in {wait:.0f} s"
            )
    account, token = await accounts.hashing(accounts.log_in, body.name, body.password)
    if stranger:  # the password was right: the try does not count against the name
        await asyncio.to_thread(throttle.refund, key)
    _set_cookie(request, response, token)
    await _remember_device(request, response, account)
    return AccountInfo(name=account.name)


async def _owners_browser(request: Request, accounts: AccountStore, name: str) -> bool:
    """Whether this browser already belongs to the account ``name``: it holds a live session
    of it or has logged in to it before (a known device). Such a browser is not slowed by
    strangers guessing the name's password."""
    owner = await asyncio.to_thread(accounts.find, name)
    if owner is None:
        return False
    current = await current_account(request)
    if current is not None and current.id == owner.id:
        return True
    devices: KnownDevices = request.app.state.known_devices
    device = request.cookies.get(DEVICE_COOKIE)
    return await asyncio.to_thread(devices.account_of, device) == owner.id


async def _remember_device(request: Request, response: Response, account: Account) -> None:
    """Make this browser a known device of ``account`` (its own HTTP-only cookie)."""
    devices: KnownDevices = request.app.state.known_devices
    held = request.cookies.get(DEVICE_COOKIE)
    token = await asyncio.to_thread(devices.remember, account.id, held)
    response.set_cookie(
        DEVICE_COOKIE,
        token,
        max_age=int(DEVICE_LIFE.total_seconds()),
        path="/api/account",
        httponly=True,
        samesite="lax",
        secure=_https(request),
    )


@router.post("/api/account/logout", dependencies=[Depends(check_origin)])
async def log_out(request: Request, response: Response, accounts: AccountsDep) -> AccountInfo:
    """End this browser's session and clear its cookie."""
    await asyncio.to_thread(accounts.log_out, request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_https(request),
    )
    return AccountInfo(name=None)


@router.get("/api/account")
async def me(request: Request) -> AccountInfo:
    """Who this browser is logged in as (``name`` null: a guest)."""
    account = await current_account(request)
    return AccountInfo(name=None if account is None else account.name)


@router.post("/api/account/claim", dependencies=[Depends(check_origin)])
async def claim(body: ClaimRequest, request: Request, accounts: AccountsDep) -> ClaimResponse:
    """Attach seats this browser took as a guest to the logged-in account: each seat is proved
    by its token; all or nothing (one bad token refuses the lot and changes nothing)."""
    account = await require_account(request)
    pairs = [(seat.match, seat.token) for seat in body.seats]
    claimed = await asyncio.to_thread(accounts.claim, account, pairs)
    return ClaimResponse(claimed=[ClaimedSeat(match=m, seat=s) for m, s in claimed])


async def require_account(request: Request) -> Account:
    """The logged-in account, or a coded refusal."""
    account = await current_account(request)
    if account is None:
        raise ServerError("auth/login-required", "log in first (your session may have expired)")
    return account


# --- hooks the match routes call ---------------------------------------------------------------
async def before_create(
    request: Request, game: str, seats: list[dict[str, object]] | None, seed: int | None = None
) -> None:
    """Refuse a rated match the caller may not create: a guest, a chosen seed, or seats that
    cannot be rated (call before the match exists; ``game`` is the request's game string)."""
    check_origin(request)
    await require_account(request)
    if seed is not None:
        # Whoever knows the seed knows every card and die, and every random draw of the bots,
        # in advance: a rating earned that way would be worth nothing.
        raise ServerError(
            "request/seed-not-allowed",
            "a rated match cannot be given a seed (whoever knows it knows every card and die "
            "and the bots' random draws in advance); the server draws a secret seed and "
            "publishes its commitment",
        )
    hub: Hub = get_hub(request)
    from ..vetting import vet_network_game

    vetted = await asyncio.to_thread(vet_network_game, game, hub.catalog, hub.settings.max_plies)
    players = vetted.game.spec.num_players
    chosen = seats or [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (players - 1)
    if len(chosen) == players:  # a wrong count is refused by the hub, with its own message
        check_rated_seats(game_of(vetted.display), chosen)


async def after_create(request: Request, match_id: str) -> None:
    """Record that the new match is rated."""
    await asyncio.to_thread(get_accounts(request).mark_rated, match_id)


async def before_join(request: Request, match_id: str, name: str | None) -> Account | None:
    """The account joining (None: a guest); refuses a guest in a rated match, an account's
    second seat in a rated match, and a guest name that is an account's."""
    account = await current_account(request)
    accounts = get_accounts(request)
    if account is not None:
        check_origin(request)
    rated = await asyncio.to_thread(accounts.is_rated, match_id)
    if rated and account is None:
        raise ServerError("auth/login-required", "a rated match is for accounts: log in first")
    if rated and account is not None:
        holders = await asyncio.to_thread(accounts.seat_holders, match_id)
        if any(holder.id == account.id for holder in holders.values()):
            raise ServerError("match/seat-taken", "you already hold a seat of this rated match")
    if account is None and name is not None:
        owner = await asyncio.to_thread(accounts.find, name)
        if owner is not None:
            raise ServerError(
                "request/invalid",
                f"name: {owner.name!r} is a registered player's name; log in or choose another",
            )
    return account


async def after_join(request: Request, match_id: str, seat: int, account: Account | None) -> None:
    """Record the seat as the account's."""
    if account is not None:
        await asyncio.to_thread(get_accounts(request).link_seat, match_id, seat, account)
