"""AXIA's observation encoder for the RL adapters (``docs/rl.md`` draws its layout).

Hidden information: it reads **only** ``state.view(player)`` (the engine's per-seat view,
tested to hold no other seat's cards), never the state itself, so a tensor cannot reveal more
than that seat may know.
"""

from __future__ import annotations

from typing import Any

from gameshelf.core.game import Game, State

from ..encoding import Encoder, Tensor, relative_seats, view_text


def _axia_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Phase, effect and region names as the AXIA engine writes them in its views."""
    from gameshelf.games.axia.actions import PHASE_NAMES
    from gameshelf.games.axia.cards import REGIONS
    from gameshelf.games.axia.effects import EFFECT_NAMES

    return tuple(PHASE_NAMES), tuple(EFFECT_NAMES), tuple(REGIONS)


MAX_SCORE = 1000


class AxiaEncoder(Encoder):
    """AXIA from one seat's view (``state.view(player)`` only; nothing else is read).

    Per seat (relative order) ``spaces`` (n, 36, F): occupied, wounded, defeated, region
    one-hot (5), magical, critical number one-hot (7; 0 = none), beast kind one-hot; ``scoring``
    (n, 6, S) the card in each slot (zeros while hidden); ``seats`` (n, 5): hand count / 10,
    item count / 10, committed, public score / 200 (capped at 1000), scoring hidden. Shared:
    ``phase`` (6,),
    ``round`` (1,) / 8, ``starting`` (n,), ``to_move`` (n + 2,) (seats, chance, over),
    ``dice`` (D, 8 + n): magic, value one-hot (6), unused, used by (relative seat),
    ``face_up`` (F, T), ``decks`` (3,), ``effect`` (12 + 5 + 36,), ``turn`` (3,). Private to the
    viewer: ``hand`` (T,), ``items`` (I,), ``offer`` (S,), ``pending`` (T + 9,).
    """

    high = MAX_SCORE / 200.0

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        g: Any = game
        self.n: int = g.players
        self.beasts = sorted(set(g.tables.beast))
        self.beast_index = {name: i for i, name in enumerate(self.beasts)}
        t, s, i = len(g.cards.territory), len(g.cards.scoring), len(g.cards.items)
        self.counts = (t, s, i)
        self.phases, self.effects, self.regions = _axia_names()
        features = 3 + len(self.regions) + 1 + 7 + len(self.beasts)
        self.offsets = (3 + len(self.regions), 4 + len(self.regions), 11 + len(self.regions))
        n = self.n
        self.pieces = (
            ("spaces", (n, 36, features)),
            ("scoring", (n, 6, s)),
            ("seats", (n, 5)),
            ("phase", (len(self.phases),)),
            ("round", (1,)),
            ("starting", (n,)),
            ("to_move", (n + 2,)),
            ("dice", (g.num_dice, 8 + n)),
            ("face_up", (g.face_up_size, t)),
            ("decks", (3,)),
            ("effect", (len(self.effects) + len(self.regions) + 36,)),
            ("turn", (3,)),
            ("hand", (t,)),
            ("items", (i,)),
            ("offer", (s,)),
            ("pending", (t + 9,)),
        )

    def text(self, state: State, player: int) -> str:
        """The seat's view as canonical JSON (keys sorted)."""
        return view_text(state.view(player))

    def fill(self, state: State, player: int, views: dict[str, Tensor]) -> None:
        """Write the tensor from ``state.view(player)``."""
        self.fill_view(state.view(player), player, views)

    def fill_view(self, view: dict[str, Any], player: int, views: dict[str, Tensor]) -> None:
        """Write the tensor from a view (``view(None)`` for the public part only), seats
        relative to ``player``."""
        g: Any = self.game
        seats = relative_seats(player, self.n)
        for row, seat in enumerate(seats):
            self._fill_seat(views, row, view["players"][seat], g)
        views["phase"][self.phases.index(view["phase"])] = 1.0
        views["round"][0] = view["round"] / 8.0
        views["starting"][(view["starting_slayer"] - player) % self.n] = 1.0
        to_move = view["to_move"]
        if to_move >= 0:
            views["to_move"][(to_move - player) % self.n] = 1.0
        elif to_move == -1:
            views["to_move"][self.n] = 1.0
        else:
            views["to_move"][self.n + 1] = 1.0
        self._fill_dice(views["dice"], view["dice"], player)
        for slot, card in enumerate(view["face_up"]):
            if card is not None:
                views["face_up"][slot, g.territory_index[card]] = 1.0
        views["decks"][:] = (
            view["territory_deck"] / 60.0,
            view["discard"] / 60.0,
            view["item_deck"] / 24.0,
        )
        self._fill_effect(views["effect"], view["effect"])
        turn = view.get("turn")
        if turn is not None:
            views["turn"][:] = (turn["die_taken"], turn["item_played"], turn["physical_as_magic"])
        self._fill_private(views, view["players"][player], g)

    def _fill_seat(self, views: dict[str, Tensor], row: int, seat: dict[str, Any], g: Any) -> None:
        from gameshelf.games.axia.board import CELL_SPACES

        spaces = views["spaces"][row]
        tables = g.tables
        for cell, card in enumerate(seat["grid"]):
            if card is None:
                continue
            base = g.territory_index[card] * 4
            for local, space in enumerate(CELL_SPACES[cell]):
                index = base + local
                features = spaces[space]
                magic, critical, beast = self.offsets
                features[0] = 1.0
                features[3 + tables.region[index]] = 1.0
                features[magic] = 1.0 if tables.magic[index] else 0.0
                features[critical + tables.critical[index]] = 1.0
                features[beast + self.beast_index[tables.beast[index]]] = 1.0
        for space, mark in enumerate(seat["marks"]):
            if mark == "w":
                spaces[space, 1] = 1.0
            elif mark == "X":
                spaces[space, 2] = 1.0
        hidden = True
        for slot, card in enumerate(seat["scoring"]):
            if card is not None:
                hidden = False
                views["scoring"][row, slot, g.scoring_index[card]] = 1.0
        score = seat["score"]
        views["seats"][row] = (
            seat["hand_count"] / 10.0,
            seat["item_count"] / 10.0,
            1.0 if seat["committed"] else 0.0,
            0.0 if score is None else min(max(score, 0), MAX_SCORE) / 200.0,
            1.0 if hidden else 0.0,
        )

    def _fill_dice(self, dice: Tensor, data: list[dict[str, Any]], player: int) -> None:
        for index, die in enumerate(data):
            dice[index, 0] = 1.0 if die["magic"] else 0.0
            if die["value"]:
                dice[index, die["value"]] = 1.0
            if die["used_by"] is None:
                dice[index, 7] = 1.0
            else:
                dice[index, 8 + (die["used_by"] - player) % self.n] = 1.0

    def _fill_effect(self, effect: Tensor, data: dict[str, Any] | None) -> None:
        from gameshelf.games.axia.actions import parse_space

        if data is None:
            return
        kinds, regions = len(self.effects), len(self.regions)
        effect[self.effects.index(data["name"])] = 1.0
        if "region" in data:
            effect[kinds + self.regions.index(data["region"])] = 1.0
        if "space" in data:
            space = parse_space(data["space"])
            if space is not None:
                effect[kinds + regions + space] = 1.0

    def _fill_private(self, views: dict[str, Tensor], own: dict[str, Any], g: Any) -> None:
        from gameshelf.games.axia.actions import parse_cell

        for card in own.get("hand", []):
            views["hand"][g.territory_index[card]] = 1.0
        for card in own.get("items", []):
            views["items"][g.item_index[card]] = 1.0
        for card in own.get("offer", []):
            views["offer"][g.scoring_index[card]] = 1.0
        pending = own.get("pending")
        if pending:
            card, cell = pending.split("@")
            views["pending"][g.territory_index[card]] = 1.0
            cell_index = parse_cell(cell)
            if cell_index is not None:
                views["pending"][self.counts[0] + cell_index] = 1.0
