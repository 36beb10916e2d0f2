"""Card sets known by name, so a game string can say ``cards=NAME`` without naming a file.

The shipped reconstruction is ``standard``. A program that must not open files on behalf of
others (the server) registers the sets it allows with :func:`register_card_set` and accepts
only their names; the CLI still takes a path for a player's own file.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from gameshelf.core.errors import InvalidData

from .cards import DEFAULT_PATH, CardSet, load_cards, parse_cards

STANDARD = "standard"
_REGISTERED: dict[str, CardSet] = {}


def register_card_set(name: str, data: Any) -> CardSet:
    """Validate card data (parsed JSON) and make it loadable as ``cards=name``."""
    if not name or any(c in name for c in ',()"=/\\') or name == STANDARD:
        raise InvalidData(f'{name!r} cannot name a card set (reserved or has , ( ) " = or /)')
    cards = parse_cards(data, name)
    _REGISTERED[name] = cards
    return cards


def registered_card_set(name: str) -> CardSet | None:
    """The set registered (or shipped) under ``name``, or ``None``."""
    if name == STANDARD:
        return load_cards(None)
    return _REGISTERED.get(name)


def resolve_cards(value: str | None) -> CardSet:
    """The cards a ``cards=`` option means: default, a registered name, else a file path."""
    if value is None:
        return load_cards(None)
    known = registered_card_set(value)
    return known if known is not None else load_cards(value)


def standard_card_data() -> Any:
    """The shipped card data as parsed JSON."""
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def card_data_digest(data: Any) -> str:
    """A SHA-256 of card data in a canonical JSON form (the same data, the same digest)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()
