"""One game between agents: seeded, timed per move, returned as plain data plus its record."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from gameshelf.agents import make_agent
from gameshelf.agents.packs import pack_for
from gameshelf.core.record import now_iso, record_from_state
from gameshelf.core.registry import load
from gameshelf.core.rng import derive_seed, make_rng


@dataclass(frozen=True)
class MatchSpec:
    """What to play: the game string, one agent name per seat, a seed and an index."""

    game: str
    seats: tuple[str, ...]
    seed: int
    index: int = 0


@dataclass
class MatchResult:
    """How a game ended: returns per seat, plies, thinking time per seat, and the record."""

    spec: MatchSpec
    returns: list[float]
    plies: int
    think_time: list[float]
    moves: list[int]
    record: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain data (what crosses process and Ray boundaries)."""
        return {
            "index": self.spec.index,
            "game": self.spec.game,
            "seats": list(self.spec.seats),
            "seed": self.spec.seed,
            "returns": self.returns,
            "plies": self.plies,
            "think_time": self.think_time,
            "moves": self.moves,
            "extra": self.extra,
        }


def play_match(spec: MatchSpec) -> MatchResult:
    """Play one game to the end. Chance is drawn from a seed derived from ``spec.seed``."""
    game = load(spec.game)
    players = game.spec.num_players
    if len(spec.seats) != players:
        raise ValueError(f"{spec.game} needs {players} seats, got {len(spec.seats)}")
    agents = [
        make_agent(name, game, derive_seed(spec.seed, "seat", seat))
        for seat, name in enumerate(spec.seats)
    ]
    chance_rng = make_rng(derive_seed(spec.seed, "chance"))
    state = game.new_initial_state(spec.seed)
    started = now_iso()
    think = [0.0] * players
    moves = [0] * players
    try:
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(chance_rng))
                continue
            seat = state.current_player()
            clock = time.perf_counter()
            action = agents[seat].step(state)
            think[seat] += time.perf_counter() - clock
            moves[seat] += 1
            state.apply_action(action)
    finally:
        for agent in agents:
            agent.close()
    names = [f"{name} (seat {seat})" for seat, name in enumerate(spec.seats)]
    record = record_from_state(state, names, seed=spec.seed, started=started)
    figures = pack_for(game).results  # a scored game: the tables show mean scores and ranks
    extra: dict[str, Any] = {} if figures is None else dict(figures(state))
    return MatchResult(
        spec=spec,
        returns=state.returns(),
        plies=len(state.history()),
        think_time=think,
        moves=moves,
        record=record.to_json(),
        extra=extra,
    )


def play_to_data(spec: MatchSpec) -> dict[str, Any]:
    """Play one game and return plain data with its record (what a worker sends back)."""
    result = play_match(spec)
    data = result.to_json()
    data["record"] = result.record
    return data
