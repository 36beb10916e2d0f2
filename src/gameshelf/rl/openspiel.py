"""OpenSpiel adapter: our games as Python games registered with ``pyspiel``.

Importing this module registers every registered game (plug-ins included) as ``gameshelf_NAME``
(``gameshelf_axiom``, ``gameshelf_cage``, ``gameshelf_axia`` ...)::

    import pyspiel
    import gameshelf.rl.openspiel  # registers the games
    game = pyspiel.load_game("gameshelf_cage(players=3)")

Every option of a game is a game parameter with the option's default (integers and booleans
keep their type, everything else is text; ``pyspiel.load_game("gameshelf_axiom",
{"setup": "C(0,0,1)x+ y-; ..."})`` passes text with commas). ``GameType`` and ``GameInfo`` are
computed per configuration: e.g. the two-player Cage is zero-sum, three players are general-sum.

Observations come from :mod:`gameshelf.rl.encodings`. Information states:

* the Cage and Axiom (perfect information): the string is the action history (perfect recall);
  observation strings are the position text and observation tensors the encoder's.
* AXIA: strings and tensors are built from ``state.view(player)`` only — the seat's own cards and
  the public table, never another seat's cards or the decks. The information state is this view
  (Markov: it does not replay the seat's memory of cards it no longer sees).
  :meth:`GameshelfState.resample_from_infostate` draws a full world consistent with that view
  using the game's determiniser (:func:`gameshelf.agents.determinize.determinizer_for`: every
  card the seat cannot see is redealt into the same hidden places); OpenSpiel's ``ISMCTSBot``
  uses it.

A resampled state starts an empty OpenSpiel ``history()`` (its true history would name the
hidden cards); it plays, clones and serialises like any other state.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from gameshelf.core.game import Game, State
from gameshelf.core.options import OptionSpec
from gameshelf.core.registry import available_games, game_entry

from .encodings import Encoder, Tensor, encoder_for

PREFIX = "gameshelf_"
DEFAULT_TEXT = "default"
"""Parameter value meaning 'the option's default' for options whose default is no value."""


# --------------------------------------------------------------------------- parameters


def parameter_default(spec: OptionSpec) -> int | bool | str:
    """The pyspiel parameter default of one option (int and bool keep their type)."""
    if spec.kind == "int":
        return int(spec.default)
    if spec.kind == "bool":
        return bool(spec.default)
    if spec.default is None and spec.formatter is None:
        return DEFAULT_TEXT
    return spec.format(spec.default)


def parameter_specification(name: str) -> dict[str, int | bool | str]:
    """Every option of game ``name`` as a pyspiel parameter with its default."""
    return {spec.name: parameter_default(spec) for spec in game_entry(name).options}


def option_values(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """Option values of game ``name`` from pyspiel parameters (checked by the option specs)."""
    entry = game_entry(name)
    known = {spec.name: spec for spec in entry.options}
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(
            f"{PREFIX}{name} has no parameter {unknown[0]!r}; its parameters are: "
            + ", ".join(sorted(known))
        )
    values: dict[str, Any] = {}
    for spec in entry.options:
        given = params.get(spec.name, parameter_default(spec))
        if given == parameter_default(spec) and type(given) is type(parameter_default(spec)):
            values[spec.name] = spec.default
        elif isinstance(given, bool):
            values[spec.name] = spec.parse("true" if given else "false")
        else:
            values[spec.name] = spec.parse(str(given))
    return values


@lru_cache(maxsize=64)
def _load(name: str, items: tuple[tuple[str, Any], ...]) -> Game:
    entry = game_entry(name)
    return entry.factory(option_values(name, dict(items)))


def gameshelf_game(name: str, params: dict[str, Any]) -> Game:
    """The (cached) gameshelf game of ``name`` configured by pyspiel ``params``."""
    return _load(name, tuple(sorted(params.items())))


# --------------------------------------------------------------------------- game type / info


def _utility(game: Game) -> Any:
    spec = game.spec
    if spec.utility_sum is None:
        return pyspiel.GameType.Utility.GENERAL_SUM
    if spec.utility_sum == 0.0:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.CONSTANT_SUM


def game_type(name: str, game: Game | None = None) -> Any:
    """The ``pyspiel.GameType`` of ``name`` (of one configuration when ``game`` is given)."""
    entry = game_entry(name)
    probe = game if game is not None else entry.factory(option_values(name, {}))
    spec = probe.spec
    hidden = spec.hidden_information
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"gameshelf {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if spec.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=_utility(probe) if game is not None else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=hidden,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
    )


def game_info(game: Game) -> Any:
    """The ``pyspiel.GameInfo`` of a configured game, read off its ``GameSpec``."""
    spec = game.spec
    return pyspiel.GameInfo(
        num_distinct_actions=spec.num_distinct_actions,
        max_chance_outcomes=spec.max_chance_outcomes,
        num_players=spec.num_players,
        min_utility=float(spec.min_utility),
        max_utility=float(spec.max_utility),
        utility_sum=spec.utility_sum,
        max_game_length=spec.max_game_length,
    )


# --------------------------------------------------------------------------- the state box


class _Box:
    """Holds the gameshelf state inside a pyspiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and serialises it by
    pickling them; the box turns both into the engine's own ``clone()`` and a compact record
    (game string and action history, or the position text for a resampled world).
    """

    __slots__ = ("replayable", "state")

    def __init__(self, state: State, replayable: bool = True) -> None:
        self.state = state
        self.replayable = replayable

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.state.clone(), self.replayable)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        state = self.state
        record: Any = state.history() if self.replayable else state.position()
        return (_unbox, (state.game.game_string, self.replayable, record))


@lru_cache(maxsize=64)
def _game_from_string(game_string: str) -> Game:
    from gameshelf.core.registry import load

    return load(game_string)


def _unbox(game_string: str, replayable: bool, record: Any) -> _Box:
    game = _game_from_string(game_string)
    if not replayable:
        return _Box(game.state_from_position(record), False)
    state = game.new_initial_state()
    for action in record:
        state.apply_action(int(action))
    return _Box(state)


# --------------------------------------------------------------------------- game and state


class GameshelfGame(pyspiel.Game):  # type: ignore[misc]
    """A gameshelf game as an OpenSpiel Python game (subclassed once per game name)."""

    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.gs_game = gameshelf_game(self.NAME, params)
        self.encoder = encoder_for(self.gs_game)
        # OpenSpiel builds a fresh initial state for every clone before copying into it; a
        # copy of this one is much cheaper than the engine's set-up (no chance, no seed used).
        self.initial = self.gs_game.new_initial_state()
        super().__init__(game_type(self.NAME, self.gs_game), game_info(self.gs_game), params)

    def new_initial_state(self, *args: Any) -> GameshelfState:
        """The start of a game (chance, if any, is an explicit chance node)."""
        return GameshelfState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> GameshelfObserver:
        """An observer for the requested observation type (see the module docstring)."""
        return GameshelfObserver(self, iig_obs_type, params)


class GameshelfState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping a gameshelf state (``inner``)."""

    def __init__(self, game: GameshelfGame, inner: State | None = None) -> None:
        super().__init__(game)
        state = inner if inner is not None else game.initial.clone()
        self._box = _Box(state)

    @property
    def inner(self) -> State:
        """The gameshelf state (mutating it bypasses OpenSpiel's history: read only)."""
        return self._box.state

    def current_player(self) -> int:
        """The player to move, ``pyspiel.PlayerId.CHANCE`` (-1) or ``TERMINAL`` (-4)."""
        return self._box.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._box.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at a chance node."""
        return self._box.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._box.state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._box.state.action_to_string(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        """Final utilities (zeros before the end)."""
        return [float(value) for value in self._box.state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GameshelfState:
        """A state drawn from ``player_id``'s information set (a copy when nothing is hidden)."""
        inner = self._box.state
        if not inner.game.spec.hidden_information:
            same: GameshelfState = self.clone()
            return same
        from gameshelf.agents.determinize import determinizer_for

        determinize, _ = determinizer_for(inner.game)
        seed = _seed_from(probability_sampler)
        world = determinize(inner, int(player_id), random.Random(seed))
        game: GameshelfGame = self.get_game()
        state = GameshelfState(game, world)
        state._box.replayable = False
        return state

    def __str__(self) -> str:
        return self._box.state.position()


def _seed_from(sampler: Any) -> int:
    """A seed drawn from OpenSpiel's probability sampler (a callable giving floats in [0, 1))."""
    try:
        value = float(sampler())
    except TypeError:
        return random.getrandbits(53)
    return int(value * (1 << 53))


# --------------------------------------------------------------------------- observers


class GameshelfObserver:
    """OpenSpiel ``PyObserver``: ``set_from`` fills ``tensor``/``dict``; ``string_from``."""

    def __init__(self, game: GameshelfGame, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.game = game
        self.encoder: Encoder = game.encoder
        spec = game.gs_game.spec
        self.hidden = spec.hidden_information
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if self.hidden and private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{PREFIX}{spec.name} offers no observation of every seat's cards")
        self.public_only = self.hidden and private == pyspiel.PrivateInfoType.NONE
        self.tensor: Tensor | None
        self.dict: dict[str, Tensor]
        if self.perfect_recall and not self.hidden:
            self.tensor, self.dict = None, {}
        else:
            self.tensor, self.dict = self.encoder.new_buffer()

    def set_from(self, state: GameshelfState, player: int) -> None:
        """Write ``state`` as seen by ``player`` into ``self.tensor``."""
        if self.tensor is None:
            return
        self.tensor.fill(0.0)
        inner = state.inner
        if self.hidden and self.public_only:
            fill_view = getattr(self.encoder, "fill_view", None)
            if fill_view is None:
                raise ValueError(f"{PREFIX}{inner.game.spec.name}'s encoder draws no public view")
            fill_view(inner.view(None), player, self.dict)
        else:
            self.encoder.fill(inner, player, self.dict)

    def string_from(self, state: GameshelfState, player: int) -> str:
        """The observation (or information-state) string of ``player``."""
        inner = state.inner
        if self.hidden:
            from .encodings import view_text

            return view_text(inner.view(None if self.public_only else player))
        if self.perfect_recall:
            return " ".join(str(action) for action in state.history())
        return self.encoder.text(inner, player)


# --------------------------------------------------------------------------- registration


def _make_class(name: str) -> type[GameshelfGame]:
    return type(
        f"Gameshelf{name.capitalize()}Game",
        (GameshelfGame,),
        {"NAME": name, "__doc__": f"``{PREFIX}{name}`` for OpenSpiel.", "__module__": __name__},
    )


GAME_CLASSES: dict[str, type[GameshelfGame]] = {}
"""The pyspiel game class of every registered game, by game name (filled by :func:`register`)."""


def register() -> None:
    """Register every registered game with pyspiel (done on import; registering twice is
    harmless, and a game registered by hand since is added)."""
    registered = set(pyspiel.registered_names())
    for name in available_games():
        cls = GAME_CLASSES.setdefault(name, _make_class(name))
        if PREFIX + name not in registered:
            pyspiel.register_game(game_type(name), cls)


def load_game(game_string: str) -> Any:
    """``pyspiel.load_game`` for a gameshelf game string: ``load_game("cage(players=3)")``."""
    from gameshelf.core.options import parse_game_string

    parsed = parse_game_string(game_string)
    entry = game_entry(parsed.name)
    specs = {spec.name: spec for spec in entry.options}
    params: dict[str, Any] = {}
    for key, text in parsed.options:
        spec = specs.get(key)
        if spec is not None and spec.kind == "int":
            params[key] = int(spec.parse(text))
        elif spec is not None and spec.kind == "bool":
            params[key] = bool(spec.parse(text))
        else:
            params[key] = text
    return pyspiel.load_game(PREFIX + entry.name, params)


register()

__all__ = [
    "GAME_CLASSES",
    "GameshelfGame",
    "GameshelfObserver",
    "GameshelfState",
    "game_info",
    "game_type",
    "load_game",
    "register",
]
