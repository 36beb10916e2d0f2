"""Player names: the one normalisation guests' seat names and account names go through, and
the look-alike key that tells whether two names would be read as one (a UTS 39 skeleton)."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from gameshelf.agents import AGENTS

from .errors import ServerError

BOT_LIKE = re.compile(r"bot\b|bot[:_\-]", re.IGNORECASE)

REFUSED_CATEGORIES = ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp")
"""Unicode categories refused in names and chat: control, format (bidi), surrogate,
private-use and unassigned characters, line and paragraph separators."""


def normalise_name(name: str | None) -> str | None:
    """A player's display name, normalised (NFKC, single spaces) and checked.

    Control, format (bidi), private-use and invisible characters are refused (an invisible one
    would let "Ann" + a Hangul filler pass for the registered "Ann", or "greedy" + one for a
    bot), and so are names that would pass for a bot ("bot …", or a bot's name) or show no
    letter at all: bots are marked by the server, never by a name.
    """
    if name is None:
        return None
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        return None
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise ServerError(
                "request/invalid",
                f"name: character U+{ord(char):04X} is not allowed in a player name",
            )
        if invisible(char):
            raise ServerError(
                "request/invalid",
                f"name: character U+{ord(char):04X} is invisible and not allowed in a player name",
            )
    if not shows_something(text):
        raise ServerError("request/invalid", "name: it must show at least one letter or sign")
    if len(text) > 32:
        raise ServerError("request/invalid", "name: at most 32 characters")
    looks = skeleton(text)
    if BOT_LIKE.match(looks) or looks in BOT_SKELETONS:
        raise ServerError(
            "request/invalid", f"name: {text!r} could be mistaken for a bot; choose another"
        )
    return text


def skeleton(text: str) -> str:
    """The key under which names that look alike are one name: case folded, then each
    character replaced by the one it is confusable with (Unicode's confusables data, UTS 39:
    Cyrillic "р" and "о" read as Latin "p" and "o", "0" as "o", "1" and "|" as "l", "rn" as
    "m"), folded again.

    Case is folded first, so "Ada" and "ADA" share a key as they always did; the price is that
    a capital "I" is compared as "i", not as the "l" it resembles.
    """
    folded = unicodedata.normalize("NFD", text.casefold())
    mapped = "".join(_prototype(char) for char in folded)
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFD", mapped).casefold())


@cache
def _prototype(char: str) -> str:
    """What ``char`` is read as: in the confusables data a character that is a source maps to
    exactly one prototype (a prototype lists all its look-alikes instead)."""
    found = confusables.confusables_data.get(char)
    if found is not None and len(found) == 1:
        prototype: str = found[0]["c"]
        return prototype.strip("\u200e\u200f")  # the data wraps right-to-left ones in marks
    return char


BOT_SKELETONS = frozenset(skeleton(name) for name in AGENTS)
"""Every bot's name as it reads: a player may not take a name that looks like one."""


def invisible(char: str) -> bool:
    """Whether ``char`` draws nothing although it is a letter or a mark: the Unicode
    default-ignorable code points outside the format (Cf) category — the Hangul fillers, the
    combining grapheme joiner, variation selectors, Khmer inherent vowels, Mongolian free
    variation selectors — and the blank Braille pattern."""
    code = ord(char)
    return (
        code in (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180F, 0x2800, 0x3164, 0xFFA0)
        or 0x180B <= code <= 0x180D
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
    )


def shows_something(text: str) -> bool:
    """Whether ``text`` holds a character that is drawn on its own: not a space, not an
    invisible character, not a combining mark (which only decorates another) and not a
    control or format character (a joiner that chat keeps draws nothing)."""
    return any(
        not char.isspace()
        and not invisible(char)
        and not unicodedata.category(char).startswith(("M", "C"))
        for char in text
    )
