"""The lobby: a new match from a game string and seats, vetted (the game, its options and
card data, each bot and its time, the room for bot-only matches) before anything is stored."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from gameshelf.agents import AGENTS
from gameshelf.agents.catalogue import check_agent
from gameshelf.agents.levels import BadThinkTime, check_think, split_think, with_think
from gameshelf.core.game import Game

from .clock import Clock, TimeControl
from .errors import ServerError
from .match import Match
from .registry import MatchRegistry
from .round import Round
from .settings import ServerSettings
from .store import MatchExtras, SeatInfo, Store
from .vetting import CardSetCatalog, choose_seed, vet_network_game


class Lobby:
    """Creates matches."""

    def __init__(
        self,
        store: Store,
        registry: MatchRegistry,
        round_: Round,
        settings: ServerSettings,
        catalog: CardSetCatalog,
    ) -> None:
        self.store = store
        self.registry = registry
        self.round = round_
        self.settings = settings
        self.catalog = catalog

    async def create_match(
        self,
        game_string: str,
        seats: list[dict[str, Any]] | None,
        seed: int | None,
        time_control: TimeControl | None = None,
    ) -> Match:
        """Create a match from a network game string and seats (human or a bot by name)."""
        settings = self.settings
        vetted = await asyncio.to_thread(
            vet_network_game, game_string, self.catalog, settings.max_plies
        )
        game = vetted.game
        players = game.spec.num_players
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (players - 1)
        if len(seats) != players:
            raise ServerError(
                "request/invalid",
                f"{vetted.display} has {players} seats, the request gives {len(seats)}",
            )
        cap = settings.bot_move_seconds
        infos = [self._seat_info(index, spec, cap) for index, spec in enumerate(seats)]
        await asyncio.to_thread(self._check_bots, game, infos)
        if all(info.kind == "bot" for info in infos):
            await self._check_bot_only_room()
        humans = sum(info.kind == "human" for info in infos)
        chosen, salt, by_client = choose_seed(game, humans, seed)
        extras = MatchExtras(
            data_option=vetted.extras.data_option,
            data_name=vetted.extras.data_name,
            data_digest=vetted.extras.data_digest,
            data_content=vetted.extras.data_content,
            seed_salt=salt,
            seed_chosen_by_client=by_client,
        )
        match_id = secrets.token_hex(8)
        kinds = tuple(info.kind == "human" for info in infos)
        clock = None if time_control is None else Clock.new(time_control, kinds)
        await asyncio.to_thread(
            self.store.create_match, match_id, vetted.display, chosen, infos, extras, clock
        )
        match = await self.registry.get(match_id)
        self.round.changed(match)  # its bots may move first
        return match

    @staticmethod
    def _check_bots(game: Game, infos: list[SeatInfo]) -> None:
        for info in infos:
            if info.agent is not None:
                check_agent(split_think(info.agent)[0], game)

    async def _check_bot_only_room(self) -> None:
        running = await asyncio.to_thread(self.store.count_bot_only_running)
        if running >= self.settings.max_bot_only_matches:
            raise ServerError(
                "server/busy",
                f"this server runs at most {self.settings.max_bot_only_matches} bot-only "
                "matches at once; try again when one has finished",
            )

    @staticmethod
    def _seat_info(index: int, spec: dict[str, Any], think_cap: float) -> SeatInfo:
        kind = spec.get("kind")
        if kind == "human":
            extra = [key for key in ("agent", "think_seconds") if spec.get(key) is not None]
            if extra:  # a careless client meant a bot, or mixed two seats up: say so
                raise ServerError(
                    "request/invalid",
                    f"seat {index}: a human seat takes no {' or '.join(extra)} "
                    "(did you mean kind 'bot'?)",
                )
            return SeatInfo(index, "human", None, None, None)
        if kind == "bot":
            # A bot's own time per move is kept in its seat name, ``hard@0.8`` (a rematch
            # passes that name back as the agent).
            named = spec.get("agent")
            try:
                agent, think = split_think("random" if named is None else str(named))
                if spec.get("think_seconds") is not None:
                    think = check_think(spec["think_seconds"], think_cap)
                elif think is not None:
                    think = check_think(think, think_cap)
            except BadThinkTime as error:
                raise ServerError(error.code, f"seat {index}: {error}") from None
            if agent not in AGENTS:
                known = ", ".join(sorted(AGENTS))
                raise ServerError(
                    "agent/unknown", f"seat {index}: unknown bot {agent[:32]!r}; available: {known}"
                )
            return SeatInfo(index, "bot", with_think(agent, think), None, None)
        raise ServerError("request/invalid", f"seat {index}: kind must be 'human' or 'bot'")
