"""AXIA: Slayer Combo: the configured game and its states.

Simultaneous choices are sequentialised (OpenSpiel style): players commit their placement one
seat at a time and nobody else's view shows a commitment until all are revealed together. Every
draw, deal and roll is an explicit chance node whose outcomes are the cards left in that deck
(uniformly) or the six die faces, so the state holds no hidden deck order at all.

The state module of the package: a state holds named fields and dispatches each move, decoded
once into a tagged move (:mod:`.actions`), to the phase that plays it: :mod:`.setup_phase`,
:mod:`.rounds`, :mod:`.hits`, :mod:`.effects`, :mod:`.items` and :mod:`.chance`; card data and
scores come from :mod:`.cards` and :mod:`.scoring`; notation, positions, views and pictures are
written by :mod:`.notation`, :mod:`.position`, :mod:`.view` and :mod:`.render`, none of which
imports this module at run time.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from gameshelf.core.game import CHANCE, TERMINAL, Game, Move, State, restore_state
from gameshelf.core.spec import GameSpec

from .actions import (
    DECISIONS,
    NUM_ACTIONS,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_SCORE_PICK,
    PHASE_TURN,
    ChangeDie,
    Decision,
    Decline,
    EndTurn,
    Hit,
    HitPair,
    PickScoring,
    Place,
    PlayItem,
    Redraw,
    TakeFaceUp,
    Target,
    Waste,
    ZorakHit,
)
from .cards import CardSet
from .cardsets import resolve_cards
from .chance import apply_chance, chance_pool, draw_outcome
from .effects import BEAST_EFFECTS, EFFECT_NAMES, resolve
from .items import item_effect, play_item
from .notation import action_text, explain_illegal, legal_action_text, parse_action
from .options import OPTIONS, AxiaConfig, make_config
from .position import format_position, load_position
from .render import render_state
from .results import final_returns, ranking_key, result_in_words, score_sheet
from .rounds import (
    advance,
    end_turn,
    place,
    place_actions,
    refill,
    refill_actions,
    take_die,
    turn_actions,
)
from .scoring import Tables, solo_rank
from .setup_phase import pick_actions, pick_scoring, redraw, redraw_actions, start_setup
from .state_fields import STATE_FIELDS, copy_fields
from .view import make_view


class AxiaGame(Game):
    """A configured AXIA game (players, card file, variants) and the tables its rules read."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by its option values (a compiled game has no ``__dict__`` to pickle)."""
        return AxiaGame, (self.params,)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.params = dict(values)
        self.config: AxiaConfig = make_config(values)
        config = self.config
        # The options the rules read, resolved once (the config is frozen).
        self.players: int = config.players
        self.cards: CardSet = resolve_cards(config.cards)
        self.tables = Tables.build(self.cards)
        self.first_game = config.first_game
        self.prioritize_objectives = config.prioritize_objectives
        self.explore_regions = config.explore_regions
        self.must_hit_if_possible = config.must_hit_if_possible
        solo = self.players == 1
        self.num_physical = 2 if solo else self.players + 1
        self.num_dice = 3 if solo else 2 * self.players + 1
        self.face_up_size = 2 if solo else 3
        # Seat offsets from the starting Slayer: there and back again (solo: two turns).
        seats = range(self.players)
        self.turn_order = [0, 0] if solo else [*seats, *reversed(seats)]
        self.territory_index = {c.id: i for i, c in enumerate(self.cards.territory)}
        self.scoring_index = {c.id: i for i, c in enumerate(self.cards.scoring)}
        self.item_index = {c.id: i for i, c in enumerate(self.cards.items)}
        effects = dict(BEAST_EFFECTS)
        if config.rakya_effect == "none":
            del effects["rakya"]
        # (effect code, param) of each card space's beast: -1 = no immediate effect
        self.effect_of_space = tuple(effects.get(b, (-1, 0)) for b in self.tables.beast)
        self.item_effects = tuple(item_effect(card) for card in self.cards.items)
        self.spec = self._spec()

    def _spec(self) -> GameSpec:
        return GameSpec(
            name="axia",
            title="AXIA: Slayer Combo",
            num_players=self.players,
            min_players=1,
            max_players=4,
            chance=True,
            hidden_information=True,
            simultaneous=False,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=max(60, len(self.cards.territory)),
            min_utility=0.0,
            max_utility=1000.0 if self.players == 1 else 1.0,
            utility_sum=None,
            max_game_length=6000,
            rules_version="axia-1",
            options=OPTIONS,
            params=self.params,
        )

    def die_name(self, die: int) -> str:
        """``P1``.. for Physical dice, ``M1``.. for Magic dice."""
        if die < self.num_physical:
            return f"P{die + 1}"
        return f"M{die - self.num_physical + 1}"

    def parse_die(self, text: str) -> int | None:
        """Die index of ``P1``/``M2`` text, or ``None``."""
        match = re.fullmatch(r"([PM])([1-9])", text)
        if match is None:
            return None
        number = int(match.group(2)) - 1
        if match.group(1) == "P":
            return number if number < self.num_physical else None
        die = self.num_physical + number
        return die if die < self.num_dice else None

    def is_magic_die(self, die: int) -> bool:
        """Whether die index ``die`` is a Magic die."""
        return die >= self.num_physical

    def new_initial_state(self, seed: int | None = None) -> AxiaState:
        """The start of the setup (every random step is a chance node, so ``seed`` is unused)."""
        state = AxiaState(self)
        start_setup(state)
        advance(state)
        return state

    def state_from_position(self, text: object) -> AxiaState:
        """Read a position written by :meth:`AxiaState.position`."""
        return AxiaState.from_position(self, text)


class AxiaState(State):
    """A position of AXIA. ``position()`` is the full state; ``view(p)`` hides what it must.

    Seats, cards and dice are indexes: cards into the game's card set (``game.cards``), grid
    spaces ``row * 6 + col`` and card cells as in :mod:`.board`, dice as ``game.die_name``
    names them (Physical first). ``-1`` marks an empty place.
    """

    game: AxiaGame

    def __init__(self, game: AxiaGame, original: AxiaState | None = None) -> None:
        # A copy is built here too, not through ``__new__``: a compiled class has no
        # ``__dict__`` and is made only by its constructor.
        if original is not None:
            self._copy_from(original)
            return
        self.game = game
        seats = range(game.players)
        self.phase = PHASE_SCORE_PICK
        self.round = 0
        self.starting_seat = 0
        self.current_seat = 0
        self.picks_left = 0  # Scoring cards the mover still picks from this batch
        self.seats_done = 0  # seats that have placed (or refilled) this step
        self.scoring_batch = 0
        self.chance_queue: list[tuple[int, int, int]] = []  # (kind, seat, slot), see .chance
        self.grid = [[-1] * 9 for _ in seats]  # Territory card in each card cell
        self.marks = [[0] * 36 for _ in seats]  # per space: 0, WOUNDED or DEFEATED
        self.card_spaces = [[-1] * 36 for _ in seats]  # per space: card * 4 + its quarter
        self.hands: list[list[int]] = [[] for _ in seats]  # Territory cards, sorted
        self.items: list[list[int]] = [[] for _ in seats]  # Item cards held
        self.scoring_slots = [[-1] * 6 for _ in seats]  # Scoring card in R1..R3, C1..C3
        self.scoring_offers: list[list[int]] = [[] for _ in seats]
        self.placements = [-1] * game.players  # committed, unrevealed: card * 9 + cell
        self.territory_deck = list(range(len(game.cards.territory)))
        self.territory_discard: list[int] = []
        self.item_deck = list(range(len(game.cards.items)))
        self.scoring_deck = list(range(len(game.cards.scoring)))
        self.face_up = [-1] * game.face_up_size
        self.dice = [0] * game.num_dice  # faces 1..6, 0 before the roll
        self.dice_taken_by = [-1] * game.num_dice  # the seat that took each die this round
        self.took_face_up = False  # somebody took a face-up card in this refill step
        self.turn = 0  # index into game.turn_order
        self.die_taken = False  # this turn's die is taken
        self.item_played = False
        self.physical_as_magic = False
        self.effect_stack: list[tuple[int, int]] = []  # (effect, param), see .effects
        self.actions_played: list[int] = []
        self._returns: list[float] | None = None

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL``."""
        if self.phase == PHASE_OVER:
            return TERMINAL
        if self.chance_queue:
            return CHANCE
        return self.current_seat

    def is_chance_node(self) -> bool:
        """Whether a random step (a deal, a draw, a roll) comes next."""
        return self.phase != PHASE_OVER and bool(self.chance_queue)

    def is_terminal(self) -> bool:
        """Whether round 8 is over."""
        return self.phase == PHASE_OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Uniform over the cards left in the deck being drawn from, or the six faces."""
        if not self.chance_queue or self.phase == PHASE_OVER:
            return []
        pool = chance_pool(self, self.chance_queue[0][0])
        probability = 1.0 / len(pool)
        return [(a, probability) for a in sorted(pool)]

    def sample_chance(self, rng: random.Random) -> int:
        """Draw the next chance outcome (uniform; see :func:`.chance.draw_outcome`)."""
        return draw_outcome(self, rng)

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        phase = self.phase
        if phase == PHASE_OVER:
            return []
        if self.chance_queue:
            return sorted(chance_pool(self, self.chance_queue[0][0]))
        if phase == PHASE_TURN:
            return turn_actions(self)
        if phase == PHASE_PLACE:
            return place_actions(self)
        if phase == PHASE_REFILL:
            return refill_actions(self)
        if phase == PHASE_SCORE_PICK:
            return pick_actions(self)
        return redraw_actions(self)

    def apply_action(self, action: int) -> None:
        """Apply a legal action id (unchecked)."""
        self.actions_played.append(action)
        if self.chance_queue:
            apply_chance(self, action)
        else:
            self._play(DECISIONS[action])
        advance(self)

    def _play(self, move: Decision) -> None:
        """Dispatch a player's move to the step that plays it (most frequent first)."""
        if isinstance(move, (Hit, Waste)):
            take_die(self, move)
        elif isinstance(move, EndTurn):
            end_turn(self)
        elif isinstance(move, (Target, ZorakHit, HitPair, ChangeDie)):
            resolve(self, move)
        elif isinstance(move, PlayItem):
            play_item(self, move.item)
        elif isinstance(move, Decline):
            self.effect_stack.pop()
        elif isinstance(move, Place):
            place(self, move)
        elif isinstance(move, TakeFaceUp):
            refill(self, move)
        elif isinstance(move, PickScoring):
            pick_scoring(self, move)
        elif isinstance(move, Redraw):
            redraw(self, move.mask)
        else:  # DrawFromDeck
            refill(self, None)

    def random_rollout(self, rng: random.Random, max_plies: int) -> int:
        """Play uniformly random moves in place for at most ``max_plies`` plies; return the plies.

        The protocol's fast rollout (:mod:`gameshelf.core.game`): it draws from ``rng`` exactly
        as the generic loop does, so a seed gives the very same game, only faster.
        """
        plies = 0
        choice = rng.choice
        while plies < max_plies and self.phase != PHASE_OVER:
            if self.chance_queue:
                self.apply_action(draw_outcome(self, rng))
            else:
                self.apply_action(choice(self.legal_actions()))
            plies += 1
        return plies

    # ------------------------------------------------------------------ results
    def score_sheet(self, p: int) -> dict[str, Any]:
        """Player ``p``'s score so far (final at the end) with every part itemised."""
        return score_sheet(self, p)

    def ranking_key(self, p: int) -> tuple[int, int, int]:
        """(score, defeated beasts, defeated Rakya): the rulebook's order of tie-breakers."""
        return ranking_key(self, p)

    def winners(self) -> list[int]:
        """Every Slayer still tied after the tie-breakers: they share the victory."""
        if not self.is_terminal():
            return []
        values = self.returns()
        best = max(values)
        return [p for p, value in enumerate(values) if value == best]

    def returns(self) -> list[float]:
        """Solo: the final score. Otherwise 1 for each winner after tie-breakers, 0 for others."""
        if self.phase != PHASE_OVER:
            return final_returns(self)  # nothing won yet
        if self._returns is None:
            self._returns = final_returns(self)
        return list(self._returns)

    def result_text(self) -> str:
        """The result in words; a solo game reports its score and Slayer rank."""
        return result_in_words(self)

    def solo_rank(self) -> str | None:
        """The Slayer rank of a solo game (``None`` with more players)."""
        return solo_rank(score_sheet(self, 0)["total"]) if self.game.players == 1 else None

    def history(self) -> list[int]:
        """Every action applied since the initial state."""
        return list(self.actions_played)

    def clone(self) -> AxiaState:
        """An independent copy (lists copied one level deep; everything inside is immutable)."""
        return AxiaState(self.game, self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle field by field (a compiled state has no ``__dict__`` for pickle to take)."""
        fields = {name: getattr(self, name) for name in STATE_FIELDS}
        return restore_state, (AxiaState, self.game, fields)

    def _copy_from(self, original: AxiaState) -> None:
        """Take ``original``'s fields (what the protocol's generic ``undo`` calls)."""
        copy_fields(self, original)

    # ------------------------------------------------------------------ text forms
    def position(self) -> str:
        """The full state (hidden parts included) as compact JSON (see :mod:`.position`)."""
        return format_position(self)

    @classmethod
    def from_position(cls, game: AxiaGame, text: object) -> AxiaState:
        """Read :meth:`position` text back; :class:`InvalidPosition` when it is malformed."""
        state = cls(game)
        load_position(state, text)
        return state

    def action_to_string(self, action: object) -> str:
        """Notation of ``action`` here (see docs/games/axia.md)."""
        return action_text(self, action)

    def legal_moves(self) -> list[Move]:
        """The legal moves with their notation (each id is legal: not checked again)."""
        return [Move(action, legal_action_text(self, action)) for action in self.legal_actions()]

    def parse_action(self, text: object) -> int:
        """The action id written as ``text`` in this state."""
        return parse_action(self, text)

    def explain_illegal(self, action: int, text: str) -> str:
        """A precise reason why ``action`` is not legal."""
        return explain_illegal(self, action, text)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know (``None`` = spectator)."""
        return make_view(self, player)

    def render(self, color: bool = False, viewer: int | None = None) -> str:
        """A terminal picture of the table (as ``viewer`` may see it, when given)."""
        return render_state(self, color, viewer)

    def task(self) -> tuple[str, int] | None:
        """The effect waiting for a choice, as (name, param), or ``None``."""
        if self.phase != PHASE_TURN or not self.effect_stack or self.chance_queue:
            return None
        effect, param = self.effect_stack[-1]
        return EFFECT_NAMES[effect], param


def make_game(values: Mapping[str, Any]) -> AxiaGame:
    """Registry factory."""
    return AxiaGame(values)


__all__ = ["AxiaGame", "AxiaState", "make_game"]
