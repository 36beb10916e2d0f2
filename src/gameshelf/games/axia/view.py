"""Per-seat views: exactly the public information plus the viewer's own private cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from gameshelf.core.game import State

from .actions import PHASE_NAMES, PHASE_SCORE_PICK, PHASE_TURN, cell_name, space_name
from .cards import REGIONS
from .effects import (
    EFFECT_CADRA,
    EFFECT_FOGA,
    EFFECT_NAMES,
    EFFECT_SENTINEL,
    ITEM_DEFEAT_REGION,
)
from .scoring import solo_rank

if TYPE_CHECKING:
    from .rules import AxiaState


class AxiaDie(TypedDict):
    """A die of the pool: its name (``P1``, ``M1``), its face (null: not rolled) and who used it."""

    die: str
    magic: bool
    value: int | None
    used_by: int | None


class AxiaPlayer(TypedDict):
    """One Slayer as the viewer sees them; ``hand`` and the rest only in their own view.

    ``grid`` holds the territory card of each cell (``row * 3 + column``), ``marks`` one letter
    per space (``row * 6 + column``: ``.`` healthy, ``w`` wounded, ``X`` defeated), ``scoring``
    the card of each slot (R1-R3, C1-C3; null while another player's setup is hidden).
    """

    grid: list[str | None]
    marks: str
    scoring: list[str | None]
    hand_count: int
    item_count: int
    committed: bool
    score: int | None
    hand: NotRequired[list[str]]
    items: NotRequired[list[str]]
    offer: NotRequired[list[str]]
    pending: NotRequired[str]


class AxiaEffect(TypedDict):
    """The beast effect waiting for a target, with its region or source space if it has one."""

    name: str
    region: NotRequired[str]
    space: NotRequired[str]


class AxiaTurn(TypedDict):
    """The Slayer whose turn it is and what they have done this turn."""

    player: int
    die_taken: bool
    item_played: bool
    physical_as_magic: bool


class AxiaScoringRow(TypedDict):
    """One scoring card of a score sheet: its slot, whether it scores, and its points."""

    slot: str
    card: str
    criterion: str
    active: bool
    count: int
    points: int


class AxiaScoreSheet(TypedDict):
    """A Slayer's score, itemised."""

    scoring_cards: list[AxiaScoringRow]
    beasts: dict[str, int]
    acolyte_sets: list[int]
    acolytes: int
    items: int
    total: int
    defeated: int
    defeated_rakya: int


class AxiaView(TypedDict):
    """The view of one seat (or a spectator): the table and every player, no hidden card of
    anyone else; ``turn`` while a Slayer's turn runs, ``legal_moves`` when the viewer is to
    move, the results once the game is over."""

    game: str
    viewer: int | None
    phase: str
    round: int
    """Rounds played so far (0 during the first)."""
    starting_slayer: int
    to_move: int
    chance_pending: bool
    dice: list[AxiaDie]
    face_up: list[str | None]
    territory_deck: int
    discard: int
    item_deck: int
    effect: AxiaEffect | None
    players: list[AxiaPlayer]
    turn: NotRequired[AxiaTurn]
    legal_moves: NotRequired[list[str]]
    returns: NotRequired[list[float]]
    solo_rank: NotRequired[str | None]
    winners: NotRequired[list[int]]
    score_sheets: NotRequired[list[AxiaScoreSheet]]


def _cards(state: AxiaState, ids: list[int]) -> list[str]:
    return [state.game.cards.territory[c].id for c in ids]


def _player(state: AxiaState, q: int, viewer: int | None) -> AxiaPlayer:
    g = state.game
    own = viewer == q
    setup_hidden = state.phase == PHASE_SCORE_PICK and not own
    data: AxiaPlayer = {
        "grid": [None if c < 0 else g.cards.territory[c].id for c in state.grid[q]],
        "marks": "".join(".wX"[m] for m in state.marks[q]),
        "scoring": [
            None if c < 0 or setup_hidden else g.cards.scoring[c].id for c in state.scoring_slots[q]
        ],
        "hand_count": len(state.hands[q]),
        "item_count": len(state.items[q]),
        "committed": state.placements[q] >= 0,
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
        data["offer"] = [g.cards.scoring[c].id for c in state.scoring_offers[q]]
        if state.placements[q] >= 0:
            card, cell = divmod(state.placements[q], 9)
            data["pending"] = f"{g.cards.territory[card].id}@{cell_name(cell)}"
    return data


def _effect(state: AxiaState) -> AxiaEffect | None:
    """The effect waiting for a target: its name, and its region or source space if any."""
    if state.task() is None:
        return None
    task, param = state.effect_stack[-1]
    data: AxiaEffect = {"name": EFFECT_NAMES[task]}
    if task in (EFFECT_SENTINEL, ITEM_DEFEAT_REGION):
        data["region"] = REGIONS[param]
    if task in (EFFECT_FOGA, EFFECT_CADRA):
        data["space"] = space_name(param)
    return data


def make_view(state: AxiaState, player: int | None) -> dict[str, Any]:
    """The JSON-able view of ``player`` (``None`` = spectator): no hidden card of anyone else
    (:func:`typed_view` gives the same data typed)."""
    return dict(typed_view(state, player))


def typed_view(state: AxiaState, player: int | None) -> AxiaView:
    """The view of ``player`` as an :class:`AxiaView`."""
    g = state.game
    to_move = state.current_player()
    view: AxiaView = {
        "game": g.game_string,
        "viewer": player,
        "phase": PHASE_NAMES[state.phase],
        "round": state.round,
        "starting_slayer": state.starting_seat,
        "to_move": to_move,
        "chance_pending": bool(state.chance_queue) and not state.is_terminal(),
        "dice": [
            {
                "die": g.die_name(d),
                "magic": g.is_magic_die(d),
                "value": state.dice[d] or None,
                "used_by": None if state.dice_taken_by[d] < 0 else state.dice_taken_by[d],
            }
            for d in range(g.num_dice)
        ],
        "face_up": [None if c < 0 else g.cards.territory[c].id for c in state.face_up],
        "territory_deck": len(state.territory_deck),
        "discard": len(state.territory_discard),
        "item_deck": len(state.item_deck),
        "effect": _effect(state),
        "players": [_player(state, q, player) for q in range(g.players)],
    }
    if state.phase == PHASE_TURN and not state.chance_queue:
        view["turn"] = {
            "player": state.current_seat,
            "die_taken": state.die_taken,
            "item_played": state.item_played,
            "physical_as_magic": state.physical_as_magic,
        }
    if player is not None and to_move == player:
        view["legal_moves"] = [str(m) for m in state.legal_moves()]
    if state.is_terminal():
        view["returns"] = state.returns()
        view["solo_rank"] = state.solo_rank()
        view["winners"] = state.winners()
        # the sheet is built by the scoring module as plain JSON of this shape
        view["score_sheets"] = [
            cast("AxiaScoreSheet", state.score_sheet(q)) for q in range(g.players)
        ]
    return view


def score_sheet(any_state: State) -> dict[str, Any]:
    """Score sheet data for every player: per scoring card, beast effects, Acolytes, items."""
    if any_state.game.spec.name != "axia":
        raise TypeError("score_sheet needs an AXIA state")
    state = cast("AxiaState", any_state)
    players = []
    for p in range(state.game.players):
        sheet = state.score_sheet(p)
        sheet["player"] = p
        if state.game.players == 1:
            sheet["rank"] = solo_rank(sheet["total"])
        players.append(sheet)
    return {
        "final": state.is_terminal(),
        "players": players,
        "winners": state.winners() if state.is_terminal() else [],
    }
