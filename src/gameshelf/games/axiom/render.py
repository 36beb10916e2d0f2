"""Pictures of an Axiom state: a layer-by-layer terminal view and an isometric SVG."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import AxiomState


def render_text(state: AxiomState, color: bool = False) -> str:
    """Placeholder."""
    return state.position()


def render_svg(state: AxiomState) -> str:
    """Placeholder."""
    return "<svg/>"
