"""The error hierarchy shared by every game, the CLI and (later) the server.

Every error is a ``ValueError`` so callers that only care about "bad input" can catch one
type; each subclass carries a stable ``code`` that the network protocol sends as-is.
"""

from __future__ import annotations


class GameshelfError(ValueError):
    """Base class of every error gameshelf raises on bad input."""

    code = "error"


class UnknownGame(GameshelfError):
    """A game string names a game that is not registered."""

    code = "game/unknown"


class InvalidGameString(GameshelfError):
    """A game string cannot be parsed (bad syntax, duplicated option)."""

    code = "game/invalid-string"


class InvalidOption(GameshelfError):
    """An option is unknown or its value is not allowed."""

    code = "game/invalid-option"


class InvalidMove(GameshelfError):
    """A move cannot be parsed: it is not notation of this game."""

    code = "move/invalid"


class IllegalMove(GameshelfError):
    """A move is well formed but not legal in this state."""

    code = "move/illegal"


class NotYourTurn(GameshelfError):
    """A player tried to move out of turn."""

    code = "move/not-your-turn"


class GameOver(IllegalMove):
    """A move was offered to a finished game."""

    code = "move/game-over"


class InvalidPosition(GameshelfError):
    """A position string cannot be parsed or describes an impossible position."""

    code = "position/invalid"


class InvalidRecord(GameshelfError):
    """A game record is malformed or does not replay."""

    code = "record/invalid"


class InvalidData(GameshelfError):
    """A data file (e.g. a card file) breaks its schema or constraints."""

    code = "data/invalid"
