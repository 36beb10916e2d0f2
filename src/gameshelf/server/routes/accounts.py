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

from fastapi import APIRouter, Depends, Request, Response

from ..accounts import SESSION_COOKIE, Account, AccountStore, account_name
from ..callers import (
    check_origin,
    current_account,
    get_accounts,
    require_account,
)
from ..contract import (
    AccountInfo,
    ClaimedSeat,
    ClaimRequest,
    ClaimResponse,
    Credentials,
)
from ..deps import client_address
from ..errors import ServerError
from ..guard import RateLimiter
from ..logins import DEVICE_COOKIE, DEVICE_LIFE, KnownDevices, LoginThrottle

router = APIRouter(tags=["accounts"])
AccountsDep = Annotated[AccountStore, Depends(get_accounts)]


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
