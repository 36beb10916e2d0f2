"""Axiom's options: the only place that knows their names, defaults and allowed values.

:data:`OPTIONS` is what the registry parses a game string with; :class:`AxiomOptions` is the
frozen result every other module reads (``docs/games/axiom.md`` explains each rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from gameshelf.core import OptionSpec
from gameshelf.core.options import parse_decimal

from .geometry import ZP


def _parse_setup_option(text: str) -> str:
    """Normalise the setup text; the game checks the position itself when it is built."""
    text = text.strip()
    if not text:
        raise ValueError("empty; give 'standard' or Black's half")
    return "standard" if text.lower() == "standard" else text


def _parse_repetition(text: str) -> int:
    value = parse_decimal(text, max_digits=3)
    if value != 0 and not 2 <= value <= 100:
        raise ValueError("must be 0 (off) or 2..100")
    return value


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "setup",
        "str",
        "standard",
        "start position: 'standard' or Black's half as 'C(x,y,z)domes; ...; S(x,y,z)face' "
        "(White's half is its half-turn)",
        parser=_parse_setup_option,
        allowed='standard or Black\'s half, e.g. "C(0,0,1)x+ y-; C(0,0,2)z-; S(0,0,2)x+"',
    ),
    OptionSpec("diagonal_moves", "bool", True, "sceptres may move diagonally within one plane"),
    OptionSpec("concave_turns", "bool", True, "lateral moves turn up inside corners (else stop)"),
    OptionSpec(
        "diagonal_squeeze",
        "choice",
        "all_planes",
        "where a diagonal step between two cubes at air height is blocked",
        choices=("all_planes", "top_only", "off"),
    ),
    OptionSpec(
        "sceptre_clearance",
        "choice",
        "air",
        "a sceptre fills its air cell only (air) or also the cell beyond (tall)",
        choices=("air", "tall"),
    ),
    OptionSpec("allow_overhang", "bool", False, "cubes may hang from interlocked side joints"),
    OptionSpec(
        "forbid_recess_contact", "bool", False, "a placed cube may not put a recess to a recess"
    ),
    OptionSpec("require_connected", "bool", False, "a cube move may not split the structure"),
    OptionSpec(
        "self_capture",
        "choice",
        "losing_move",
        "ending on your other sceptre's cube loses; only_if_forced: allowed only when forced",
        choices=("losing_move", "only_if_forced"),
    ),
    OptionSpec(
        "no_move_result",
        "choice",
        "loss",
        "a player with no legal move loses, or the game is drawn",
        choices=("loss", "draw"),
    ),
    OptionSpec(
        "repetition_draw",
        "int",
        3,
        "draw when a position (up to x/y translation) occurs this often; 0 = off",
        parser=_parse_repetition,
        allowed="0 (off) or an integer 2..100",
    ),
    OptionSpec("max_plies", "int", 300, "draw after this many plies", minimum=1, maximum=100000),
)

_DEFAULTS: dict[str, Any] = {spec.name: spec.default for spec in OPTIONS}


@dataclass(frozen=True)
class AxiomOptions:
    """The options of one configured game; build it with :meth:`from_values`."""

    setup: str
    diagonal_moves: bool
    concave_turns: bool
    diagonal_squeeze: str
    sceptre_clearance: str
    allow_overhang: bool
    forbid_recess_contact: bool
    require_connected: bool
    self_capture: str
    no_move_result: str
    repetition_draw: int
    max_plies: int
    # derived once (plain attributes: the move generator reads them at every position)
    tall: bool = field(init=False, repr=False, compare=False)
    """Whether sceptres are tall (reach two cells out)."""
    forced_self_capture: bool = field(init=False, repr=False, compare=False)
    """Whether a self-capturing move is legal only when nothing else is."""
    squeeze_normals: int = field(init=False, repr=False, compare=False)
    """Bit ``n``: a diagonal step on a face with normal ``n`` can be squeezed shut."""

    def __post_init__(self) -> None:
        mode = self.diagonal_squeeze
        squeeze = 63 if mode == "all_planes" else (1 << ZP if mode == "top_only" else 0)
        object.__setattr__(self, "tall", self.sceptre_clearance == "tall")
        object.__setattr__(self, "forced_self_capture", self.self_capture == "only_if_forced")
        object.__setattr__(self, "squeeze_normals", squeeze)

    @classmethod
    def from_values(cls, values: Mapping[str, Any] | None = None, **changes: Any) -> AxiomOptions:
        """Resolved option values (missing ones take :data:`OPTIONS`' defaults; unknown keys
        are refused), then ``changes`` on top: ``AxiomOptions.from_values(allow_overhang=True)``.
        """
        merged = {**_DEFAULTS, **(values or {}), **changes}
        unknown = sorted(set(merged) - {f.name for f in fields(cls) if f.init})
        if unknown:
            raise ValueError(f"unknown Axiom option(s): {', '.join(unknown)}")
        return cls(**merged)

    def squeezes(self, normal: int) -> bool:
        """Whether a diagonal step on a face with this normal can be squeezed shut."""
        return bool(self.squeeze_normals >> normal & 1)
