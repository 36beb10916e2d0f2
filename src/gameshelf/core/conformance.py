"""Reusable conformance checks that every game's tests run.

They play seeded random games and check, at every visited state, the invariants the protocol
promises: legal moves exist unless the game is over, notation and ids are a bijection, clones are
independent, positions round-trip, chance outcomes are distributions, returns respect the spec,
and a record replays to the identical final state. Besides, :func:`check_undo`,
:func:`check_replay` and :func:`check_random_rollout` hold a game's ``undo``, ``Game.replay``
and ``random_rollout`` (its own or the generic one) to the protocol's contracts.
``tests/contract/test_conformance.py`` runs all of them on every registered game and each of
its declared option sets. Failures raise ``AssertionError`` with the game string, the seed and
the ply so they can be reproduced.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .errors import GameshelfError, IllegalMove, InvalidPosition
from .game import CHANCE, TERMINAL, Game, State
from .record import parse_record, record_from_state, replay
from .rng import make_rng


@dataclass
class PlayoutStats:
    """What the random playouts saw: game lengths and per-player results."""

    games: int = 0
    plies: int = 0
    longest: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)


class ConformanceError(AssertionError):
    """An invariant of the game protocol does not hold."""


def _fail(game: Game, seed: int, ply: int, message: str) -> None:
    raise ConformanceError(f"{game.game_string} seed={seed} ply={ply}: {message}")


def check_state(game: Game, state: State, seed: int = 0, ply: int = 0) -> None:
    """Check the per-state invariants of the protocol on ``state``."""
    spec = game.spec
    player = state.current_player()
    actions = state.legal_actions()
    if state.is_terminal():
        if actions or player != TERMINAL:
            _fail(game, seed, ply, "a terminal state offers moves or a player to move")
        returns = state.returns()
        if len(returns) != spec.num_players:
            _fail(game, seed, ply, f"returns has {len(returns)} entries")
        for value in returns:
            if not spec.min_utility - 1e-9 <= value <= spec.max_utility + 1e-9:
                _fail(game, seed, ply, f"return {value} outside the spec bounds")
        if spec.utility_sum is not None and not math.isclose(sum(returns), spec.utility_sum):
            _fail(game, seed, ply, f"returns {returns} do not sum to {spec.utility_sum}")
        return
    if not actions:
        _fail(game, seed, ply, "a non-terminal state has no legal move")
    if actions != sorted(set(actions)):
        _fail(game, seed, ply, "legal actions are not ascending and unique")
    if any(r != 0 for r in state.returns()):
        _fail(game, seed, ply, "a non-terminal state has non-zero returns")
    if player == CHANCE:
        _check_chance(game, state, actions, seed, ply)
    else:
        if not 0 <= player < spec.num_players:
            _fail(game, seed, ply, f"current player {player} out of range")
        if actions[0] < 0 or actions[-1] >= spec.num_distinct_actions:
            _fail(game, seed, ply, "an action id lies outside num_distinct_actions")
    _check_notation(game, state, actions, seed, ply)
    _check_position(game, state, seed, ply)


def _check_chance(game: Game, state: State, actions: list[int], seed: int, ply: int) -> None:
    outcomes = state.chance_outcomes()
    if sorted(a for a, _ in outcomes) != actions:
        _fail(game, seed, ply, "chance outcomes differ from legal actions")
    total = sum(p for _, p in outcomes)
    if not math.isclose(total, 1.0, rel_tol=1e-9) or any(p <= 0 for _, p in outcomes):
        _fail(game, seed, ply, f"chance probabilities sum to {total}")
    if len(outcomes) > game.spec.max_chance_outcomes:
        _fail(game, seed, ply, "more chance outcomes than max_chance_outcomes")


def _check_notation(game: Game, state: State, actions: list[int], seed: int, ply: int) -> None:
    texts = [state.action_to_string(a) for a in actions]
    if len(set(texts)) != len(texts):
        _fail(game, seed, ply, f"two legal moves share notation: {texts}")
    for action, text in zip(actions, texts, strict=True):
        if state.parse_action(text) != action:
            _fail(game, seed, ply, f"notation {text!r} parses to another action than {action}")
    moves = state.legal_moves()
    if [m.action for m in moves] != actions or [str(m) for m in moves] != texts:
        _fail(game, seed, ply, "legal_moves disagrees with legal_actions")


def _check_position(game: Game, state: State, seed: int, ply: int) -> None:
    text = state.position()
    again = game.state_from_position(text)
    if again.position() != text:
        _fail(game, seed, ply, f"position does not round-trip: {text!r} -> {again.position()!r}")
    if again.legal_actions() != state.legal_actions():
        _fail(game, seed, ply, "a state read from its position has other legal moves")
    json.dumps(state.view(None))
    for player in range(game.spec.num_players):
        json.dumps(state.view(player))


def check_clone_independence(game: Game, state: State, seed: int = 0, ply: int = 0) -> None:
    """Applying a move to a clone must leave the original untouched."""
    if state.is_terminal():
        return
    before = state.position()
    copy = state.clone()
    if copy.position() != before:
        _fail(game, seed, ply, "a clone differs from its original")
    copy.apply_action(copy.legal_actions()[0])
    if state.position() != before:
        _fail(game, seed, ply, "applying a move to a clone changed the original")


def random_playouts(
    game: Game, games: int = 100, seed: int = 0, check_every: int = 1, check_records: bool = True
) -> PlayoutStats:
    """Play ``games`` seeded random games, checking invariants every ``check_every`` plies."""
    stats = PlayoutStats()
    for index in range(games):
        game_seed = seed + index
        rng = make_rng(game_seed)
        state = game.new_initial_state(game_seed)
        ply = 0
        while True:
            if ply % check_every == 0 or state.is_terminal():
                check_state(game, state, game_seed, ply)
                check_clone_independence(game, state, game_seed, ply)
            if state.is_terminal():
                break
            if ply > game.spec.max_game_length:
                _fail(game, game_seed, ply, "the game runs past max_game_length")
            if state.is_chance_node():
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            ply += 1
        stats.games += 1
        stats.plies += ply
        stats.longest = max(stats.longest, ply)
        stats.outcomes[state.result_text()] += 1
        if check_records:
            _check_record(game, state, game_seed, ply)
    return stats


def _check_record(game: Game, state: State, seed: int, ply: int) -> None:
    record = record_from_state(state, seed=seed)
    again = parse_record(json.loads(record.dumps()))
    states = replay(again)
    if states[-1].position() != state.position():
        _fail(game, seed, ply, "record replay does not reach the same final position")
    if states[-1].returns() != state.returns():
        _fail(game, seed, ply, "record replay gives another result")


def _random_action(state: State, rng: random.Random) -> int:
    if state.is_chance_node():
        return state.sample_chance(rng)
    return rng.choice(state.legal_actions())


def _snapshot(state: State) -> tuple[Any, ...]:
    """What two states must share to count as the same (history included)."""
    return (
        state.position(),
        state.history(),
        state.current_player(),
        state.legal_actions(),
        state.returns(),
    )


def check_undo(game: Game, games: int = 3, seed: int = 0, every: int = 1) -> int:
    """In seeded random games, ``undo`` after an action gives back the state before it.

    At every ``every``-th ply (and the last) a clone is advanced by one action and taken
    back: its position, history, player, legal actions and returns must equal the state's.
    Undo at the start must refuse with :class:`IllegalMove` and change nothing. Returns the
    number of undos checked.
    """
    checked = 0
    for index in range(games):
        game_seed = seed + index
        rng = make_rng(game_seed)
        state = game.new_initial_state(game_seed)
        before = _snapshot(state)
        try:
            state.clone().undo()
        except IllegalMove:
            pass
        else:
            _fail(game, game_seed, 0, "undo at the start did not refuse")
        if _snapshot(state) != before:
            _fail(game, game_seed, 0, "a refused undo changed the state")
        ply = 0
        while not state.is_terminal():
            action = _random_action(state, rng)
            probe = state.clone()
            probe.apply_action(action)
            if ply % every == 0 or probe.is_terminal():
                probe.undo()
                if _snapshot(probe) != _snapshot(state):
                    _fail(game, game_seed, ply, f"undo after action {action} does not restore")
                checked += 1
            state.apply_action(action)
            ply += 1
    return checked


def check_replay(game: Game, games: int = 3, seed: int = 0) -> None:
    """``Game.replay`` rebuilds random games from their ids and from their notation, and
    refuses a move that does not fit, naming its ply."""
    for index in range(games):
        game_seed = seed + index
        rng = make_rng(game_seed)
        state = game.new_initial_state(game_seed)
        texts: list[str] = []
        while not state.is_terminal():
            action = _random_action(state, rng)
            texts.append(state.action_to_string(action))
            state.apply_action(action)
        history = state.history()
        for again in (game.replay(history, game_seed), game.replay(texts, game_seed)):
            if _snapshot(again) != _snapshot(state):
                _fail(game, game_seed, len(history), "replay does not rebuild the same state")
        # A move played after the end cannot replay: the refusal names the ply after the end.
        try:
            game.replay([*history, history[-1]], game_seed)
        except InvalidPosition as exc:
            if f"ply {len(history)}:" not in str(exc):
                _fail(game, game_seed, len(history), f"replay refusal names no ply: {exc}")
        else:
            _fail(game, game_seed, len(history), "replay accepted a move after the end")
        not_a_move: list[Any] = [object()]
        try:
            game.replay(not_a_move)
        except GameshelfError as exc:
            if "ply 0:" not in str(exc):
                _fail(game, game_seed, 0, f"replay refusal names no ply: {exc}")
        else:
            _fail(game, game_seed, 0, "replay accepted something that is not a move")


def generic_rollout(state: State, rng: random.Random, max_plies: int) -> int:
    """The protocol's default :meth:`State.random_rollout`, whatever the game overrides."""
    return State.random_rollout(state, rng, max_plies)


def check_random_rollout(game: Game, games: int = 10, seed: int = 0) -> None:
    """The state's ``random_rollout`` plays exactly the generic loop's games, seed by seed.

    From varied starts (the start and positions reached by random play), for several limits
    on the plies, both must play the same number of plies, reach the same state and leave
    their random generators in the same state.
    """
    for index in range(games):
        game_seed = seed + index
        start = game.new_initial_state(game_seed)
        generic_rollout(start, make_rng(1000 + game_seed), (game_seed * 37) % 120)
        for max_plies in (0, 1, 7, game.spec.max_game_length):
            fast, slow = start.clone(), start.clone()
            fast_rng, slow_rng = make_rng(game_seed), make_rng(game_seed)
            played = fast.random_rollout(fast_rng, max_plies)
            expected = generic_rollout(slow, slow_rng, max_plies)
            where = f"random_rollout(max_plies={max_plies})"
            if played != expected:
                _fail(game, game_seed, 0, f"{where} played {played} plies, the loop {expected}")
            if _snapshot(fast) != _snapshot(slow):
                _fail(game, game_seed, played, f"{where} reached another state than the loop")
            if fast_rng.getstate() != slow_rng.getstate():
                _fail(game, game_seed, played, f"{where} drew its randomness differently")
            if not (played == max_plies or fast.is_terminal()):
                _fail(game, game_seed, played, f"{where} stopped early")
