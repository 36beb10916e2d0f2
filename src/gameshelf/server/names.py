"""Player names: the one normalisation guests' seat names and account names go through."""

from __future__ import annotations

import re
import unicodedata

from gameshelf.agents import AGENTS

from .errors import ServerError

BOT_LIKE = re.compile(r"bot\b|bot[:_\-]", re.IGNORECASE)


def normalise_name(name: str | None) -> str | None:
    """A player's display name, normalised (NFKC, single spaces) and checked.

    Control, format (bidi) and private-use characters are refused, and so are names that would
    pass for a bot ("bot …", or a bot's name): bots are marked by the server, never by a name.
    """
    if name is None:
        return None
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        return None
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"):
            raise ServerError(
                "request/invalid",
                f"name: character U+{ord(char):04X} is not allowed in a player name",
            )
    if len(text) > 32:
        raise ServerError("request/invalid", "name: at most 32 characters")
    if BOT_LIKE.match(text) or text.lower() in AGENTS:
        raise ServerError(
            "request/invalid", f"name: {text!r} could be mistaken for a bot; choose another"
        )
    return text
