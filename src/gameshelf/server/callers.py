"""Who is calling: the app's account store, the logged-in account of a request, and the
check that a state-changing request comes from a page of this server (the CSRF check)."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from fastapi import Request

from .accounts import SESSION_COOKIE, Account, AccountStore
from .errors import ServerError
from .guard import RateLimiter
from .hub import Hub
from .logins import KnownDevices, LoginThrottle

LOGIN_BURST = 5.0
DEFAULT_PORTS = {"http": 80, "https": 443}


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


async def current_account(request: Request) -> Account | None:
    """The logged-in account of this request (None: a guest, or an expired session)."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    accounts = get_accounts(request)
    return await asyncio.to_thread(accounts.session_account, token)


async def require_account(request: Request) -> Account:
    """The logged-in account, or a coded refusal."""
    account = await current_account(request)
    if account is None:
        raise ServerError("auth/login-required", "log in first (your session may have expired)")
    return account
