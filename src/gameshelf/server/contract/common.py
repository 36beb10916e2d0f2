"""What every part of the contract shares: request ids, views, match ids, legal moves."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

STRICT = ConfigDict(strict=True, extra="forbid")
RequestId = Annotated[str | int, Field(description="the client's request id, echoed back")]
View = dict[str, Any]
MATCH_ID_PATTERN = "^[0-9a-f]{16}$"
"""The shape of every match id the server hands out (``secrets.token_hex(8)``)."""
MatchId = Annotated[
    str, Field(pattern=MATCH_ID_PATTERN, description="a match id: 16 lowercase hex digits")
]


def is_match_id(text: str) -> bool:
    """Whether ``text`` has the shape of a match id: anything else names no match, and is
    refused before it reaches a lock or the database (PostgreSQL refuses a NUL in text)."""
    return re.fullmatch(MATCH_ID_PATTERN, text) is not None


TO_MOVE = (
    "the seat to move, -1 while chance is to act; -4 once the match is finished, whatever "
    "ended it (the board, a flag or a resignation)"
)


# --- structured legal moves -------------------------------------------------------------------
class LegalMove(BaseModel):
    """One legal move: its notation (what a ``MoveFrame`` sends back) and the parts a table
    chooses it by, as the game describes them (each game's shape is in the generated types:
    ``AxiomMove``, ``CageMove``, ``AxiaMove``; a game that describes nothing gives the notation
    alone)."""

    model_config = ConfigDict(extra="allow")
    move: str = Field(description="the move's notation")
