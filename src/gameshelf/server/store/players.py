"""What players' pages and their waiting games read: an account's ratings and games, and the
running seats a player holds by token or by account."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from .matches import Store
from .records import as_utc
from .tables import AccountRow, MatchRow, RatedMatchRow, RatingRow, SeatAccountRow, SeatRow


@dataclass(frozen=True)
class AccountGame:
    """One of an account's games, as its page lists it."""

    match_id: str
    game: str
    seat: int
    status: str
    result: list[float] | None
    result_text: str | None
    created: str
    rated: bool


def player_rows(
    store: Store, account_id: int, games_shown: int
) -> tuple[str, str, list[RatingRow], list[AccountGame]] | None:
    """The account, its ratings and its newest seats (blocking)."""
    with store.session() as session:
        account = session.get(AccountRow, account_id)
        if account is None:
            return None
        ratings = list(
            session.scalars(
                select(RatingRow)
                .where(RatingRow.account_id == account_id)
                .order_by(RatingRow.game, RatingRow.players)
            )
        )
        rows = session.execute(
            select(SeatAccountRow.seat, MatchRow, RatedMatchRow.match_id)
            .join(MatchRow, MatchRow.id == SeatAccountRow.match_id)
            .outerjoin(RatedMatchRow, RatedMatchRow.match_id == MatchRow.id)
            .where(SeatAccountRow.account_id == account_id)
            .order_by(MatchRow.created.desc())
            .limit(games_shown)
        ).all()
        held = [
            AccountGame(
                match.id,
                match.game,
                seat,
                match.status,
                match.result,
                match.result_text,
                as_utc(match.created).isoformat(),
                rated is not None,
            )
            for seat, match, rated in rows
        ]
        return account.name, as_utc(account.created).isoformat(), ratings, held


def running_seats_of_tokens(store: Store, hashes: set[tuple[str, str]]) -> set[tuple[str, int]]:
    """The (match, seat) pairs of running matches these token hashes hold."""
    if not hashes:
        return set()
    matches = {match for match, _ in hashes}
    with store.session() as session:
        rows = session.execute(
            select(SeatRow.match_id, SeatRow.seat, SeatRow.token_hash)
            .join(MatchRow, MatchRow.id == SeatRow.match_id)
            .where(SeatRow.match_id.in_(matches), MatchRow.status == "running")
        ).all()
    return {(m, s) for m, s, h in rows if h is not None and (m, h) in hashes}


def running_seats_of_account(store: Store, account_id: int) -> set[tuple[str, int]]:
    """The (match, seat) pairs of running matches an account holds (the newest 500)."""
    with store.session() as session:
        rows = session.execute(
            select(SeatAccountRow.match_id, SeatAccountRow.seat)
            .join(MatchRow, MatchRow.id == SeatAccountRow.match_id)
            .where(SeatAccountRow.account_id == account_id, MatchRow.status == "running")
            .limit(500)
        ).all()
    return {(match_id, seat) for match_id, seat in rows}
