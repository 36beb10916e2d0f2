"""Rated play's rules at the lobby: who may create and join a rated match, and the clock a
rated match gets (docs/server.md, "Accounts, players and ratings")."""

from __future__ import annotations

import asyncio

from fastapi import Request

from .accounts import Account
from .callers import check_origin, current_account, get_accounts, require_account
from .clock import TimeControl
from .contract import TimeControlRequest
from .errors import ServerError
from .hub import Hub
from .ratings import check_rated_seats, game_of
from .vetting import vet_network_game

RATED_DEFAULT_CLOCK = TimeControlRequest(mode="correspondence", days=3.0)
"""A rated match created without a clock gets this one: leaving it for good is then a flag
(a loss), never an endless unrated limbo."""


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
    hub: Hub = request.app.state.hub
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


def check_rated_bank(control: TimeControl, least_seconds: float) -> None:
    """Refuse a rated real-time bank shorter than the server's minimum (a one-second bank
    would flag its first mover before the page had loaded)."""
    if control.mode == "realtime" and control.initial_ms < least_seconds * 1000:
        raise ServerError(
            "request/invalid",
            f"body.clock.minutes: a rated real-time match needs a bank of at least "
            f"{least_seconds:g} s per seat",
        )
