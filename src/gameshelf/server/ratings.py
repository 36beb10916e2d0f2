"""Ratings of people per game and player count, from finished rated matches.

The model is openskill's Plackett-Luce, as the arena uses (``gameshelf.arena.ratings``), so a
3–4 player Cage or AXIA match rates by placement. Bots have fixed, published ratings: the arena's
numbers from ``docs/strength.md``, shipped as ``bot_ratings.json`` (:data:`BOT_RATINGS`); a
person is rated against them and they never move. :func:`settle` runs inside the transaction
that stores the game-over, so a match is rated exactly once, with its result, or not at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from .errors import ServerError
from .store import (
    MatchRow,
    RatedMatchRow,
    RatingChangeRow,
    RatingRow,
    SeatAccountRow,
    SeatRow,
    utcnow,
)

RATINGS_FILE = Path(__file__).with_name("bot_ratings.json")


def load_bot_ratings(
    path: Path = RATINGS_FILE,
) -> dict[tuple[str, int], dict[str, tuple[float, float]]]:
    """(game, players) -> bot -> (mu, sigma), read from ``bot_ratings.json``.

    The file is written by ``python -m tools.strength`` from the same arena runs as
    ``docs/strength.md`` (one table per game and player count: the run where ``hard`` meets the
    server's bots), so it is never edited by hand. A malformed entry is refused with its index.
    """
    table: dict[tuple[str, int], dict[str, tuple[float, float]]] = {}
    for index, entry in enumerate(json.loads(path.read_text(encoding="utf-8"))["ratings"]):
        try:
            key = (str(entry["game"]), int(entry["players"]))
            table.setdefault(key, {})[str(entry["bot"])] = (
                float(entry["mu"]),
                float(entry["sigma"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{path.name}: rating {index}: bad entry ({error})") from error
    return table


BOT_RATINGS = load_bot_ratings()
"""Bots with a published rating; a bot not listed for a game and player count cannot sit in a
rated match of it."""
GAME_NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Change:
    """One seat's rating before and after a rated match."""

    seat: int
    account_id: int
    before: tuple[float, float]
    after: tuple[float, float]


def game_of(game_string: str) -> str:
    """The registered game a match's game string names (``cage(players=3)`` -> ``cage``)."""
    found = GAME_NAME.match(game_string)
    return found.group(0) if found else game_string[:16]


def check_rated_seats(game: str, seats: Sequence[dict[str, Any]]) -> None:
    """Refuse a rated match that could not be rated: it needs two seats or more, a human seat,
    and only bots with a published rating for this game and player count."""
    players = len(seats)
    if players < 2:
        raise ServerError("request/invalid", "rated: a rated match needs two seats or more")
    if not any(seat.get("kind") == "human" for seat in seats):
        raise ServerError("request/invalid", "rated: a rated match needs a human seat")
    published = BOT_RATINGS.get((game, players), {})
    for index, seat in enumerate(seats):
        if seat.get("kind") == "bot":
            agent = str(seat.get("agent") or "random")
            if agent not in published:
                allowed = ", ".join(sorted(published)) or "none"
                raise ServerError(
                    "request/invalid",
                    f"rated: seat {index}: bot {agent!r} has no published rating for {game} "
                    f"with {players} players (rated bots: {allowed})",
                )
            if seat.get("think_seconds") is not None:
                # The published rating is the bot's at its own time per move: a bot given
                # another time is another player (and settle would find no rating for it).
                raise ServerError(
                    "request/invalid",
                    f"rated: seat {index}: a rated bot plays at its own time per move; "
                    "think_seconds cannot be set in a rated match",
                )


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """openskill Plackett-Luce, one player per team: the new (mu, sigma) of each seat."""
    from openskill.models import PlackettLuce  # late: only the server's game-overs need it

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    new = model.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in new]


def default_rating() -> tuple[float, float]:
    """A new person's rating: openskill's default (mu 25, sigma 25/3)."""
    return 25.0, 25.0 / 3.0


def placements(result: Sequence[float]) -> list[int]:
    """Rank of each seat, 1 = best, equal results sharing a rank (the arena's rule; it is not
    imported from there because the arena package pulls in its tournament machinery)."""
    return [1 + sum(1 for other in result if other > mine) for mine in result]


def forfeit_ranks(result: Sequence[float], forfeits: Iterable[int]) -> list[int]:
    """Placements from the result, with every seat that abandoned placed last (a loss)."""
    out = set(forfeits)
    ranks = placements(list(result))
    return [len(ranks) + 1 if seat in out else rank for seat, rank in enumerate(ranks)]


PAIR_WINDOW = timedelta(days=1)
"""How far back repeated results between the same two accounts are counted."""


def settle(
    session: Session,
    match_id: str,
    result: Sequence[float] | None,
    forfeits: Iterable[int] = (),
    pair_cap: int | None = None,
) -> list[Change]:
    """Apply a finished match's result to its players' ratings, in the caller's transaction.

    Does nothing for an unrated match or one already settled (so a replayed or repeated
    game-over never counts twice). A rated match whose human seats are not all held by
    distinct accounts, or that seats a bot without a published rating, is settled without
    changes. ``forfeits`` are seats that abandoned the match: each counts as a loss.
    ``pair_cap``: once two of its accounts have that many rated results together in this game
    within :data:`PAIR_WINDOW`, the match is settled without changes (no farming by repeated
    games between the same pair).
    """
    rated = session.get(RatedMatchRow, match_id, with_for_update=True)
    if rated is None or rated.settled is not None:
        return []
    rated.settled = utcnow()
    match = session.get(MatchRow, match_id)
    if match is None or result is None:
        return []
    seats = session.scalars(
        select(SeatRow).where(SeatRow.match_id == match_id).order_by(SeatRow.seat)
    ).all()
    holders = {
        row.seat: row.account_id
        for row in session.scalars(
            select(SeatAccountRow).where(SeatAccountRow.match_id == match_id)
        )
    }
    game, players = game_of(match.game), len(seats)
    published = BOT_RATINGS.get((game, players), {})
    if players < 2 or len(result) != players:
        return []
    accounts: dict[int, int] = {}
    for seat in seats:
        if seat.kind == "bot":
            if seat.agent not in published:
                return []
            continue
        account_id = holders.get(seat.seat)
        if account_id is None or account_id in accounts.values():
            return []  # a guest seat, or one account on two seats: nothing to rank
        accounts[seat.seat] = account_id
    now = utcnow()
    if pair_cap is not None and pair_capped(session, game, list(accounts.values()), now, pair_cap):
        return []
    rows = lock_ratings(session, game, players, accounts.values(), now)
    before = [
        _mu_sigma(rows[accounts[seat.seat]])
        if seat.seat in accounts
        else published[seat.agent or ""]
        for seat in seats
    ]
    after = rate(before, forfeit_ranks(result, forfeits))
    changes = []
    for seat_number, account_id in accounts.items():
        old, new = before[seat_number], after[seat_number]
        row = rows[account_id]
        row.mu, row.sigma, row.games, row.updated = new[0], new[1], row.games + 1, now
        session.add(
            RatingChangeRow(
                match_id=match_id,
                seat=seat_number,
                account_id=account_id,
                game=game,
                players=players,
                mu_before=old[0],
                sigma_before=old[1],
                mu_after=new[0],
                sigma_after=new[1],
                created=now,
            )
        )
        changes.append(Change(seat_number, account_id, old, new))
    return changes


def lock_ratings(
    session: Session, game: str, players: int, accounts: Iterable[int], now: datetime
) -> dict[int, RatingRow]:
    """The rating rows of ``accounts`` for this game and player count, created at the default
    rating where missing and locked until the caller's transaction ends.

    Two game-overs of one new player committed at once (two server processes) would both
    insert its row and one would fail; here the insert yields to a row that already exists,
    and the lock makes the second game-over read the first one's result. Rows are locked in
    account order, so two transactions rating overlapping players never wait on each other
    in a circle.
    """
    ordered = sorted(set(accounts))
    mu, sigma = default_rating()
    fresh = [
        {
            "account_id": a,
            "game": game,
            "players": players,
            "mu": mu,
            "sigma": sigma,
            "games": 0,
            "updated": now,
        }
        for a in ordered
    ]
    if fresh:
        session.execute(_insert_missing(session, fresh))
    found = session.scalars(
        select(RatingRow)
        .where(
            RatingRow.account_id.in_(ordered),
            RatingRow.game == game,
            RatingRow.players == players,
        )
        .order_by(RatingRow.account_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).all()
    return {row.account_id: row for row in found}


def _mu_sigma(row: RatingRow) -> tuple[float, float]:
    return row.mu, row.sigma


def _insert_missing(session: Session, values: list[dict[str, Any]]) -> Any:
    """An insert of ``values`` that leaves rows already there alone (both databases)."""
    if session.get_bind().dialect.name == "postgresql":
        return pg_insert(RatingRow).values(values).on_conflict_do_nothing()
    return sqlite_insert(RatingRow).values(values).on_conflict_do_nothing()


def pair_capped(
    session: Session, game: str, accounts: Sequence[int], now: datetime, cap: int
) -> bool:
    """Whether two of ``accounts`` already have ``cap`` rated results together in ``game``
    since ``now - PAIR_WINDOW`` (each counted match changed both of their ratings)."""
    since = now - PAIR_WINDOW
    for index, first in enumerate(accounts):
        for second in accounts[index + 1 :]:
            mine = select(RatingChangeRow.match_id).where(
                RatingChangeRow.account_id == first,
                RatingChangeRow.game == game,
                RatingChangeRow.created >= since,
            )
            together = session.scalar(
                select(func.count(func.distinct(RatingChangeRow.match_id))).where(
                    RatingChangeRow.account_id == second,
                    RatingChangeRow.match_id.in_(mine),
                )
            )
            if (together or 0) >= cap:
                return True
    return False


def on_game_over(
    session: Session, match_id: str, result: list[float] | None, pair_cap: int | None = None
) -> None:
    """The store's game-over hook (``Store.game_over_hooks``): :func:`settle` the match."""
    settle(session, match_id, result, pair_cap=pair_cap)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown to people: mu - 3 sigma (as the arena reports it)."""
    return mu - 3 * sigma
