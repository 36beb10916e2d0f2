"""The match master: the one authority over every match the server holds.

Each match lives in memory as a :class:`Runtime` (rebuilt from the database on first use) and
is changed only under its lock: check the seat token, the state version and legality; commit
the move; then tell every connected client its own view. Bots and chance move from a
background task whose searches run in a worker pool, so the event loop never waits on them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gameshelf.agents import AGENTS
from gameshelf.core.game import CHANCE, Game, State
from gameshelf.core.record import GameRecord, RecordedMove
from gameshelf.core.registry import load
from gameshelf.core.rng import derive_seed, make_rng, new_seed

from .bots import choose_bot_action
from .db import PendingMove, SeatInfo, Store, hash_token, token_matches
from .errors import ServerError

log = logging.getLogger("gameshelf.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]
Ack = tuple["Client", str | int | None] | None


@dataclass(eq=False)
class Client:
    """A connection: the seats it proved it holds (none for a spectator) and how to reach it."""

    send: Send
    seats: set[int] = field(default_factory=set)


@dataclass(eq=False)
class Runtime:
    """A match in memory."""

    id: str
    game: Game
    seed: int
    seats: list[SeatInfo]
    state: State
    movers: list[int]
    notations: list[str]
    version: int
    status: str
    created: datetime
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token this is, or None."""
        for seat in self.seats:
            if token_matches(token, seat.token_hash):
                return seat.seat
        return None


class GroupCommitter:
    """Writes moves in batches: each caller returns once the batch holding its move committed."""

    MAX_BATCH = 512

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: asyncio.Queue[tuple[PendingMove, asyncio.Future[None]]] | None = None
        self.task: asyncio.Task[None] | None = None

    async def write(self, move: PendingMove) -> None:
        """Queue ``move`` and wait until it is durably stored (re-raising a storage error)."""
        if self.queue is None or self.task is None or self.task.done():
            self.queue = asyncio.Queue()
            self.task = asyncio.get_running_loop().create_task(self._run(self.queue))
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self.queue.put((move, done))
        await done

    async def _run(self, queue: asyncio.Queue[tuple[PendingMove, asyncio.Future[None]]]) -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < self.MAX_BATCH:
                batch.append(queue.get_nowait())
            try:
                await asyncio.to_thread(self.store.append_moves, [move for move, _ in batch])
            except Exception as error:  # every waiter learns its move was not stored
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for _, done in batch:
                if not done.done():
                    done.set_result(None)


class Hub:
    """Owns the runtimes, the store and the bot worker pool."""

    def __init__(self, store: Store, executor: Executor) -> None:
        self.store = store
        self.executor = executor
        self.runtimes: dict[str, Runtime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.writer = GroupCommitter(store)

    # --- matches --------------------------------------------------------------------------
    async def create_match(
        self, game_string: str, seats: list[dict[str, Any]] | None, seed: int | None
    ) -> Runtime:
        """Create a match from a game string and seat list (human or a bot by name)."""
        game = load(game_string)
        players = game.spec.num_players
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (players - 1)
        if len(seats) != players:
            raise ServerError(
                "request/invalid",
                f"{game.game_string} has {players} seats, the request gives {len(seats)}",
            )
        infos = [self._seat_info(index, spec) for index, spec in enumerate(seats)]
        match_id = secrets.token_hex(8)
        seed = new_seed() if seed is None else seed
        await asyncio.to_thread(self.store.create_match, match_id, game.game_string, seed, infos)
        runtime = await self.runtime(match_id)
        self._schedule_bots(runtime)
        return runtime

    @staticmethod
    def _seat_info(index: int, spec: dict[str, Any]) -> SeatInfo:
        kind = spec.get("kind")
        if kind == "human":
            return SeatInfo(index, "human", None, None, None)
        if kind == "bot":
            agent = str(spec.get("agent") or "random")
            if agent not in AGENTS:
                known = ", ".join(sorted(AGENTS))
                raise ServerError(
                    "request/invalid", f"seat {index}: unknown bot {agent!r}; available: {known}"
                )
            return SeatInfo(index, "bot", agent, agent, None)
        raise ServerError("request/invalid", f"seat {index}: kind must be 'human' or 'bot'")

    async def runtime(self, match_id: str) -> Runtime:
        """The in-memory match, loaded from the database (and replayed) on first use."""
        runtime = self.runtimes.get(match_id)
        if runtime is not None:
            return runtime
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            runtime = self.runtimes.get(match_id)
            if runtime is None:
                runtime = await asyncio.to_thread(self._load, match_id)
                self.runtimes[match_id] = runtime
        return runtime

    def _load(self, match_id: str) -> Runtime:
        stored = self.store.load(match_id) if len(match_id) <= 32 else None
        if stored is None:
            raise ServerError("match/not-found", f"no match {match_id!r}")
        game = load(stored.game)
        state = game.new_initial_state(stored.seed)
        movers, notations = [], []
        for player, action, notation in stored.moves:
            movers.append(player)
            notations.append(notation)
            state.apply_action(action)
        return Runtime(
            stored.id,
            game,
            stored.seed,
            stored.seats,
            state,
            movers,
            notations,
            stored.version,
            stored.status,
            stored.created,
        )

    async def join(self, match_id: str, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free human seat (the first one if ``seat`` is None); returns (seat, token)."""
        runtime = await self.runtime(match_id)
        async with runtime.lock:
            free = [s.seat for s in runtime.seats if s.kind == "human" and not s.taken]
            if seat is None:
                if not free:
                    raise ServerError("match/full", f"match {match_id} has no free seat")
                seat = free[0]
            elif not 0 <= seat < len(runtime.seats):
                raise ServerError(
                    "request/invalid", f"seat {seat} does not exist (0..{len(runtime.seats) - 1})"
                )
            elif seat not in free:
                raise ServerError("match/seat-taken", f"seat {seat} of match {match_id} is taken")
            token = secrets.token_urlsafe(24)
            taken = await asyncio.to_thread(
                self.store.take_seat, match_id, seat, name, hash_token(token)
            )
            if not taken:
                raise ServerError("match/seat-taken", f"seat {seat} of match {match_id} is taken")
            runtime.seats[seat] = SeatInfo(seat, "human", None, name, hash_token(token))
            if runtime.status == "open" and all(s.taken for s in runtime.seats):
                runtime.status = "running"
            await self._broadcast(runtime, None)
        self._schedule_bots(runtime)
        return seat, token

    # --- moves ----------------------------------------------------------------------------
    async def play(
        self, runtime: Runtime, client: Client, seat: int, move: str, version: int, ack: Ack = None
    ) -> None:
        """Check and apply a human move for ``seat``; raises a coded error and changes nothing."""
        async with runtime.lock:
            self._check_turn(runtime, client, seat, version)
            action = runtime.state.move_to_action(move)
            await self._commit(runtime, seat, action, ack)
        self._schedule_bots(runtime)

    def _check_turn(self, runtime: Runtime, client: Client, seat: int, version: int) -> None:
        if seat not in client.seats:
            raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")
        if runtime.status == "open":
            raise ServerError("match/not-started", "the match waits for players to join")
        if runtime.state.is_terminal():
            raise ServerError("move/game-over", "the game is over")
        if version != runtime.version:
            raise ServerError(
                "state/stale-version",
                f"version {version} is stale; the match is at {runtime.version}",
            )
        if runtime.state.current_player() != seat:
            turn = runtime.state.describe_player(runtime.state.current_player())
            raise ServerError("move/not-your-turn", f"seat {seat} cannot move: it is {turn}'s turn")

    async def _commit(self, runtime: Runtime, player: int, action: int, ack: Ack = None) -> None:
        """Store the move, then apply it in memory and tell everyone."""
        state = runtime.state
        notation = state.action_to_string(action)
        after = state.clone()
        after.apply_action(action)
        status = "finished" if after.is_terminal() else "running"
        result = after.returns() if after.is_terminal() else None
        await self.writer.write(
            PendingMove(
                runtime.id,
                len(runtime.movers),
                player,
                action,
                notation,
                runtime.version + 1,
                status,
                result,
            )
        )
        runtime.state = after
        runtime.movers.append(player)
        runtime.notations.append(notation)
        runtime.version += 1
        runtime.status = status
        await self._broadcast(runtime, (player, notation), ack)

    async def undo(
        self, runtime: Runtime, client: Client, seat: int, version: int, ack: Ack = None
    ) -> None:
        """Take back ``seat``'s last move, if it is the last move of the game (table etiquette)."""
        async with runtime.lock:
            if seat not in client.seats:
                raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")
            if version != runtime.version:
                raise ServerError(
                    "state/stale-version",
                    f"version {version} is stale; the match is at {runtime.version}",
                )
            self._check_undo(runtime, seat)
            history = runtime.state.history()[:-1]
            state = runtime.game.new_initial_state(runtime.seed)
            for action in history:
                state.apply_action(action)
            await asyncio.to_thread(
                self.store.remove_last_move,
                runtime.id,
                len(history),
                runtime.version + 1,
                "running",
            )
            runtime.state = state
            runtime.movers.pop()
            runtime.notations.pop()
            runtime.version += 1
            runtime.status = "running"
            await self._broadcast(runtime, None, ack)

    @staticmethod
    def _check_undo(runtime: Runtime, seat: int) -> None:
        if not runtime.movers or runtime.movers[-1] != seat:
            raise ServerError(
                "undo/not-allowed",
                "only your own last move can be taken back, before anyone else moves",
            )
        if runtime.game.spec.hidden_information:
            raise ServerError(
                "undo/not-allowed",
                "moves in games with hidden information commit or reveal cards: no undo",
            )
        if runtime.state.is_terminal():
            raise ServerError("undo/not-allowed", "the game is over")

    # --- bots and chance --------------------------------------------------------------------
    def _schedule_bots(self, runtime: Runtime) -> None:
        if runtime.bot_task is None or runtime.bot_task.done():
            runtime.bot_task = asyncio.get_running_loop().create_task(self._drive(runtime))

    async def _drive(self, runtime: Runtime) -> None:
        """Play chance outcomes and bot moves until a human is to move or the game ends."""
        loop = asyncio.get_running_loop()
        while True:
            async with runtime.lock:
                state = runtime.state
                if runtime.status != "running" or state.is_terminal():
                    return
                player = state.current_player()
                history = state.history()
                version = runtime.version
                if player == CHANCE:
                    rng = make_rng(derive_seed(runtime.seed, "chance", len(history)))
                    await self._commit(runtime, CHANCE, state.sample_chance(rng))
                    continue
                seat = runtime.seats[player]
                if seat.kind != "bot" or seat.agent is None:
                    return
            try:
                action = await loop.run_in_executor(
                    self.executor,
                    choose_bot_action,
                    runtime.game.game_string,
                    runtime.seed,
                    history,
                    seat.agent,
                    player,
                )
            except Exception:  # a broken bot must neither crash the server nor stall the match
                log.exception(
                    "bot %s failed in match %s; playing a random move", seat.agent, runtime.id
                )
                rng = make_rng(derive_seed(runtime.seed, "fallback", len(history)))
                action = rng.choice(runtime.state.legal_actions())
            async with runtime.lock:
                if runtime.version == version:
                    await self._commit(runtime, player, action)

    async def resume(self) -> int:
        """After a restart: load every running match and let its bots continue."""
        ids = await asyncio.to_thread(self.store.match_ids, "running")
        for match_id in ids:
            runtime = await self.runtime(match_id)
            self._schedule_bots(runtime)
        return len(ids)

    # --- clients and views ----------------------------------------------------------------
    async def connect(self, runtime: Runtime, client: Client, tokens: list[str]) -> None:
        """Register a client, proving its seats by token, and send it the current state."""
        seats = set()
        for token in tokens:
            seat = runtime.seat_of_token(token)
            if seat is None:
                raise ServerError("auth/bad-token", "a token does not match any seat of this match")
            seats.add(seat)
        client.seats = seats
        runtime.clients.add(client)
        await client.send({"type": "welcome", "match": runtime.id, "seats": sorted(seats)})
        await client.send(self.state_message(runtime, client, None))

    def disconnect(self, runtime: Runtime, client: Client) -> None:
        """Forget a client."""
        runtime.clients.discard(client)

    async def _broadcast(
        self, runtime: Runtime, last: tuple[int, str] | None, ack: Ack = None
    ) -> None:
        clients = list(runtime.clients)
        messages = [self.state_message(runtime, client, last) for client in clients]
        for client, message in zip(clients, messages, strict=True):
            if ack is not None and ack[0] is client and ack[1] is not None:
                message["ack"] = ack[1]
        results = await asyncio.gather(
            *(c.send(m) for c, m in zip(clients, messages, strict=True)), return_exceptions=True
        )
        for client, outcome in zip(clients, results, strict=True):
            if isinstance(outcome, Exception):
                runtime.clients.discard(client)

    def state_message(
        self, runtime: Runtime, client: Client, last: tuple[int, str] | None
    ) -> dict[str, Any]:
        """The state as one client may see it: public view plus the view of each of its seats."""
        state = runtime.state
        hidden = runtime.game.spec.hidden_information
        to_move = state.current_player()
        seats: dict[str, Any] = {}
        for seat in sorted(client.seats):
            mine = to_move == seat and runtime.status == "running"
            seats[str(seat)] = {
                "view": state.view(seat),
                "legal_moves": [str(m) for m in state.legal_moves()] if mine else [],
            }
        message: dict[str, Any] = {
            "type": "state",
            "match": runtime.id,
            "game": runtime.game.game_string,
            "version": runtime.version,
            "status": runtime.status,
            "to_move": to_move,
            "plies": len(runtime.movers),
            "public": state.view(None),
            "seats": seats,
            "result": state.returns() if state.is_terminal() else None,
            "result_text": state.result_text() if state.is_terminal() else None,
        }
        if last is not None:
            player, notation = last
            message["last_move"] = (
                {"player": player} if hidden else {"player": player, "move": notation}
            )
        if not hidden:
            message["moves"] = list(runtime.notations)
        return message

    # --- summaries and records ------------------------------------------------------------
    def summary(self, runtime: Runtime) -> dict[str, Any]:
        """Public facts of a match for the lobby."""
        state = runtime.state
        return {
            "id": runtime.id,
            "game": runtime.game.game_string,
            "status": runtime.status,
            "version": runtime.version,
            "plies": len(runtime.movers),
            "to_move": state.current_player(),
            "created": runtime.created.isoformat(),
            "seats": [
                {"seat": s.seat, "kind": s.kind, "agent": s.agent, "name": s.name, "taken": s.taken}
                for s in runtime.seats
            ],
            "result": state.returns() if state.is_terminal() else None,
            "result_text": state.result_text() if state.is_terminal() else None,
        }

    def record(self, runtime: Runtime) -> GameRecord:
        """The game record of a finished match."""
        if runtime.status != "finished":
            raise ServerError("match/not-finished", "records of unfinished matches stay private")
        moves = [
            RecordedMove(player, notation, action)
            for player, notation, action in zip(
                runtime.movers, runtime.notations, runtime.state.history(), strict=True
            )
        ]
        names = [s.name or s.agent or f"seat {s.seat}" for s in runtime.seats]
        return GameRecord(
            game=runtime.game.game_string,
            seed=runtime.seed,
            players=names,
            moves=moves,
            result=runtime.state.returns(),
            started=runtime.created.isoformat(),
            finished=None,
        )
