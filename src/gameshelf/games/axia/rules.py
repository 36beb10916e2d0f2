"""AXIA: Slayer Combo rules: setup, rounds, hits, effects and items, as a turn-based state.

Simultaneous choices are sequentialised (OpenSpiel style): players commit their placement one
seat at a time and nobody else's view shows a commitment until all are revealed together. Every
draw, deal and roll is an explicit chance node whose outcomes are the cards left in that deck
(uniformly) or the six die faces, so the state holds no hidden deck order at all.

The state module of the package: options arrive resolved from :mod:`.options`, ids and phase
constants from :mod:`.actions`, the grid from :mod:`.board`, card data and score tables from
:mod:`.cards` and :mod:`.scoring`; notation, positions, views and pictures are written by
:mod:`.notation`, :mod:`.position`, :mod:`.view` and :mod:`.render`, none of which imports this
module at run time.
"""

from __future__ import annotations

import random
import re
from bisect import bisect
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from gameshelf.core.game import CHANCE, TERMINAL, Game, Move, State, restore_state
from gameshelf.core.spec import GameSpec

from . import actions as A
from .actions import (
    BEAST_TASKS,
    C_FACEUP,
    C_HAND,
    C_ITEM,
    C_ROLL,
    C_SCORE,
    C_SLOT,
    DEFEAT_TASKS,
    PHASE_MULLIGAN,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_SCORE_PICK,
    PHASE_TURN,
    ROUNDS,
    T_CADRA,
    T_FOGA,
    T_I_CHANGE,
    T_I_DIAG,
    T_I_NONMAG,
    T_I_REGION,
    T_RAKYA,
    T_RUT,
    T_SENTINEL,
    T_TEMPLE,
    T_TORCHA,
    T_ZORAK,
    TASK_NAMES,
)
from .board import CELL_SPACES, DIAGONAL_PAIRS, ORTHOGONAL
from .cards import REGIONS, TEMPLE, CardSet
from .cardsets import resolve_cards
from .notation import action_text, explain_illegal, legal_action_text, parse_action
from .options import OPTIONS, AxiaConfig, make_config
from .position import format_position, load_position
from .render import render_state
from .scoring import DEFEATED, WOUNDED, Tables, score_breakdown, score_totals, solo_rank
from .view import make_view

_EFFECT_OF_BEAST: dict[str, tuple[int, int]] = {
    **{f"sentinel_{r}": (T_SENTINEL, i) for i, r in enumerate(REGIONS[:4])},
    "zorak": (T_ZORAK, 0),
    "rut": (T_RUT, 0),
    "foga": (T_FOGA, -1),
    "cadra": (T_CADRA, -1),
    "temple_sentinel": (T_TEMPLE, 0),
    "torcha": (T_TORCHA, 0),
    "rakya": (T_RAKYA, 0),
}


_UNIFORM_CUMULATIVE: dict[int, list[float]] = {}


def _uniform_cumulative(n: int) -> list[float]:
    """The running sums ``Random.choices`` forms from ``n`` weights of ``1.0 / n`` (memoised)."""
    cumulative = _UNIFORM_CUMULATIVE.get(n)
    if cumulative is None:
        cumulative = _UNIFORM_CUMULATIVE[n] = list(accumulate([1.0 / n] * n))
    return cumulative


class AxiaGame(Game):
    """A configured AXIA game (players, card file, variants)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle by its option values (a compiled game has no ``__dict__`` to pickle)."""
        return AxiaGame, (self.params,)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.params = dict(values)
        self.config: AxiaConfig = make_config(values)
        config = self.config
        # The options the rules read, resolved once (the config is frozen).
        self.n: int = config.players
        self.cards: CardSet = resolve_cards(config.cards)
        self.tables = Tables.build(self.cards)
        self.first_game = config.first_game
        self.prioritize = config.prioritize_objectives
        self.explore = config.explore_regions
        self.must_hit = config.must_hit_if_possible
        self.rakya_effect = config.rakya_effect
        self.num_physical = 2 if self.n == 1 else self.n + 1
        self.num_dice = 3 if self.n == 1 else 2 * self.n + 1
        self.faceup_size = 2 if self.n == 1 else 3
        self.order = [0, 0] if self.n == 1 else [*range(self.n), *reversed(range(self.n))]
        self.territory_index = {c.id: i for i, c in enumerate(self.cards.territory)}
        self.scoring_index = {c.id: i for i, c in enumerate(self.cards.scoring)}
        self.item_index = {c.id: i for i, c in enumerate(self.cards.items)}
        effects = dict(_EFFECT_OF_BEAST)
        if self.rakya_effect == "none":
            del effects["rakya"]
        self.effect_of = tuple(effects.get(b, (-1, 0)) for b in self.tables.beast)
        self.spec = GameSpec(
            name="axia",
            title="AXIA: Slayer Combo",
            num_players=self.n,
            min_players=1,
            max_players=4,
            chance=True,
            hidden_information=True,
            simultaneous=False,
            num_distinct_actions=A.NUM_ACTIONS,
            max_chance_outcomes=max(60, len(self.cards.territory)),
            min_utility=0.0,
            max_utility=1000.0 if self.n == 1 else 1.0,
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
        state.start_setup()
        return state

    def state_from_position(self, text: object) -> AxiaState:
        """Read a position written by :meth:`AxiaState.position`."""
        return AxiaState.from_position(self, text)


_STATE_FIELDS = (
    "phase", "round", "start", "cur", "count", "batch", "chance", "grid", "marks", "spc",
    "hands", "items", "slots", "offers", "pending", "tdeck", "tdisc", "ideck", "sdeck",
    "faceup", "dice", "used", "took", "turn", "hit_done", "item_done", "boost", "stack",
    "hist", "_returns",
)  # fmt: skip
"""Every field of a state but its game (what pickling carries)."""


class AxiaState(State):
    """A position of AXIA. ``position()`` is the full state; ``view(p)`` hides what it must."""

    game: AxiaGame

    def __init__(self, game: AxiaGame, original: AxiaState | None = None) -> None:
        # A copy is built here too, not through ``__new__``: a compiled class has no
        # ``__dict__`` and is made only by its constructor.
        if original is not None:
            self._copy_from(original)
            return
        self.game = game
        n = game.n
        self.phase = PHASE_SCORE_PICK
        self.round = 0
        self.start = 0
        self.cur = 0
        self.count = 0  # progress within the phase (players done, picks left, ...)
        self.batch = 0
        self.chance: list[tuple[int, int, int]] = []
        self.grid = [[-1] * 9 for _ in range(n)]
        self.marks = [[0] * 36 for _ in range(n)]
        self.spc = [[-1] * 36 for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.items: list[list[int]] = [[] for _ in range(n)]
        self.slots = [[-1] * 6 for _ in range(n)]
        self.offers: list[list[int]] = [[] for _ in range(n)]
        self.pending = [-1] * n
        self.tdeck = list(range(len(game.cards.territory)))
        self.tdisc: list[int] = []
        self.ideck = list(range(len(game.cards.items)))
        self.sdeck = list(range(len(game.cards.scoring)))
        self.faceup = [-1] * game.faceup_size
        self.dice = [0] * game.num_dice
        self.used = [-1] * game.num_dice
        self.took = False
        self.turn = 0
        self.hit_done = False
        self.item_done = False
        self.boost = False
        self.stack: list[tuple[int, int]] = []
        self.hist: list[int] = []
        self._returns: list[float] | None = None

    # ------------------------------------------------------------------ setup & flow
    def start_setup(self) -> None:
        """Queue the scoring-card setup (or the first-game random deal)."""
        g = self.game
        if g.first_game:
            for p in range(g.n):
                for slot in range(6):
                    self.chance.append((C_SLOT, p, slot))
            self._deal_territory()
        else:
            self._score_batch()
        self._advance()

    def _score_params(self) -> tuple[int, int, int]:
        """(cards dealt per batch, picks per batch, batches) for the scoring setup."""
        if self.game.prioritize:
            return 7, 1, 6
        if self.game.n == 1:
            return 3, 2, 3
        return 4, 3, 2

    def _score_batch(self) -> None:
        deal, picks, _ = self._score_params()
        if not self.game.prioritize or self.batch == 0:
            for p in range(self.game.n):
                self.chance.extend((C_SCORE, p, 0) for _ in range(deal))
        self.phase = PHASE_SCORE_PICK
        self.cur = 0
        self.count = picks

    def _end_score_pick(self) -> None:
        g = self.game
        _, picks, batches = self._score_params()
        self.cur += 1
        self.count = picks
        if self.cur < g.n:
            return
        self.batch += 1
        if g.prioritize:
            self.offers = [self.offers[(p - 1) % g.n] for p in range(g.n)]
        else:
            self.offers = [[] for _ in range(g.n)]
        if self.batch < batches:
            self._score_batch()
            return
        self.offers = [[] for _ in range(g.n)]
        self._deal_territory()

    def _deal_territory(self) -> None:
        for p in range(self.game.n):
            self.chance.extend((C_HAND, p, 0) for _ in range(4))
        self.cur = 0
        self.count = 0
        if self.game.explore:
            self.phase = PHASE_MULLIGAN
        else:
            self._start_place()

    def _start_place(self) -> None:
        self.phase = PHASE_PLACE
        self.cur = self.start
        self.count = 0

    def _start_round(self) -> None:
        self.round += 1
        self.dice = [0] * self.game.num_dice
        self.used = [-1] * self.game.num_dice
        self.chance.extend((C_ROLL, 0, d) for d in range(self.game.num_dice))
        self._start_place()

    def _reveal(self) -> None:
        """All placements are committed: put them on the grids together."""
        for p in range(self.game.n):
            card, cell = divmod(self.pending[p], 9)
            self.grid[p][cell] = card
            for local, space in enumerate(CELL_SPACES[cell]):
                self.spc[p][space] = card * 4 + local
            self.pending[p] = -1
        if self.round == 0:
            self.chance.extend((C_FACEUP, 0, i) for i in range(self.game.faceup_size))
            self._start_round()
        else:  # every round has its refill step, the 8th included ("the same four steps")
            self.phase = PHASE_REFILL
            self.cur = self.start
            self.count = 0
            self.took = False

    def _end_refill_turn(self) -> None:
        g = self.game
        self.count += 1
        self.cur = (self.cur + 1) % g.n
        if self.count < g.n:
            return
        if g.n > 1 and not self.took:
            self._refresh_faceup()
        self._start_hits()

    def _refresh_faceup(self) -> None:
        for i, card in enumerate(self.faceup):
            if card >= 0:
                self.tdisc.append(card)
            self.faceup[i] = -1
            self.chance.append((C_FACEUP, 0, i))

    def _start_hits(self) -> None:
        self.phase = PHASE_TURN
        self.turn = 0
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.cur = (self.start + self.game.order[self.turn]) % self.game.n
        self.hit_done = False
        self.item_done = False
        self.boost = False

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn < len(self.game.order):
            self._begin_turn()
            return
        self.used = [-1] * self.game.num_dice
        self.start = (self.start + 1) % self.game.n
        if self.round == ROUNDS:
            self.phase = PHASE_OVER
            self.cur = TERMINAL
        else:
            self._start_round()

    def _advance(self) -> None:
        """Resolve automatic steps until a chance node or a decision is reached."""
        while True:
            if self.chance:
                kind = self.chance[0][0]
                if kind in (C_HAND, C_FACEUP) and not self.tdeck and self.tdisc:
                    self.tdeck = sorted(self.tdisc)
                    self.tdisc = []
                if self._chance_pool(kind):
                    return
                self.chance.pop(0)  # the deck is exhausted: the draw fizzles
                continue
            if self.phase == PHASE_REFILL and not self.legal_actions():
                self._end_refill_turn()  # nothing left to draw anywhere
                continue
            if self.phase != PHASE_TURN:
                return
            if self.stack:
                task, _ = self.stack[-1]
                if task == T_RUT:
                    self.stack.pop()
                    self.chance.append((C_ITEM, self.cur, 0))
                    continue
                if not self._task_actions(self.stack[-1]):
                    self.stack.pop()
                    continue
                return
            if not self.hit_done:
                return
            if not self.item_done and self._item_actions():
                return
            self._end_turn()
            if self.phase == PHASE_OVER:
                return

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL``."""
        if self.phase == PHASE_OVER:
            return TERMINAL
        if self.chance:
            return CHANCE
        return self.cur

    def is_chance_node(self) -> bool:
        """Whether a random step (a deal, a draw, a roll) comes next."""
        return self.phase != PHASE_OVER and bool(self.chance)

    def is_terminal(self) -> bool:
        """Whether round 8 is over."""
        return self.phase == PHASE_OVER

    def _chance_pool(self, kind: int) -> list[int]:
        if kind == C_ROLL:
            return list(range(6))
        if kind in (C_SCORE, C_SLOT):
            return self.sdeck
        if kind == C_ITEM:
            return self.ideck
        return self.tdeck

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Uniform over the cards left in the deck being drawn from, or the six faces."""
        if not self.chance or self.phase == PHASE_OVER:
            return []
        pool = self._chance_pool(self.chance[0][0])
        probability = 1.0 / len(pool)
        return [(a, probability) for a in sorted(pool)]

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        if self.phase == PHASE_OVER:
            return []
        if self.chance:
            return sorted(self._chance_pool(self.chance[0][0]))
        if self.phase == PHASE_SCORE_PICK:
            empty = [s for s in range(6) if self.slots[self.cur][s] < 0]
            return sorted([A.SCORE_PLACE + c * 6 + s for c in self.offers[self.cur] for s in empty])
        if self.phase == PHASE_MULLIGAN:
            return [A.MULLIGAN + m for m in range(1 << len(self.hands[self.cur]))]
        if self.phase == PHASE_PLACE:
            empty = [c for c in range(9) if self.grid[self.cur][c] < 0]
            return sorted([A.PLACE + h * 9 + c for h in self.hands[self.cur] for c in empty])
        if self.phase == PHASE_REFILL:
            out = [A.REFILL + i for i, c in enumerate(self.faceup) if c >= 0]
            if self.tdeck or self.tdisc:
                out.append(A.DECK)
            return out
        if self.stack:
            return self._waiting_actions(self.stack[-1])
        # Already ascending: die hits (die, then space), then wasted dice, then items, then END.
        if not self.hit_done:
            return self._hit_actions() + self._item_actions()
        return [*self._item_actions(), A.END]

    # ------------------------------------------------------------------ hits and targets
    def _alive(self, p: int) -> list[int]:
        marks, spc = self.marks[p], self.spc[p]
        return [s for s in range(36) if spc[s] >= 0 and marks[s] != DEFEATED]

    def _magic(self, p: int, s: int) -> bool:
        return self.game.tables.magic[self.spc[p][s]]

    def _die_targets(self, die: int, boost: bool) -> list[int]:
        magic = self.game.is_magic_die(die) or boost
        p = self.cur
        return [s for s in self._alive(p) if magic or not self._magic(p, s)]

    def _hit_actions(self) -> list[int]:
        """Die hits in ascending id order (die, then space), then the dice taken to waste.

        The live spaces are found once: a Magic die (or any die under the physical-as-magic
        boost) hits every one of them, a Physical die only the non-magical ones.
        """
        g = self.game
        used = self.used
        p = self.cur
        marks, spc = self.marks[p], self.spc[p]
        alive = [s for s in range(36) if spc[s] >= 0 and marks[s] != DEFEATED]
        plain: list[int] | None = None
        every = self.boost
        physical = g.num_physical
        out: list[int] = []
        useless = []
        for d in range(g.num_dice):
            if used[d] >= 0:
                continue
            if every or d >= physical:
                targets = alive
            else:
                if plain is None:
                    magic = g.tables.magic
                    plain = [s for s in alive if not magic[spc[s]]]
                targets = plain
            if targets:
                base = A.DIE_HIT + d * 36
                out += [base + s for s in targets]
            else:
                useless.append(d)
        if not out or not g.must_hit:
            out += [A.WASTE + d for d in useless]
        return out

    def _task_targets(self, task: int, param: int) -> list[int]:
        p = self.cur
        alive = self._alive(p)
        tables, spc = self.game.tables, self.spc[p]
        if task in (T_SENTINEL, T_I_REGION):
            return [s for s in alive if tables.region[spc[s]] == param]
        if task == T_TEMPLE:
            return [s for s in alive if tables.region[spc[s]] == TEMPLE]
        if task == T_TORCHA:
            return [s for s in alive if tables.magic[spc[s]]]
        if task == T_CADRA:
            row, col = divmod(param, 6)
            return [
                s
                for s in alive
                if tables.magic[spc[s]] and (s // 6 == row or s % 6 == col) and s != param
            ]
        if task in (T_I_NONMAG, T_RAKYA):
            return [s for s in alive if not tables.magic[spc[s]]]
        if task == T_FOGA:
            live = set(alive)
            return sorted(s for s in ORTHOGONAL[param] if s in live)
        return []

    def _waiting_actions(self, entry: tuple[int, int]) -> list[int]:
        """Legal moves while ``entry`` waits: its targets; for a beast's effect also the items
        playable now and ``decline`` (effects are optional; items may be played "during")."""
        out = self._task_actions(entry)
        if entry[0] in BEAST_TASKS:
            out = [*out, *self._item_actions(), A.DECLINE]
        return out

    def _task_actions(self, entry: tuple[int, int]) -> list[int]:
        """The targets of the effect ``entry`` in ascending id order (empty: it fizzles)."""
        task, param = entry
        if task == T_ZORAK:
            out: list[int] = []
            for d in range(self.game.num_dice):
                if self.used[d] < 0:
                    out.extend(A.ZORAK + d * 36 + s for s in self._die_targets(d, False))
            return out
        if task == T_I_CHANGE:
            return [
                A.CHANGE + d * 6 + v
                for d in range(self.game.num_dice)
                if self.used[d] < 0
                for v in range(6)
                if v + 1 != self.dice[d]
            ]
        if task == T_I_DIAG:
            return [A.PAIR + a * 36 + b for a, b in self._diagonal_pairs()]
        targets = sorted(self._task_targets(task, param))
        singles = [A.TARGET + s for s in targets]
        if task != T_FOGA:
            return singles
        # Foga: two different beasts, or one ("stop after the first hit"); singles sort first
        return singles + [
            A.PAIR + a * 36 + b for i, a in enumerate(targets) for b in targets[i + 1 :]
        ]

    def _diagonal_pairs(self) -> list[tuple[int, int]]:
        """Diagonal pairs of live non-magical beasts: the item does not say it hits magical
        beasts, and those "can only be wounded by magic hits"."""
        p = self.cur
        live = {s for s in self._alive(p) if not self._magic(p, s)}
        return [(a, b) for a, b in DIAGONAL_PAIRS if a in live and b in live]

    def _item_playable(self, item: int) -> bool:
        card = self.game.cards.items[item]
        effect = card.effect
        if effect == "physical_as_magic":
            physical = range(self.game.num_physical)
            return not self.hit_done and not self.boost and any(self.used[d] < 0 for d in physical)
        if effect == "change_die":
            return any(u < 0 for u in self.used)
        if effect == "hit_diagonal":
            return bool(self._diagonal_pairs())
        if effect == "defeat_nonmagical":
            return bool(self._task_targets(T_I_NONMAG, 0))
        return bool(self._task_targets(T_I_REGION, REGIONS.index(card.region or "")))

    def _item_actions(self) -> list[int]:
        if self.item_done:
            return []
        items = self.items[self.cur]
        if not items:
            return []
        return [A.ITEM + i for i in sorted(set(items)) if self._item_playable(i)]

    def _hit(self, s: int, critical: bool) -> None:
        """One hit on space ``s`` of the player to move (a wound, or a defeat)."""
        marks = self.marks[self.cur]
        if marks[s] == WOUNDED or critical:
            self._defeat(s)
        else:
            marks[s] = WOUNDED

    def _defeat(self, s: int) -> None:
        self.marks[self.cur][s] = DEFEATED
        task, param = self.game.effect_of[self.spc[self.cur][s]]
        if task >= 0:
            self.stack.append((task, s if param < 0 else param))

    def _die_hit(self, value: int, s: int) -> None:
        crit = self.game.tables.critical[self.spc[self.cur][s]]
        self._hit(s, crit == 0 or crit == value)

    def _hits_in_order(self, spaces: list[int], defeat: bool) -> None:
        """Hit (or defeat) several spaces; their effects then resolve in the order given."""
        before = len(self.stack)
        for s in spaces:
            if defeat:
                self._defeat(s)
            else:
                self._hit(s, False)
        self.stack[before:] = reversed(self.stack[before:])

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action: int) -> None:
        """Apply a legal action id (unchecked)."""
        self.hist.append(action)
        if self.chance:
            self._apply_chance(action)
        elif self.phase == PHASE_TURN:
            self._apply_turn(action)
        elif self.phase == PHASE_SCORE_PICK:
            card, slot = divmod(action - A.SCORE_PLACE, 6)
            self.slots[self.cur][slot] = card
            self.offers[self.cur].remove(card)
            self.count -= 1
            if self.count == 0:
                self._end_score_pick()
        elif self.phase == PHASE_MULLIGAN:
            self._apply_mulligan(action - A.MULLIGAN)
        elif self.phase == PHASE_PLACE:
            self._apply_place(action - A.PLACE)
        else:
            self._apply_refill(action - A.REFILL)
        self._advance()

    def _apply_chance(self, action: int) -> None:
        kind, p, slot = self.chance.pop(0)
        if kind == C_ROLL:
            self.dice[slot] = action + 1
        elif kind == C_SCORE:
            self.sdeck.remove(action)
            self.offers[p].append(action)
        elif kind == C_SLOT:
            self.sdeck.remove(action)
            self.slots[p][slot] = action
        elif kind == C_ITEM:
            self.ideck.remove(action)
            self.items[p].append(action)
        elif kind == C_HAND:
            self.tdeck.remove(action)
            self.hands[p].append(action)
            self.hands[p].sort()
        else:
            self.tdeck.remove(action)
            self.faceup[slot] = action

    def _apply_mulligan(self, mask: int) -> None:
        hand = self.hands[self.cur]
        drop = [c for i, c in enumerate(hand) if mask >> i & 1]
        for card in drop:
            hand.remove(card)
            self.tdisc.append(card)
        self.chance.extend((C_HAND, self.cur, 0) for _ in drop)
        self.cur += 1
        if self.cur == self.game.n:
            self._start_place()

    def _apply_place(self, code: int) -> None:
        card = code // 9
        self.hands[self.cur].remove(card)
        self.pending[self.cur] = code
        self.count += 1
        self.cur = (self.cur + 1) % self.game.n
        if self.count == self.game.n:
            self._reveal()

    def _apply_refill(self, choice: int) -> None:
        p = self.cur
        if choice < 3:
            card = self.faceup[choice]
            self.faceup[choice] = -1
            self.hands[p].append(card)
            self.hands[p].sort()
            self.took = True
            self.chance.append((C_FACEUP, 0, choice))
        else:
            self.chance.append((C_HAND, p, 0))
            if self.game.n == 1:
                self._refresh_faceup()
        self._end_refill_turn()

    def _apply_turn(self, action: int) -> None:
        if action == A.DECLINE:
            self.stack.pop()
        elif action >= A.END:
            self._end_turn()
        elif action >= A.CHANGE:
            die, value = divmod(action - A.CHANGE, 6)
            self.stack.pop()
            self.dice[die] = value + 1
        elif action >= A.ITEM:
            self._play_item(action - A.ITEM)
        elif action >= A.PAIR:
            a, b = divmod(action - A.PAIR, 36)
            self.stack.pop()
            self._hits_in_order([a, b], defeat=False)
        elif action >= A.ZORAK:
            die, s = divmod(action - A.ZORAK, 36)
            self.stack.pop()
            self._die_hit(self.dice[die], s)
        elif action >= A.TARGET:
            s = action - A.TARGET
            task, _ = self.stack.pop()
            if task in DEFEAT_TASKS:
                self._defeat(s)
            else:
                self._hit(s, False)
        elif action >= A.WASTE:
            self.used[action - A.WASTE] = self.cur
            self.hit_done = True
        else:
            die, s = divmod(action - A.DIE_HIT, 36)
            self.used[die] = self.cur
            self.hit_done = True
            self._die_hit(self.dice[die], s)

    def _play_item(self, item: int) -> None:
        self.items[self.cur].remove(item)
        self.item_done = True
        card = self.game.cards.items[item]
        if card.effect == "physical_as_magic":
            self.boost = True
        elif card.effect == "change_die":
            self.stack.append((T_I_CHANGE, 0))
        elif card.effect == "hit_diagonal":
            self.stack.append((T_I_DIAG, 0))
        elif card.effect == "defeat_nonmagical":
            self.stack.append((T_I_NONMAG, 0))
        else:
            self.stack.append((T_I_REGION, REGIONS.index(card.region or "")))

    # ------------------------------------------------------------------ fast rollouts
    def random_rollout(self, rng: random.Random, max_plies: int) -> int:
        """Play uniformly random moves in place for at most ``max_plies`` plies; return the plies.

        The optional fast-rollout method of the game protocol (see :mod:`gameshelf.core.game`):
        a decision is ``rng.choice(self.legal_actions())`` and a chance outcome is drawn exactly
        as :meth:`State.sample_chance` draws it (``Random.choices`` over ``chance_outcomes()``
        with their uniform weights), so ``rng`` is consumed exactly as by the generic loop and a
        seed gives the very same game. It only skips the generic loop's detours: no
        ``(outcome, probability)`` list is built per draw, the running sums of the uniform
        weights are memoised per deck size, and no view data is ever built. History stays
        complete, so the state remains an ordinary state afterwards.
        """
        plies = 0
        choice = rng.choice
        draw = rng.random
        hist = self.hist
        six = _uniform_cumulative(6)
        while plies < max_plies and self.phase != PHASE_OVER:
            chance = self.chance
            if chance:
                kind = chance[0][0]
                if kind == C_ROLL:  # the faces 0..5, in order
                    action = bisect(six, draw() * (six[-1] + 0.0), 0, 5)
                else:
                    pool = self._chance_pool(kind)
                    n = len(pool)
                    cumulative = _uniform_cumulative(n)
                    index = bisect(cumulative, draw() * (cumulative[-1] + 0.0), 0, n - 1)
                    action = sorted(pool)[index]
                hist.append(action)  # apply_action, for a chance node
                self._apply_chance(action)
                self._advance()
            else:
                self.apply_action(choice(self.legal_actions()))
            plies += 1
        return plies

    # ------------------------------------------------------------------ results
    def score_sheet(self, p: int) -> dict[str, Any]:
        """Player ``p``'s score so far (final at the end) with every part itemised."""
        g = self.game
        return score_breakdown(
            g.cards, g.tables, self.spc[p], self.marks[p], self.slots[p], self.items[p]
        )

    def ranking_key(self, p: int) -> tuple[int, int, int]:
        """(score, defeated beasts, defeated Rakya): the rulebook's order of tie-breakers."""
        g = self.game
        return score_totals(
            g.cards, g.tables, self.spc[p], self.marks[p], self.slots[p], self.items[p]
        )

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
            return [0.0] * self.game.n
        if self._returns is None:
            if self.game.n == 1:
                self._returns = [float(min(self.ranking_key(0)[0], 1000))]
            else:
                keys = [self.ranking_key(p) for p in range(self.game.n)]
                best = max(keys)
                self._returns = [1.0 if k == best else 0.0 for k in keys]
        return list(self._returns)

    def result_text(self) -> str:
        """The result in words; a solo game reports its score and Slayer rank."""
        if self.game.n == 1 and self.is_terminal():
            total = self.score_sheet(0)["total"]
            return f"solo score {total}: {self.solo_rank()}"
        if not self.is_terminal():
            return super().result_text()
        totals = [self.score_sheet(p)["total"] for p in range(self.game.n)]
        scores = " (scores " + ", ".join(str(t) for t in totals) + ")"
        winners = self.winners()
        if len(winners) == 1:
            return super().result_text() + scores
        names = " and ".join(self.describe_player(p) for p in winners)
        return f"{names} share the victory{scores}"

    def solo_rank(self) -> str | None:
        """The Slayer rank of a solo game (``None`` with more players)."""
        if self.game.n != 1:
            return None
        return solo_rank(self.score_sheet(0)["total"])

    def history(self) -> list[int]:
        """Every action applied since the initial state."""
        return list(self.hist)

    def clone(self) -> AxiaState:
        """An independent copy (lists copied one level deep; everything inside is immutable)."""
        return AxiaState(self.game, self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle field by field (a compiled state has no ``__dict__`` for pickle to take)."""
        fields = {name: getattr(self, name) for name in _STATE_FIELDS}
        return restore_state, (AxiaState, self.game, fields)

    def _copy_from(self, original: AxiaState) -> None:
        """Take ``original``'s fields, copying every list one level deep."""
        self.game = original.game
        self.phase = original.phase
        self.round = original.round
        self.start = original.start
        self.cur = original.cur
        self.count = original.count
        self.batch = original.batch
        self.chance = list(original.chance)
        self.grid = [list(x) for x in original.grid]
        self.marks = [list(x) for x in original.marks]
        self.spc = [list(x) for x in original.spc]
        self.hands = [list(x) for x in original.hands]
        self.items = [list(x) for x in original.items]
        self.slots = [list(x) for x in original.slots]
        self.offers = [list(x) for x in original.offers]
        self.pending = list(original.pending)
        self.tdeck = list(original.tdeck)
        self.tdisc = list(original.tdisc)
        self.ideck = list(original.ideck)
        self.sdeck = list(original.sdeck)
        self.faceup = list(original.faceup)
        self.dice = list(original.dice)
        self.used = list(original.used)
        self.took = original.took
        self.turn = original.turn
        self.hit_done = original.hit_done
        self.item_done = original.item_done
        self.boost = original.boost
        self.stack = list(original.stack)
        self.hist = list(original.hist)
        self._returns = original._returns

    # ------------------------------------------------------------------ positions
    def position(self) -> str:
        """The full state (hidden parts included) as compact JSON (see :mod:`.position`)."""
        return format_position(self)

    @classmethod
    def from_position(cls, game: AxiaGame, text: object) -> AxiaState:
        """Read :meth:`position` text back; :class:`InvalidPosition` when it is malformed."""
        state = cls(game)
        load_position(state, text)
        return state

    # ------------------------------------------------------------------ notation
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
        """A terminal picture of every territory, the row, the dice and whose turn it is
        (as ``viewer`` may see it, when given)."""
        return render_state(self, color, viewer)

    def task(self) -> tuple[str, int] | None:
        """The effect waiting for a choice, as (name, param), or ``None``."""
        if self.phase != PHASE_TURN or not self.stack or self.chance:
            return None
        task, param = self.stack[-1]
        return TASK_NAMES[task], param


def make_game(values: Mapping[str, Any]) -> AxiaGame:
    """Registry factory."""
    return AxiaGame(values)


__all__ = ["AxiaGame", "AxiaState", "make_game"]
