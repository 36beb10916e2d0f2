"""Where each Axiom rule lives (the rules themselves: ``docs/games/axiom.md``).

* :mod:`.options` — the option names, defaults and the frozen :class:`~.options.AxiomOptions`;
* :mod:`.board` — every rule, once, on packed cells: sceptre walks and stops, which cube may be
  lifted, where and how it may be placed, connectivity, support, elimination, capture, and the
  repetition key;
* :mod:`.actions` — the action-id layout and the legal-move generator built on those rules;
* :mod:`.explain` — refusals in words (it asks the same rules, it never lists moves);
* :mod:`.notation`, :mod:`.position`, :mod:`.view`, :mod:`.render` — text and pictures;
* :mod:`.state` — :class:`AxiomGame` and :class:`AxiomState`: turns, the one apply, the end.

This module keeps the old import path of the game and state classes.
"""

from __future__ import annotations

from .actions import NUM_ACTIONS, SCEPTRE_ACTIONS
from .state import AxiomActionInfo, AxiomGame, AxiomState

__all__ = ["NUM_ACTIONS", "SCEPTRE_ACTIONS", "AxiomActionInfo", "AxiomGame", "AxiomState"]
