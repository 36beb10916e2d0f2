"""Per-seat views: exactly the public information plus the viewer's own private cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from gameshelf.core.game import State

from . import actions as A
from .actions import (
    PHASE_NAMES,
    PHASE_SCORE_PICK,
    PHASE_TURN,
    T_CADRA,
    T_FOGA,
    T_I_REGION,
    T_SENTINEL,
    TASK_NAMES,
)
from .cards import REGIONS
from .scoring import solo_rank

if TYPE_CHECKING:
    from .rules import AxiaState


def _cards(state: AxiaState, ids: list[int]) -> list[str]:
    return [state.game.cards.territory[c].id for c in ids]


def _player(state: AxiaState, q: int, viewer: int | None) -> dict[str, Any]:
    g = state.game
    own = viewer == q
    setup_hidden = state.phase == PHASE_SCORE_PICK and not own
    data: dict[str, Any] = {
        "grid": [None if c < 0 else g.cards.territory[c].id for c in state.grid[q]],
        "marks": "".join(".wX"[m] for m in state.marks[q]),
        "scoring": [
            None if c < 0 or setup_hidden else g.cards.scoring[c].id for c in state.slots[q]
        ],
        "hand_count": len(state.hands[q]),
        "item_count": len(state.items[q]),
        "committed": state.pending[q] >= 0,
        "score": None,
    }
    if not setup_hidden:
        sheet = state.score_sheet(q)
        # kept items are private until the end: others see the score without their VP; at the
        # end every Slayer's score sheet (kept-item VP included) is public
        public = own or state.is_terminal()
        data["score"] = sheet["total"] if public else sheet["total"] - sheet["items"]
    if own:
        data["hand"] = _cards(state, state.hands[q])
        data["items"] = [g.cards.items[i].id for i in state.items[q]]
        data["offer"] = [g.cards.scoring[c].id for c in state.offers[q]]
        if state.pending[q] >= 0:
            card, cell = divmod(state.pending[q], 9)
            data["pending"] = f"{g.cards.territory[card].id}@{A.cell_name(cell)}"
    return data


def _effect(state: AxiaState) -> dict[str, Any] | None:
    """The effect waiting for a target: its name, and its region or source space if any."""
    if state.task() is None:
        return None
    task, param = state.stack[-1]
    data: dict[str, Any] = {"name": TASK_NAMES[task]}
    if task in (T_SENTINEL, T_I_REGION):
        data["region"] = REGIONS[param]
    if task in (T_FOGA, T_CADRA):
        data["space"] = A.space_name(param)
    return data


def make_view(state: AxiaState, player: int | None) -> dict[str, Any]:
    """The JSON-able view of ``player`` (``None`` = spectator): no hidden card of anyone else."""
    g = state.game
    to_move = state.current_player()
    view: dict[str, Any] = {
        "game": g.game_string,
        "viewer": player,
        "phase": PHASE_NAMES[state.phase],
        "round": state.round,
        "starting_slayer": state.start,
        "to_move": to_move,
        "chance_pending": bool(state.chance) and not state.is_terminal(),
        "dice": [
            {
                "die": g.die_name(d),
                "magic": g.is_magic_die(d),
                "value": state.dice[d] or None,
                "used_by": None if state.used[d] < 0 else state.used[d],
            }
            for d in range(g.num_dice)
        ],
        "face_up": [None if c < 0 else g.cards.territory[c].id for c in state.faceup],
        "territory_deck": len(state.tdeck),
        "discard": len(state.tdisc),
        "item_deck": len(state.ideck),
        "effect": _effect(state),
        "players": [_player(state, q, player) for q in range(g.n)],
    }
    if state.phase == PHASE_TURN and not state.chance:
        view["turn"] = {
            "player": state.cur,
            "die_taken": state.hit_done,
            "item_played": state.item_done,
            "physical_as_magic": state.boost,
        }
    if player is not None and to_move == player:
        view["legal_moves"] = [str(m) for m in state.legal_moves()]
    if state.is_terminal():
        view["returns"] = state.returns()
        view["solo_rank"] = state.solo_rank()
        view["winners"] = state.winners()
        view["score_sheets"] = [state.score_sheet(q) for q in range(g.n)]
    return view


def score_sheet(any_state: State) -> dict[str, Any]:
    """Score sheet data for every player: per scoring card, beast effects, Acolytes, items."""
    if any_state.game.spec.name != "axia":
        raise TypeError("score_sheet needs an AXIA state")
    state = cast("AxiaState", any_state)
    players = []
    for p in range(state.game.n):
        sheet = state.score_sheet(p)
        sheet["player"] = p
        if state.game.n == 1:
            sheet["rank"] = solo_rank(sheet["total"])
        players.append(sheet)
    return {
        "final": state.is_terminal(),
        "players": players,
        "winners": state.winners() if state.is_terminal() else [],
    }
