"""An Axiom opening book: second-player moves of the Axiom search, searched far longer once.

In the opening a level's own search (1.5 s for hard) is at its shallowest relative to what the
choice decides, and the same few positions come up game after game: against the classical
engine, one of hard's second moves lost every game it was played in and another won every
one, while hard chose between them by a hair. The book holds, for each position of a small
tree of likely openings, the move the Axiom search finds best at :data:`BOOK_SECONDS` (eight
times hard's budget). The arena agent ``axiom-hard-book`` is hard with the book; the levels do
not use it: against the classical engine it won no more games than hard alone
(docs/decisions/010-axiom-search.md, "An opening book for the second player").

The tree (built by the maintainers' tool ``tools/axiom_book.py``) has one half per seat the
book plays (the shipped book: the second player's, :data:`BOOK_SEATS`): where the book's side
moves, only its best move is followed; where the other side moves, its ``replies`` best moves
are. Positions are keyed by the side to move and the absolute listing (a book move is a move of
that very board); a move is stored as text and played only if it is legal there.

Rebuild with ``python -m tools.axiom_book`` (minutes on two cores); the searches run on the clock,
so a rebuild may differ where two moves score alike.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from gameshelf.core.game import State

BOOK_PATH = Path(__file__).resolve().parents[1] / "data" / "axiom_book.json"
"""The shipped book (JSON: format, settings and ``positions``: key → move text)."""
BOOK_GAME = "axiom"
"""The game string the book was built for: other options change the rules it assumed."""
BOOK_SECONDS = 12.0
"""Search time per book position."""
BOOK_SEATS = (1,)
"""The seats the shipped book plays: the second player only. A book for both seats replaced
hard's own first move, which had won every game it opened, by one that lost some
(docs/decisions/010-axiom-search.md)."""


def book_key(state: State) -> str:
    """The book's key of ``state``: a digest of the side to move and the board's listing."""
    text = f"{state.current_player()}\n{state.listing()}"  # type: ignore[attr-defined]
    return hashlib.sha1(text.encode()).hexdigest()[:20]


@cache
def load_book(path: Path = BOOK_PATH) -> dict[str, str]:
    """The book's positions (key → move text); an empty book if the file is missing, and a
    ``ValueError`` naming the file if it is not a book."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not JSON: {error}") from error
    if (
        not isinstance(data, dict)
        or data.get("format") != "gameshelf-axiom-book"
        or data.get("game") != BOOK_GAME
    ):
        raise ValueError(f"{path} is not an Axiom opening book for {BOOK_GAME!r}")
    positions = data.get("positions")
    if not isinstance(positions, dict):
        raise ValueError(f"{path}: 'positions' must map keys to moves")
    return {str(key): str(move) for key, move in positions.items()}


def book_move(state: State, book: dict[str, str] | None = None) -> int | None:
    """The book's move for ``state`` as an action id, or ``None`` (not in the book, another
    rule set, or a stored move that is not legal here)."""
    if state.game.game_string != BOOK_GAME or state.is_terminal():
        return None
    text = (load_book() if book is None else book).get(book_key(state))
    if text is None:
        return None
    try:
        action = state.parse_action(text)
    except ValueError:
        return None
    return action if action in state.legal_actions() else None
