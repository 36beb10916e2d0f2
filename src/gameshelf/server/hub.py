"""The match master: the one authority over every match the server holds.

Each match lives in memory as a :class:`Runtime` (rebuilt from the database on first use) and
is changed only under its lock: check the seat token, the state version and legality; commit
the move; then tell every connected client its own view. Bots and chance move from a
supervised background task whose searches run in a worker pool, so the event loop never waits
on them. Nothing under a match lock ever waits on a client: messages go into each connection's
bounded queue, and a client that lets its queue fill is disconnected.
"""

from __future__ import annotations

import asyncio
import json
import logging
import pickle
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gameshelf.agents import AGENTS
from gameshelf.agents.catalogue import check_agent
from gameshelf.agents.levels import BadThinkTime, check_think, split_think, with_think
from gameshelf.core.game import CHANCE, TERMINAL, Game, State
from gameshelf.core.record import GameRecord, RecordedMove
from gameshelf.core.rng import derive_seed, make_rng

from . import clocks
from .accounts import RatedMatchRow
from .bots import StopBoard, choose_bot_action, stoppable
from .chat import ChatRooms
from .contract import is_match_id
from .db import MatchExtras, PendingMove, SeatInfo, Store, hash_token, token_matches
from .errors import ServerError
from .listing import named_result, seat_summary
from .rematch import Rematches
from .settings import ServerSettings

if TYPE_CHECKING:
    from .cluster import Cluster
from .vetting import CardSetCatalog, choose_seed, load_pinned, seed_commitment, vet_network_game

log = logging.getLogger("gameshelf.server")

Ack = tuple["Client", str | int | None] | None
"""Match ids are 16 lowercase hex digits; anything else is unknown without a database look-up."""


@dataclass(eq=False)
class Client:
    """A connection: the seats it proved it holds (none for a spectator) and its outbox.

    :meth:`send` never waits: it queues the message, and a full queue marks the client as too
    slow (``overflowed``), after which the connection's handler closes it.
    """

    queue_size: int = 64
    address: str = ""
    seats: set[int] = field(default_factory=set)
    outbox: asyncio.Queue[dict[str, Any]] = field(init=False)
    overflowed: asyncio.Event = field(init=False, default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.outbox = asyncio.Queue(maxsize=self.queue_size)

    async def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for this client (never blocks)."""
        self.offer(message)

    def offer(self, message: dict[str, Any]) -> bool:
        """Queue ``message``; False (and the client marked too slow) if its queue is full."""
        if self.overflowed.is_set():
            return False
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed.set()
            return False
        return True


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
    display: str = ""
    extras: MatchExtras = field(default_factory=MatchExtras)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    joining: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by a whole join request, account checks included (routes/matches.py): a rated
    match's one-seat-per-account check and the seat's link to the account are one step."""
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    search: asyncio.Future[Any] | None = None  # the bot search in the pool, while one runs
    touched: float = field(default_factory=time.monotonic)
    clock: Any = None  # a clocks.Clock for a clocked match
    resigned: int | None = None  # the seat that resigned the match (clocks.resign)
    first_move_grace_ms: int | None = None
    """A rated match's grace window for each seat's first move (``None``: not rated)."""

    def __post_init__(self) -> None:
        self.display = self.display or self.game.game_string

    @property
    def rated(self) -> bool:
        """Whether the match was created rated (no hints, no undo; the abort rule holds)."""
        return self.first_move_grace_ms is not None

    @property
    def aborted(self) -> bool:
        """A rated match that ended before every human seat made its first move: it settles
        nothing (chess servers' abort rule)."""
        return (
            self.rated
            and self.status == "finished"
            and not all(s.seat in self.movers for s in self.seats if s.kind == "human")
        )

    @property
    def bots_only(self) -> bool:
        """Whether no seat is human (a bot-vs-bot match)."""
        return all(seat.kind == "bot" for seat in self.seats)

    @property
    def commitment(self) -> str | None:
        """The published SHA-256 commitment to the seed (``None`` for matches made before)."""
        salt = self.extras.seed_salt
        return None if salt is None else seed_commitment(salt, self.seed)

    @property
    def to_move(self) -> int:
        """The seat to move as frames, summaries and replays show it: ``TERMINAL`` (-4) once
        the match is finished, also when a flag or a resignation ended it on a board that
        itself goes on (the engine would still name a player)."""
        if self.status == "finished":
            return TERMINAL
        player: int = self.state.current_player()
        return player

    @property
    def decisions(self) -> int:
        """The players' moves played so far (the plies less chance's: deals, rolls)."""
        return sum(1 for mover in self.movers if mover >= 0)

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
        self.queue: asyncio.Queue[tuple[PendingMove, asyncio.Future[bool]]] | None = None
        self.task: asyncio.Task[None] | None = None

    async def write(self, move: PendingMove) -> bool:
        """Queue ``move`` and wait until its batch committed: True if it was stored, False if
        its match had moved on (a storage error is re-raised)."""
        if self.queue is None or self.task is None or self.task.done():
            self.queue = asyncio.Queue()
            self.task = asyncio.get_running_loop().create_task(self._run(self.queue))
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        await self.queue.put((move, done))
        return await done

    async def _run(self, queue: asyncio.Queue[tuple[PendingMove, asyncio.Future[bool]]]) -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < self.MAX_BATCH:
                batch.append(queue.get_nowait())
            try:
                stored = await asyncio.to_thread(
                    self.store.append_moves, [move for move, _ in batch]
                )
            except Exception as error:
                if len(batch) == 1:  # its waiter learns its move was not stored
                    _settle(batch[0][1], error=error)
                else:  # one move's failure (a game-over hook, say) must not cost the others
                    await self._one_by_one(batch)
                continue
            for (_, done), ok in zip(batch, stored, strict=True):
                _settle(done, ok)

    async def _one_by_one(self, batch: list[tuple[PendingMove, asyncio.Future[bool]]]) -> None:
        """Write a failed batch's moves again, each in its own transaction (the failed one
        rolled back, so nothing of it was stored), so that each waiter hears its own outcome."""
        for move, done in batch:
            try:
                stored = await asyncio.to_thread(self.store.append_moves, [move])
            except Exception as error:
                _settle(done, error=error)
            else:
                _settle(done, stored[0])


def _settle(done: asyncio.Future[bool], ok: bool = False, error: Exception | None = None) -> None:
    """Hand a waiter its move's outcome (unless it stopped waiting)."""
    if done.done():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(ok)


class Hub:
    """Owns the runtimes, the store and the bot worker pool."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        settings: ServerSettings | None = None,
        catalog: CardSetCatalog | None = None,
        bot_workers: int = 2,
    ) -> None:
        self.store = store
        self.executor = executor
        self.settings = settings or ServerSettings()
        self.catalog = catalog or CardSetCatalog()
        self.runtimes: dict[str, Runtime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.writer = GroupCommitter(store)
        # Bot-only matches share at most all workers but one, so a human's bot reply never
        # queues behind a room of bots playing each other.
        self.background_slots = asyncio.Semaphore(max(1, bot_workers - 1))
        self.broken: set[str] = set()
        self.cluster: Cluster | None = None  # set on PostgreSQL: several processes share it
        self.steward: Any = None  # the clocks.ClockSteward, once started
        self.chat = ChatRooms(self)
        self.rematches = Rematches(self)
        self.choose: Callable[[bytes, str, int, float], int] = choose_bot_action
        self.stops = StopBoard()  # a search of a match that ended is stopped in its worker

    # --- matches --------------------------------------------------------------------------
    async def create_match(
        self,
        game_string: str,
        seats: list[dict[str, Any]] | None,
        seed: int | None,
        time_control: clocks.TimeControl | None = None,
    ) -> Runtime:
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
        await asyncio.to_thread(
            self.store.create_match, match_id, vetted.display, chosen, infos, extras
        )
        if time_control is not None:
            await asyncio.to_thread(clocks.store_new, self.store, match_id, time_control, infos)
        runtime = await self.runtime(match_id)
        self._schedule_bots(runtime)
        return runtime

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

    async def runtime(self, match_id: str) -> Runtime:
        """The in-memory match, loaded from the database (and replayed) on first use."""
        runtime = self.runtimes.get(match_id)
        if runtime is not None:
            runtime.touched = time.monotonic()
            return runtime
        if not is_match_id(match_id):  # costs nothing: no lock, no database
            raise ServerError("match/not-found", "no such match")
        if match_id in self.broken:
            raise self._unavailable(match_id)
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                runtime = self.runtimes.get(match_id)
                if runtime is None:
                    loaded = await asyncio.to_thread(self._load, match_id)
                    loaded.clock, loaded.resigned = await asyncio.to_thread(
                        clocks.stored_ending, self, match_id
                    )
                    if await asyncio.to_thread(self._stored_rated, match_id):
                        self.mark_rated(loaded)
                    # the first load stored wins: a match must never have two runtimes
                    runtime = self.runtimes.setdefault(match_id, loaded)
        finally:
            if not lock.locked():
                self._loading.pop(match_id, None)
        return runtime

    def _stored_rated(self, match_id: str) -> bool:
        with self.store.session() as session:
            return session.get(RatedMatchRow, match_id) is not None

    def mark_rated(self, runtime: Runtime) -> None:
        """``runtime`` is a rated match (its mark is stored): its first moves get the grace
        window of the settings."""
        runtime.first_move_grace_ms = round(self.settings.first_move_grace_seconds * 1000)

    @staticmethod
    def _unavailable(match_id: str) -> ServerError:
        return ServerError(
            "match/unavailable",
            f"match {match_id} cannot be loaded on this server (its game or data is missing); "
            "the operator's log says why",
        )

    def _load(self, match_id: str) -> Runtime:
        stored = self.store.load(match_id)
        if stored is None:
            raise ServerError("match/not-found", f"no match {match_id}")
        if stored.status == "broken":
            raise self._unavailable(match_id)
        try:
            game = load_pinned(stored.game, stored.extras)
            state = game.replay([action for _, action, _ in stored.moves], stored.seed)
            movers = [player for player, _, _ in stored.moves]
            notations = [notation for _, _, notation in stored.moves]
        except Exception as error:  # whatever the cause, one bad match must not stop the rest
            log.error("match %s will not load and is set aside: %s", match_id, error)
            self.broken.add(match_id)
            self.store.mark_unloadable(match_id)
            raise self._unavailable(match_id) from None
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
            display=stored.game,
            extras=stored.extras,
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
            elif runtime.seats[seat].kind == "bot":  # the same code: the seat is not free
                free_seats = ", ".join(map(str, free)) or "none"
                raise ServerError(
                    "match/seat-taken",
                    f"seat {seat} of match {match_id} is a bot's seat "
                    f"(bot: {runtime.seats[seat].agent}); only human seats can be joined "
                    f"(free: {free_seats})",
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
                await clocks.started(self, runtime)
            self._broadcast(runtime, None)
        self._schedule_bots(runtime)
        return seat, token

    # --- moves ----------------------------------------------------------------------------
    async def play(
        self, runtime: Runtime, client: Client, seat: int, move: str, version: int, ack: Ack = None
    ) -> None:
        """Check and apply a human move for ``seat``; raises a coded error and changes nothing."""
        async with runtime.lock:
            self._check_turn(runtime, client, seat, version)
            await clocks.check_move(self, runtime, seat)
            action = runtime.state.move_to_action(move)
            await self._commit(runtime, seat, action, ack)
        self._schedule_bots(runtime)

    def _check_turn(self, runtime: Runtime, client: Client, seat: int, version: int) -> None:
        if seat not in client.seats:
            raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")
        if runtime.status == "open":
            raise ServerError("match/not-started", "the match waits for players to join")
        if runtime.state.is_terminal() or runtime.status == "finished":
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
        clock, on_store = clocks.move_hook(runtime, player, after, status, clocks.wall_now())
        try:
            stored = await self.writer.write(
                PendingMove(
                    runtime.id,
                    len(runtime.movers),
                    player,
                    action,
                    notation,
                    runtime.version + 1,
                    status,
                    result,
                    after.result_text() if result is not None else None,
                    on_store,
                )
            )
        except Exception as error:  # nothing changed in memory: the move can be sent again
            log.warning("match %s: a move could not be stored: %s", runtime.id, error)
            raise ServerError(
                "server/unavailable",
                "the database is unavailable right now; nothing was changed, try again",
            ) from None
        if not stored:  # another server process changed the match first
            self._broadcast(runtime, await self._refresh_locked(runtime))
            raise ServerError(
                "state/stale-version", f"the match moved on; it is at {runtime.version} now"
            )
        runtime.state = after
        runtime.movers.append(player)
        runtime.notations.append(notation)
        runtime.version += 1
        runtime.status = status
        runtime.touched = time.monotonic()
        if clock is not None:
            runtime.clock = clock
            clocks.wake(self)
        self._broadcast(runtime, (player, notation), ack)

    async def undo(
        self, runtime: Runtime, client: Client, seat: int, version: int, ack: Ack = None
    ) -> None:
        """Take back ``seat``'s last move and any bot or chance replies after it."""
        async with runtime.lock:
            if seat not in client.seats:
                raise ServerError("auth/bad-token", f"this connection does not hold seat {seat}")
            if version != runtime.version:
                raise ServerError(
                    "state/stale-version",
                    f"version {version} is stale; the match is at {runtime.version}",
                )
            reason = self._undo_refusal(runtime, seat)
            if reason is not None:
                raise ServerError("undo/not-allowed", reason)
            keep = self._undo_point(runtime, seat)
            state = await asyncio.to_thread(self._replay, runtime, keep)
            try:
                stored = await asyncio.to_thread(
                    self.store.remove_moves_from, runtime.id, keep, runtime.version + 1, "running"
                )
            except Exception as error:
                log.warning("match %s: an undo could not be stored: %s", runtime.id, error)
                raise ServerError(
                    "server/unavailable", "the database is unavailable right now; try again"
                ) from None
            if not stored:
                self._broadcast(runtime, await self._refresh_locked(runtime))
                raise ServerError(
                    "state/stale-version", f"the match moved on; it is at {runtime.version} now"
                )
            runtime.state = state
            del runtime.movers[keep:]
            del runtime.notations[keep:]
            runtime.version += 1
            runtime.status = "running"
            self._broadcast(runtime, None, ack)

    @staticmethod
    def _replay(runtime: Runtime, plies: int) -> State:
        return runtime.game.replay(runtime.state.history()[:plies], runtime.seed)

    def _undo_point(self, runtime: Runtime, seat: int) -> int:
        """The ply count after undoing ``seat``'s last move and the bot replies after it."""
        index = len(runtime.movers) - 1
        while index >= 0 and runtime.movers[index] != seat:
            index -= 1
        return index

    def _undo_refusal(self, runtime: Runtime, seat: int) -> str | None:
        """Why ``seat`` may not undo now (``None``: it may)."""
        if runtime.game.spec.hidden_information:
            return "moves in games with hidden information commit or reveal cards: no undo"
        if runtime.state.is_terminal() or runtime.status == "finished":
            return "the game is over"
        if runtime.rated:
            return "a rated match has no take-backs"
        if runtime.clock is not None:
            return clocks.undo_refusal(runtime)
        index = self._undo_point(runtime, seat)
        if index < 0:
            return "you have no move to take back"
        for mover in runtime.movers[index + 1 :]:
            if mover == CHANCE or runtime.seats[mover].kind != "bot":
                return "only your own last move can be taken back, before another player moves"
        return None

    # --- bots and chance --------------------------------------------------------------------
    def schedule_bots(self, runtime: Runtime) -> None:
        """Let the match's bots and chance move, if any is to (and this process owns it)."""
        self._schedule_bots(runtime)

    def _schedule_bots(self, runtime: Runtime) -> None:
        if runtime.bot_task is None or runtime.bot_task.done():
            runtime.bot_task = asyncio.get_running_loop().create_task(self._supervise(runtime))

    async def _supervise(self, runtime: Runtime) -> None:
        """Drive the match's bots and chance; after a failure (the database away) log it,
        wait with backoff and go on, so a brief outage never stalls a match until restart."""
        if self.cluster is not None and not await self.cluster.own(runtime.id):
            return  # another server process owns this match and drives its bots
        delay = 0.25
        while True:
            try:
                await self._drive(runtime)
                if self.cluster is not None and runtime.status == "finished":
                    await self.cluster.release(runtime.id)
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning(
                    "match %s: bot driver failed (%s); retrying in %.2f s", runtime.id, error, delay
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def _drive(self, runtime: Runtime) -> None:
        """Play chance outcomes and bot moves until a human is to move or the game ends."""
        while True:
            async with runtime.lock:
                state = runtime.state
                if runtime.status != "running" or state.is_terminal():
                    return
                player = state.current_player()
                version = runtime.version
                if player == CHANCE:
                    rng = make_rng(derive_seed(runtime.seed, "chance", len(state.history())))
                    await self._commit(runtime, CHANCE, state.sample_chance(rng))
                    continue
                seat = runtime.seats[player]
                if seat.kind != "bot" or seat.agent is None:
                    return
                snapshot = pickle.dumps(state)
            action = await self._bot_action(runtime, snapshot, seat.agent, player)
            if action is None:  # abandoned: the match ended meanwhile
                continue
            async with runtime.lock:
                if runtime.version == version:
                    await self._commit(runtime, player, action)

    async def _bot_action(
        self, runtime: Runtime, snapshot: bytes, agent: str, player: int
    ) -> int | None:
        """The bot's move, computed in the worker pool from a snapshot (no history replay);
        None when the search was abandoned because the match ended."""
        plies = len(runtime.movers)
        seed = derive_seed(runtime.seed, "seat", player, plies)
        try:
            if runtime.bots_only:
                async with self.background_slots:
                    return await self._search(runtime, snapshot, agent, seed)
            return await self._search(runtime, snapshot, agent, seed)
        except Exception:  # a broken bot must neither crash the server nor stall the match
            log.exception("bot %s failed in match %s; playing a random move", agent, runtime.id)
            rng = make_rng(derive_seed(runtime.seed, "fallback", plies))
            return int(rng.choice(runtime.state.legal_actions()))

    async def _search(self, runtime: Runtime, snapshot: bytes, agent: str, seed: int) -> int | None:
        """One bot search in the pool (None: abandoned by :meth:`stop_bots`). However it is
        cancelled, it is stopped in its worker too, so the worker is free for other bots."""
        slot = self.stops.take()
        cap = self.settings.bot_move_seconds
        job = self.executor.submit(
            stoppable, self.stops.path, slot, self.choose, snapshot, agent, seed, cap
        )
        if slot is not None:
            job.add_done_callback(lambda _job: self.stops.give_back(slot))
        runtime.search = asyncio.wrap_future(job)
        try:
            return int(await runtime.search)
        except asyncio.CancelledError:
            if not job.cancel() and slot is not None:  # already running: stop it in its worker
                self.stops.stop(slot)
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # the driver itself is cancelled
                raise
            return None
        finally:
            runtime.search = None

    def stop_bots(self, runtime: Runtime) -> None:
        """The match ended: abandon any bot search running for it (its driver then sees the
        match is over and ends as it always does)."""
        if runtime.search is not None:
            runtime.search.cancel()

    # --- several server processes on one database --------------------------------------------
    async def refresh(self, match_id: str, version: int) -> None:
        """Another process changed ``match_id`` (now at ``version``): catch up and tell our
        clients, and drive the bots if this process owns the match."""
        runtime = self.runtimes.get(match_id)
        if runtime is None:
            if self.cluster is not None and match_id in self.cluster.owned:
                self._schedule_bots(await self.runtime(match_id))  # evicted here, still ours
            return
        if runtime.version >= version:
            return
        async with runtime.lock:
            if runtime.version >= version:  # our own move, applied while we waited
                return
            last = await self._refresh_locked(runtime)
        self._broadcast(runtime, last)
        self._schedule_bots(runtime)

    async def current(self, match_id: str) -> Runtime:
        """The match as the database has it now: with several processes, the in-memory copy is
        caught up first (reads of a summary, record or replay never lag behind a move)."""
        runtime = await self.runtime(match_id)
        if self.cluster is not None:
            async with runtime.lock:
                before = runtime.version
                last = await self._refresh_locked(runtime)
            if runtime.version != before:
                self._broadcast(runtime, last)
                self._schedule_bots(runtime)
        return runtime

    async def refresh_seats(self, match_id: str) -> None:
        """Another process seated a player in ``match_id``: read the seats and status again."""
        runtime = self.runtimes.get(match_id)
        if runtime is None:
            return
        async with runtime.lock:
            stored = await asyncio.to_thread(self.store.load, match_id, 1 << 30)
            clock = await asyncio.to_thread(clocks.stored_clock, self, match_id)
            started = clock != runtime.clock  # the first turn's clock, started by that join
            runtime.clock = clock
            if stored is None or (stored.seats == runtime.seats and not started):
                return  # nothing new (e.g. this process's own join coming back)
            runtime.seats = stored.seats
            if runtime.status == "open":
                runtime.status = stored.status
        self._broadcast(runtime, None)
        self._schedule_bots(runtime)

    async def _refresh_locked(self, runtime: Runtime) -> tuple[int, str] | None:
        """Bring ``runtime`` (lock held) up to the database; returns the newest move seen."""
        plies = len(runtime.movers)
        stored = await asyncio.to_thread(self.store.load, runtime.id, plies)
        if stored is None or stored.version == runtime.version:
            return None
        if stored.version - runtime.version == len(stored.moves):  # only new moves
            state = runtime.state.clone()
            for player, action, notation in stored.moves:
                state.apply_action(action)
                runtime.movers.append(player)
                runtime.notations.append(notation)
            runtime.state = state
            runtime.seats, runtime.version, runtime.status = (
                stored.seats,
                stored.version,
                stored.status,
            )
        else:  # an undo happened elsewhere: rebuild from the start (one load, one replay)
            fresh = await asyncio.to_thread(self._load, runtime.id)
            runtime.state, runtime.movers, runtime.notations = (
                fresh.state,
                fresh.movers,
                fresh.notations,
            )
            runtime.seats, runtime.version, runtime.status = (
                fresh.seats,
                fresh.version,
                fresh.status,
            )
        runtime.touched = time.monotonic()
        runtime.clock, runtime.resigned = await asyncio.to_thread(
            clocks.stored_ending, self, runtime.id
        )
        if not runtime.movers:
            return None
        return runtime.movers[-1], runtime.notations[-1]

    async def resume(self) -> int:
        """After a restart: load every running match and let its bots continue.

        A match that will not load (its game or card data is gone) is logged, set aside as
        ``broken`` and skipped: the server starts anyway.
        """
        ids = await asyncio.to_thread(self.store.match_ids, "running")
        resumed = 0
        for match_id in ids:
            if self.cluster is not None and not await self.cluster.own(match_id):
                continue  # another live process has it
            try:
                runtime = await self.runtime(match_id)
            except ServerError:
                continue
            self._schedule_bots(runtime)
            resumed += 1
        return resumed

    async def evict_idle(self) -> int:
        """Drop from memory matches nobody watches and no bot drives (they reload on demand)."""
        now = time.monotonic()
        evicted = 0
        for match_id, runtime in list(self.runtimes.items()):
            busy = runtime.bot_task is not None and not runtime.bot_task.done()
            if runtime.clients or busy or runtime.lock.locked():
                continue
            if now - runtime.touched >= self.settings.idle_evict_seconds:
                del self.runtimes[match_id]
                self.rematches.forget(match_id)  # what memory held for it goes with it
                evicted += 1
        return evicted

    # --- clients and views ----------------------------------------------------------------
    async def connect(self, runtime: Runtime, client: Client, tokens: list[str]) -> None:
        """Register a client, proving its seats by token, and send it the current state."""
        try:
            seats = self.seats_of_tokens(runtime, tokens)
        except ServerError:
            if self.cluster is None:
                raise
            await self.refresh_seats(runtime.id)  # joined through another process just now
            seats = self.seats_of_tokens(runtime, tokens)
        # Spectators and seated connections are counted apart, each up to the cap: a gallery
        # of strangers must never keep the players out of their own match.
        cap = self.settings.sockets_per_match
        alike = sum(1 for other in runtime.clients if bool(other.seats) == bool(seats))
        if alike >= cap:
            who = "players' connections" if seats else "spectators"
            raise ServerError("server/busy", f"match {runtime.id} already has {cap} {who}")
        client.seats = seats
        runtime.clients.add(client)
        runtime.touched = time.monotonic()
        client.offer({"type": "welcome", "match": runtime.id, "seats": sorted(seats)})
        client.offer(self.state_message(runtime, client, None))

    def disconnect(self, runtime: Runtime | None, client: Client) -> None:
        """Forget a client."""
        if runtime is not None:
            runtime.clients.discard(client)
            runtime.touched = time.monotonic()

    def broadcast_state(self, runtime: Runtime, ack: Ack = None) -> None:
        """Send every client of ``runtime`` its own view of the current state."""
        self._broadcast(runtime, None, ack)

    def _broadcast(self, runtime: Runtime, last: tuple[int, str] | None, ack: Ack = None) -> None:
        """Queue each client's own view; a client too slow to keep up is dropped, not awaited.

        Every change of a match passes here, its end too (a last move, a resignation, a flag,
        an abort, another process's change): an ended match's bot search is abandoned."""
        if runtime.status != "running":
            self.stop_bots(runtime)
        for client in list(runtime.clients):
            message = self.state_message(runtime, client, last)
            if ack is not None and ack[0] is client and ack[1] is not None:
                message["ack"] = ack[1]
            if not client.offer(message):
                runtime.clients.discard(client)

    def state_message(
        self, runtime: Runtime, client: Client, last: tuple[int, str] | None
    ) -> dict[str, Any]:
        """The state as one client may see it: public view plus the view of each of its seats."""
        state = runtime.state
        hidden = runtime.game.spec.hidden_information
        to_move = runtime.to_move
        seats: dict[str, Any] = {}
        for seat in sorted(client.seats):
            mine = to_move == seat and runtime.status == "running"
            seats[str(seat)] = {
                "view": self._view(runtime, seat),
                "legal_moves": [str(m) for m in state.legal_moves()] if mine else [],
                "can_undo": self._undo_refusal(runtime, seat) is None,
            }
        message: dict[str, Any] = {
            "type": "state",
            "match": runtime.id,
            "game": runtime.display,
            "version": runtime.version,
            "status": runtime.status,
            "to_move": to_move,
            "plies": len(runtime.movers),
            "decisions": runtime.decisions,
            "public": self._view(runtime, None),
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
        clocks.result_fields(runtime, message)
        self._name_result(runtime, message)
        return message

    @staticmethod
    def _view(runtime: Runtime, seat: int | None) -> dict[str, Any]:
        """The engine's view for ``seat``, naming the match's public game string (the pinned
        card set's internal name stays inside the server)."""
        return Hub._scrub(runtime, runtime.state.view(seat))

    # --- summaries and records ------------------------------------------------------------
    def summary(self, runtime: Runtime) -> dict[str, Any]:
        """Public facts of a match for the lobby (the seed only once the game is over)."""
        state = runtime.state
        finished = runtime.status == "finished"
        summary: dict[str, Any] = {
            "id": runtime.id,
            "game": runtime.display,
            "name": runtime.game.spec.name,
            "status": runtime.status,
            "version": runtime.version,
            "plies": len(runtime.movers),
            "to_move": runtime.to_move,
            "created": runtime.created.isoformat(),
            "seats": [seat_summary(s) for s in runtime.seats],
            "result": state.returns() if state.is_terminal() else None,
            "result_text": state.result_text() if state.is_terminal() else None,
            "card_set": runtime.extras.data_name,
            "seed_commitment": runtime.commitment,
            "seed": runtime.seed if finished else None,
            "seed_salt": runtime.extras.seed_salt if finished else None,
        }
        clocks.result_fields(runtime, summary)
        self._name_result(runtime, summary)
        return summary

    @staticmethod
    def _name_result(runtime: Runtime, fields: dict[str, Any]) -> None:
        """Name the players in a frame's or summary's result words (the engine names seats)."""
        text = fields.get("result_text")
        if text:
            fields["result_text"] = Hub._named(runtime, text)

    @staticmethod
    def _named(runtime: Runtime, text: str) -> str:
        roles = [runtime.state.describe_player(p) for p in range(len(runtime.seats))]
        return named_result(text, roles, runtime.seats)

    def seats_of_tokens(self, runtime: Runtime, tokens: list[str]) -> set[int]:
        """The seats these tokens prove (a token of no seat is refused)."""
        seats = set()
        for token in tokens:
            seat = runtime.seat_of_token(token)
            if seat is None:
                raise ServerError("auth/bad-token", "a token does not match any seat of this match")
            seats.add(seat)
        return seats

    def check_replay(self, runtime: Runtime, all_seats: bool) -> None:
        """Refuse a replay that would show what the asker may not see yet."""
        if all_seats and runtime.status != "finished":
            raise ServerError(
                "match/not-finished", "every seat's view is shown only once the game is over"
            )

    def replay_frames(
        self, runtime: Runtime, seats: set[int], all_seats: bool
    ) -> list[dict[str, Any]]:
        """Each ply's views, from the start: the public view, plus each seat in ``seats`` (or
        every seat with ``all_seats``). Blocking: call it through ``asyncio.to_thread``."""
        hidden = runtime.game.spec.hidden_information
        shown = range(len(runtime.seats)) if all_seats else sorted(seats)
        moves_public = not hidden or runtime.status == "finished"
        history = list(runtime.state.history())
        finished = runtime.status == "finished"
        frames = []
        for ply, state in enumerate(runtime.game.replay_plies(history, runtime.seed)):
            views: dict[str, Any] = {"public": self._scrub(runtime, state.view(None))}
            for seat in shown:
                views[str(seat)] = self._scrub(runtime, state.view(seat))
            frame: dict[str, Any] = {
                "ply": ply,
                "player": runtime.movers[ply - 1] if ply else None,
                "move": runtime.notations[ply - 1] if ply and moves_public else None,
                # the last ply of a finished match: nobody is to move (a flag or resignation
                # ended the match there, whatever the board says)
                "to_move": TERMINAL if finished and ply == len(history) else state.current_player(),
                "views": views,
            }
            frames.append(frame)
        return frames

    @staticmethod
    def _scrub(runtime: Runtime, view: dict[str, Any]) -> dict[str, Any]:
        return {**view, "game": runtime.display} if "game" in view else view

    def match_data(self, runtime: Runtime) -> dict[str, Any]:
        """Game data the match's views refer to: its card set's name and content (AXIA)."""
        extras = runtime.extras
        if extras.data_content is None:
            return {"card_set": None, "cards": None}
        return {"card_set": extras.data_name, "cards": json.loads(extras.data_content)}

    def result_text(self, match_id: str) -> str | None:
        """The result in words of a finished match held in memory (``None`` otherwise)."""
        runtime = self.runtimes.get(match_id)
        if runtime is None or not runtime.state.is_terminal():
            return None
        return self._named(runtime, runtime.state.result_text())

    def record(self, runtime: Runtime, finished: datetime | None = None) -> GameRecord:
        """The game record of a finished match (``finished``: when it ended, as stored)."""
        if runtime.status != "finished":
            raise ServerError("match/not-finished", "records of unfinished matches stay private")
        moves = [
            RecordedMove(player, notation, action)
            for player, notation, action in zip(
                runtime.movers, runtime.notations, runtime.state.history(), strict=True
            )
        ]
        names = [
            s.name or (f"bot: {s.agent}" if s.agent else f"seat {s.seat}") for s in runtime.seats
        ]
        return GameRecord(
            game=runtime.display,
            seed=runtime.seed,
            players=names,
            moves=moves,
            # a flagged game's board never ended: no engine result (the summary has the flag's)
            result=runtime.state.returns() if runtime.state.is_terminal() else None,
            started=runtime.created.isoformat(),
            finished=None if finished is None else finished.isoformat(),
        )
