"""Game strings (``cage(players=3,simultaneous=shared)``) and option validation.

A game string is ``name`` optionally followed by ``(key=value,...)``. Each game declares its
options as :class:`OptionSpec` objects; values are parsed and checked here so every entry point
(CLI, server, records, adapters) reports a bad option the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidGameString, InvalidOption

_NAME_RE = re.compile(r"^[a-z_][a-z0-9_]*$")
_GAME_STRING_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)

#: Plain ASCII decimal integers: ``int()`` also takes ``"+5"``, ``"1_000"``, ``" 7"`` and other
#: scripts' digits (``"٣"``, ``"２"``), none of which a game string, position or seat writes.
_DECIMAL_RE = re.compile(r"-?[0-9]+")
MAX_DIGITS = 18
"""Digits a plain integer may have (more is no count any game uses; ``int`` refuses text over
4300 digits with a bare ``ValueError``)."""
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def parse_decimal(text: str, negative: bool = False, max_digits: int = MAX_DIGITS) -> int:
    """``text`` as a plain ASCII decimal integer: digits only, a leading ``-`` only when
    ``negative``, at most ``max_digits`` digits. ``ValueError`` with the reason otherwise."""
    if not isinstance(text, str) or not _DECIMAL_RE.fullmatch(text):
        raise ValueError("not a plain decimal integer (ASCII digits 0-9 only)")
    if text.startswith("-") and not negative:
        raise ValueError("cannot be negative")
    if len(text.lstrip("-")) > max_digits:
        raise ValueError(f"more than {max_digits} digits")
    return int(text)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its type, default, allowed values and a one-line description.

    ``kind`` is ``"int"``, ``"bool"``, ``"choice"`` or ``"str"``. A custom ``parser`` turns the
    text into a value (raising ``ValueError`` with the reason) and ``formatter`` turns it back.
    """

    name: str
    kind: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    parser: Callable[[str], Any] | None = field(default=None, compare=False)
    formatter: Callable[[Any], str] | None = field(default=None, compare=False)
    allowed: str = ""
    names_file: bool = False
    """The value may name a file on this machine: never taken from an untrusted client as is."""
    default_text: str = ""
    """What the default means, for people, where its value alone says nothing (``None``)."""

    def describe_allowed(self) -> str:
        """A short human description of the values this option accepts."""
        if self.allowed:
            return self.allowed
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "int":
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            return f"an integer {low}..{high}".rstrip(".") if (low or high) else "an integer"
        return "text"

    def parse(self, text: str) -> Any:
        """Parse ``text`` into a value, raising :class:`InvalidOption` naming the option."""
        text = text.strip()
        try:
            return self._parse(text)
        except ValueError as exc:
            raise InvalidOption(
                f"option {self.name}={text!r} is not allowed: {exc}; "
                f"allowed: {self.describe_allowed()}"
            ) from None

    def _parse(self, text: str) -> Any:
        if self.parser is not None:
            return self.parser(text)
        if self.kind == "bool":
            low = text.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ValueError("not a boolean")
        if self.kind == "int":
            value = parse_decimal(text, negative=True)
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"below the minimum {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"above the maximum {self.maximum}")
            return value
        if self.kind == "choice":
            if text not in self.choices:
                raise ValueError("not one of the choices")
            return text
        if not text:
            raise ValueError("empty value")
        return text

    def format(self, value: Any) -> str:
        """The text form of ``value`` as it appears in a game string."""
        if self.formatter is not None:
            return self.formatter(value)
        if self.kind == "bool":
            return "true" if value else "false"
        return str(value)


@dataclass(frozen=True)
class ParsedGameString:
    """The raw parts of a game string: the game name and the option texts, in order."""

    name: str
    options: tuple[tuple[str, str], ...]


def _split_top_level(body: str) -> list[str]:
    """Split on commas that are not inside double quotes (paths may contain commas)."""
    parts: list[str] = []
    current: list[str] = []
    quoted = False
    for char in body:
        if char == '"':
            quoted = not quoted
            continue
        if char == "," and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    if quoted:
        raise InvalidGameString(f"unbalanced double quote in options {body!r}")
    parts.append("".join(current))
    return parts


def parse_game_string(text: str) -> ParsedGameString:
    """Split ``name(key=value,...)`` into its parts; syntax errors name the offending piece."""
    if not isinstance(text, str):
        raise InvalidGameString(f"a game string must be text, not {type(text).__name__}")
    match = _GAME_STRING_RE.match(text)
    if match is None:
        raise InvalidGameString(
            f"{text!r} is not a game string: expected name or name(key=value,...), "
            "e.g. cage(players=3)"
        )
    name = match.group(1).lower()
    body = match.group(2)
    options: list[tuple[str, str]] = []
    seen: set[str] = set()
    if body is not None and body.strip():
        for part in _split_top_level(body):
            if "=" not in part:
                raise InvalidGameString(
                    f"option {part.strip()!r} in {text!r} needs the form key=value"
                )
            key, value = part.split("=", 1)
            key = key.strip().lower()
            if not _NAME_RE.match(key):
                raise InvalidGameString(f"option name {key!r} in {text!r} is not a valid name")
            if key in seen:
                raise InvalidGameString(f"option {key!r} is given twice in {text!r}")
            seen.add(key)
            options.append((key, value.strip()))
    return ParsedGameString(name, tuple(options))


def resolve_options(
    game: str, specs: Sequence[OptionSpec], given: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    """Parse the given option texts against ``specs`` and fill in defaults."""
    by_name = {spec.name: spec for spec in specs}
    values = {spec.name: spec.default for spec in specs}
    for key, text in given:
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise InvalidOption(f"{game} has no option {key!r}; its options are: {known}")
        values[key] = spec.parse(text)
    return values


def format_game_string(name: str, specs: Sequence[OptionSpec], values: Mapping[str, Any]) -> str:
    """The canonical game string: non-default options in declaration order."""
    parts = []
    for spec in specs:
        value = values.get(spec.name, spec.default)
        if value != spec.default:
            text = spec.format(value)
            if "," in text or "(" in text or ")" in text:
                text = f'"{text}"'
            parts.append(f"{spec.name}={text}")
    return f"{name}({','.join(parts)})" if parts else name
