"""Side-by-side speed benchmark: our engines against OpenSpiel's, in one process run.

    gameshelf bench [--quick] [--json FILE] [--png FILE]

(``benchmarks/bench.py`` in a source checkout is the same program.)

Measures, interleaved in rounds (and each round's playout time in short slices taken in turn)
so that a change of machine load hits every row alike:

* random-playout steps/s of every registered game through the fast path (``legal_actions`` /
  ``apply_action``, chance outcomes drawn from ``chance_outcomes``), and of Axiom with each
  of ``sceptre_clearance=tall``, ``allow_overhang=true`` and ``require_connected=true``
  (compared with Axiom's default); each game runs the engine ``gameshelf.load`` gives it
  (compiled with mypyc, or Python source: :mod:`gameshelf.core.engines`), named in the row
  labels and the report; ``GAMESHELF_PURE=1 gameshelf bench`` measures the Python source;
* the same loop over OpenSpiel's C++ ``connect_four``, ``chess``, ``backgammon`` and its Python
  ``python_tic_tac_toe``, driven from Python;
* our games through our OpenSpiel adapter (``gameshelf_cage`` ...);
* MCTS simulations/s: our :class:`~gameshelf.agents.MCTSAgent` against OpenSpiel's Python
  ``MCTSBot`` with a ``RandomRolloutEvaluator`` on the same game through the adapter, both with
  full random rollouts, UCT constant 1.4 and terminal solving, from the start position
  (AXIA in solo mode: plain MCTS is for one player or perfect information); our rollouts go
  through the state's ``random_rollout`` (the game's own where it overrides the protocol's
  loop: same games seed by seed, checked by ``tests/contract/test_conformance.py``);
* peak traced memory of a playout and bytes per mid-game state of each of our games.

It prints a table of absolute figures and the ratios against their targets, and can
write JSON and a PNG chart. The reference rows need OpenSpiel (``pip install 'gameshelf[rl]'``)
and the chart needs matplotlib (``gameshelf[arena]``): a row whose package is missing is
reported as missing, with the package to install, and the comparisons it feeds are listed as
skipped at the end of the table.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pickle
import platform
import random
import sys
import time
import tracemalloc
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gameshelf import extras
from gameshelf.agents.packs import pack_named
from gameshelf.core.errors import GameshelfError
from gameshelf.core.registry import available_games
from gameshelf.extras import extra_for

ADAPTER_REFERENCE = "python_tic_tac_toe"
"""The OpenSpiel Python game every game's adapter playouts are held to."""
ADAPTER_RATIO = 2.0
MCTS_RATIO = 3.0
UCT_C = 1.4
SLICES = 8
"""Each round gives every playout row its seconds in this many slices, taken in turn, so that
a burst of load from elsewhere on the machine falls on all the rows of a ratio alike."""


def measured_games() -> list[str]:
    """The measured games: every registered game (plug-ins too), sorted."""
    return available_games()


def mcts_game(name: str) -> str:
    """The game string of ``name``'s MCTS rows (its pack may name options)."""
    return pack_named(name).bench.mcts_game or name


def variants() -> list[str]:
    """Game strings with rules of their own, each measured against its game's default."""
    return [v for name in measured_games() for v in pack_named(name).bench.variants]


def openspiel_games() -> list[str]:
    """The OpenSpiel reference games: each pack's, and the adapter rows' Python game."""
    named = {pack_named(name).bench.reference for name in measured_games()}
    return sorted((named - {""}) | {ADAPTER_REFERENCE})


def targets() -> list[tuple[str, str, str, float]]:
    """Each ratio the bench checks: ``(name, our row, reference row, minimum ratio)``."""
    out: list[tuple[str, str, str, float]] = []
    ref = "playout/openspiel/"
    for name in measured_games():
        facts = pack_named(name).bench
        if facts.reference:
            out.append(
                (
                    f"{name} fast path vs C++ {facts.reference}",
                    f"playout/ours/{name}",
                    f"{ref}{facts.reference}",
                    facts.ratio,
                )
            )
        out.extend(
            (f"{v} vs {name}'s default", f"playout/ours/{v}", f"playout/ours/{name}", ratio)
            for v, ratio in ((v, facts.variant_ratio) for v in facts.variants)
        )
    for name in measured_games():
        out.append(
            (
                f"{name} through the adapter vs {ADAPTER_REFERENCE}",
                f"playout/adapter/{name}",
                f"{ref}{ADAPTER_REFERENCE}",
                ADAPTER_RATIO,
            )
        )
    for name in measured_games():
        out.append(
            (
                f"our MCTS vs MCTSBot on {name}",
                f"mcts/ours/{name}",
                f"mcts/openspiel/{name}",
                MCTS_RATIO,
            )
        )
    return out


@dataclass
class Row:
    """One measured figure: accumulated over the rounds, or missing with the reason."""

    key: str
    kind: str  # playout | mcts | memory
    label: str
    unit: str
    count: float = 0.0
    seconds: float = 0.0
    value: float | None = None
    games: int = 0
    missing: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def add(self, count: float, seconds: float, games: int = 0) -> None:
        self.count += count
        self.seconds += seconds
        self.games += games
        self.value = self.count / self.seconds if self.seconds > 0 else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "label": self.label,
            "unit": self.unit,
            "value": self.value,
            "count": self.count,
            "seconds": self.seconds,
            "games": self.games,
            "missing": self.missing,
            **self.extra,
        }


# --------------------------------------------------------------------------- measuring loops


def _pick_chance(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    x = rng.random()
    for action, probability in outcomes:
        x -= probability
        if x < 0:
            return int(action)
    return int(outcomes[-1][0])


class Playout:
    """Random playouts that go on across timed slices: a game left unfinished at the end of one
    slice continues in the next, a finished game is replaced by a new one (its creation is timed
    too, as a playout loop pays it). Works on our states and on pyspiel states alike (the same
    method names)."""

    def __init__(self, new_state: Callable[[], Any], rng: random.Random) -> None:
        self.new_state = new_state
        self.rng = rng
        self.state: Any = None

    def run(self, seconds: float) -> tuple[int, float, int]:
        """Play for about ``seconds``: ``(steps, seconds taken, games finished)``."""
        choice, rng = self.rng.choice, self.rng
        steps = games = 0
        began = time.perf_counter()
        deadline = began + seconds
        state = self.state if self.state is not None else self.new_state()
        try:
            while True:
                for _ in range(32):
                    if state.is_terminal():
                        games += 1
                        state = self.new_state()
                    elif state.is_chance_node():
                        state.apply_action(_pick_chance(state, rng))
                        steps += 1
                    else:
                        state.apply_action(choice(state.legal_actions()))
                        steps += 1
                now = time.perf_counter()
                if now >= deadline:
                    return steps, now - began, games
        finally:
            self.state = state


def _our_factory(name: str) -> Callable[[], Any]:
    import gameshelf

    game = gameshelf.load(name)
    counter = iter(range(1 << 62))
    return lambda: game.new_initial_state(seed=next(counter))


def engines() -> dict[str, str]:
    """Which engine each measured game runs: ``compiled`` or ``pure``."""
    from gameshelf.core import engines as chosen
    from gameshelf.core.registry import game_entry

    return {name: chosen.engine_of_game(game_entry(name)) for name in measured_games()}


def _spiel_factory(name: str) -> Callable[[], Any]:
    pyspiel = importlib.import_module("pyspiel")
    if name.startswith("python_"):
        importlib.import_module("open_spiel.python.games")
    game = pyspiel.load_game(name)
    return game.new_initial_state  # type: ignore[no-any-return]


def _adapter_factory(name: str) -> Callable[[], Any]:
    adapter = importlib.import_module("gameshelf.rl.openspiel")
    game = adapter.load_game(name)
    return game.new_initial_state  # type: ignore[no-any-return]


def _our_mcts(game_string: str, sims: int, seed: int) -> Callable[[], int]:
    """One search of ``sims`` iterations from the start; returns the iterations run."""
    import gameshelf
    from gameshelf.agents import MCTSAgent

    game = gameshelf.load(game_string)
    agent = MCTSAgent(
        game,
        seed=seed,
        iterations=sims,
        exploration=UCT_C,
        rollout_depth=game.spec.max_game_length,  # full random rollouts, as MCTSBot's
        reuse_tree=False,
    )
    start = game.new_initial_state(seed=seed)
    while start.is_chance_node():
        start.apply_action(start.sample_chance(random.Random(seed)))

    def search() -> int:
        agent.step(start)
        return int(agent.last_iterations)

    return search


def _spiel_mcts(game_string: str, sims: int, seed: int) -> Callable[[], int]:
    """One ``MCTSBot`` search of ``sims`` simulations through the adapter; returns them."""
    adapter = importlib.import_module("gameshelf.rl.openspiel")
    import numpy as np

    mcts = importlib.import_module("open_spiel.python.algorithms.mcts")

    game = adapter.load_game(game_string)
    rs = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=UCT_C,
        max_simulations=sims,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
        solve=True,
        random_state=rs,
    )
    start = game.new_initial_state()
    while start.is_chance_node():
        start.apply_action(start.chance_outcomes()[0][0])

    def search() -> int:
        root = bot.mcts_search(start)
        return int(root.explore_count)

    return search


def timed_searches(search: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Repeat ``search`` for about ``seconds`` (at least once): ``(simulations, seconds)``."""
    sims = 0
    began = time.perf_counter()
    while True:
        sims += search()
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return sims, elapsed


# --------------------------------------------------------------------------- memory


def deep_size(obj: Any, skip: set[int] | None = None) -> int:
    """``sys.getsizeof`` summed over everything ``obj`` reaches (each object once).

    Ids in ``skip`` (the game object) are not followed. Objects shared with other states
    (interned tuples, small ints) are counted, so this is an upper estimate.
    """
    seen = set(skip or ())
    total = 0
    stack = [obj]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type) or callable(item):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif not isinstance(item, (str, bytes, int, float, bool, type(None))):
            if hasattr(item, "__dict__"):
                stack.append(vars(item))
            stack.extend(_field_values(item))
    return total


def _field_values(item: Any) -> list[Any]:
    """The values of ``item``'s fields kept outside a ``__dict__``: ``__slots__`` and the
    attribute descriptors of compiled classes (mypyc's native classes have no ``__dict__``)."""
    values = []
    for cls in type(item).__mro__:
        for name, attribute in vars(cls).items():
            if isinstance(attribute, (types.GetSetDescriptorType, types.MemberDescriptorType)):
                if name in ("__dict__", "__weakref__"):
                    continue
                try:
                    values.append(getattr(item, name))
                except AttributeError:
                    continue  # a slot or native attribute never set
    return values


def memory_rows(name: str, steps: int, seed: int) -> list[Row]:
    """Peak traced memory of ``steps`` random playout steps, and sizes of a mid-game state."""
    import gameshelf

    game = gameshelf.load(name)
    rng = random.Random(seed)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        state = game.new_initial_state(seed=seed)
        middle = None
        for i in range(steps):
            if state.is_terminal():
                state = game.new_initial_state(seed=seed + i)
            elif state.is_chance_node():
                state.apply_action(_pick_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            if i == 20:
                middle = state.clone()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert middle is not None
    skip = {id(game)}
    deep = deep_size(middle, skip)
    try:
        pickled = len(pickle.dumps(middle, protocol=pickle.HIGHEST_PROTOCOL)) - len(
            pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
        )
    except Exception:
        pickled = -1
    peak_row = Row(f"memory/peak/{name}", "memory", f"{name} playout peak", "bytes")
    peak_row.value = float(peak)
    peak_row.extra["steps"] = steps
    state_row = Row(f"memory/state/{name}", "memory", f"{name} state (deep)", "bytes")
    state_row.value = float(deep)
    state_row.extra["pickle_bytes_less_game"] = pickled
    return [peak_row, state_row]


# --------------------------------------------------------------------------- the run


@dataclass
class Settings:
    rounds: int
    seconds: float
    mcts_seconds: float
    mcts_sims: int
    memory_steps: int
    seed: int = 1
    only: tuple[str, ...] = ()
    """Measure only the rows whose key contains one of these words (all when empty)."""

    def wants(self, key: str) -> bool:
        """Whether the row ``key`` is measured in this run."""
        return not self.only or any(word in key for word in self.only)


QUICK = Settings(rounds=2, seconds=0.7, mcts_seconds=1.0, mcts_sims=8, memory_steps=200)
FULL = Settings(rounds=4, seconds=2.0, mcts_seconds=3.0, mcts_sims=32, memory_steps=500)


def install_hint(exc: BaseException) -> str | None:
    """The optional package whose absence raised ``exc``, and how to install it."""
    extra = extra_for(exc)
    if not isinstance(exc, ModuleNotFoundError) or extra is None or exc.name is None:
        return None
    return f"{exc.name.split('.')[0]}: {extras.install_hint(extra)}"


def describe_failure(exc: BaseException) -> str:
    """Why a row cannot run, in one line; a missing package names what to install."""
    hint = install_hint(exc)
    return f"package missing: {hint}" if hint else f"{type(exc).__name__}: {exc}"


def _prepare(rows: list[Row], key: str, make: Callable[..., Any], *args: Any) -> Any:
    """``make(*args)``, or ``None`` with the row marked missing (module absent or broken);
    ``None`` too for a row this run leaves out (see :attr:`Settings.only`)."""
    if not any(r.key == key for r in rows):
        return None
    try:
        return make(*args)
    except Exception as exc:
        row = next(r for r in rows if r.key == key)
        row.missing = describe_failure(exc)
        return None


def run(settings: Settings, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure every row and return the report (rows, ratios, machine)."""
    rows: list[Row] = []
    playouts: dict[str, Any] = {}
    searches: dict[str, Any] = {}
    measured = measured_games()
    options = variants()
    engine = engines()
    for name in (*measured, *options):
        label = f"{name} (gameshelf, {engine[name.partition('(')[0]]})"
        rows.append(Row(f"playout/ours/{name}", "playout", label, "steps/s"))
    for name in openspiel_games():
        lang = "Python" if name.startswith("python_") else "C++"
        rows.append(
            Row(f"playout/openspiel/{name}", "playout", f"{name} (OpenSpiel {lang})", "steps/s")
        )
    for name in measured:
        rows.append(
            Row(f"playout/adapter/{name}", "playout", f"gameshelf_{name} (adapter)", "steps/s")
        )
    for name in measured:
        mcts = mcts_game(name)
        rows.append(Row(f"mcts/ours/{name}", "mcts", f"{mcts} our MCTS", "sims/s"))
        rows.append(Row(f"mcts/openspiel/{name}", "mcts", f"{mcts} MCTSBot (adapter)", "sims/s"))
    rows = [row for row in rows if settings.wants(row.key)]
    for name in measured:
        playouts[f"playout/ours/{name}"] = _prepare(
            rows, f"playout/ours/{name}", _our_factory, name
        )
        playouts[f"playout/adapter/{name}"] = _prepare(
            rows, f"playout/adapter/{name}", _adapter_factory, name
        )
        searches[f"mcts/ours/{name}"] = _prepare(
            rows,
            f"mcts/ours/{name}",
            _our_mcts,
            mcts_game(name),
            settings.mcts_sims,
            settings.seed,
        )
        searches[f"mcts/openspiel/{name}"] = _prepare(
            rows,
            f"mcts/openspiel/{name}",
            _spiel_mcts,
            mcts_game(name),
            settings.mcts_sims,
            settings.seed,
        )
    for name in options:
        playouts[f"playout/ours/{name}"] = _prepare(
            rows, f"playout/ours/{name}", _our_factory, name
        )
    for name in openspiel_games():
        playouts[f"playout/openspiel/{name}"] = _prepare(
            rows, f"playout/openspiel/{name}", _spiel_factory, name
        )
    rng = random.Random(settings.seed)
    runners = {key: Playout(make, rng) for key, make in playouts.items() if make is not None}
    for round_number in range(settings.rounds):
        log(f"round {round_number + 1}/{settings.rounds}")
        for slice_number in range(SLICES):
            order = [r for r in rows if r.kind == "playout" and r.key in runners]
            if slice_number % 2:
                order.reverse()  # alternate the order so drift in load evens out
            for row in order:
                try:
                    steps, seconds, games = runners[row.key].run(settings.seconds / SLICES)
                    row.add(steps, seconds, games)
                except Exception as exc:
                    row.missing = describe_failure(exc)
                    del runners[row.key]
        order = [r for r in rows if r.kind == "mcts" and searches.get(r.key) is not None]
        if round_number % 2:
            order.reverse()
        for row in order:
            try:
                sims, seconds = timed_searches(searches[row.key], settings.mcts_seconds)
                row.add(sims, seconds)
            except Exception as exc:
                row.missing = describe_failure(exc)
                searches[row.key] = None
    for name in measured:
        if not settings.wants(f"memory/peak/{name}"):
            continue
        log(f"memory {name}")
        try:
            rows.extend(memory_rows(name, settings.memory_steps, settings.seed))
        except Exception as exc:
            for kind in ("peak", "state"):
                rows.append(
                    Row(
                        f"memory/{kind}/{name}",
                        "memory",
                        f"{name} {kind}",
                        "bytes",
                        missing=str(exc),
                    )
                )
    for row in rows:
        if row.missing is not None:
            row.value = None
    by_key = {row.key: row for row in rows}
    ratios = []
    for label, ours, reference, target in targets():
        if ours not in by_key or reference not in by_key:
            continue  # a row left out of this run (tests shorten the lists)
        a, b = by_key[ours].value, by_key[reference].value
        ratio = a / b if a is not None and b else None
        ratios.append(
            {
                "name": label,
                "ours": ours,
                "reference": reference,
                "ratio": ratio,
                "target": target,
                "met": None if ratio is None else ratio >= target,
            }
        )
    return {
        "machine": machine(),
        "settings": vars(settings),
        "rows": [row.as_dict() for row in rows],
        "ratios": ratios,
        "missing": {row.key: row.missing for row in rows if row.missing is not None},
    }


def machine() -> dict[str, Any]:
    """Where and when: CPU count, load average, Python and OpenSpiel versions."""
    info: dict[str, Any] = {
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    info["engines"] = engines()
    try:
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        info["load_average"] = None
    try:
        pyspiel = importlib.import_module("pyspiel")
        info["open_spiel"] = getattr(pyspiel, "__version__", "unknown")
    except ImportError:
        info["open_spiel"] = None
    return info


# --------------------------------------------------------------------------- output


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "missing"
    if unit == "bytes":
        return f"{value:,.0f}"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def table(report: dict[str, Any]) -> str:
    """The plain-text table: every row, then every ratio against its target."""
    lines = [f"{'row':50} {'value':>14} unit"]
    for row in report["rows"]:
        text = _fmt(row["value"], row["unit"])
        note = f"  ({row['missing']})" if row["missing"] else ""
        lines.append(f"{row['label']:50} {text:>14} {row['unit']}{note}")
    lines.append("")
    lines.append(f"{'ratio (same run)':58} {'measured':>9} {'target':>7}  verdict")
    for r in report["ratios"]:
        measured = "missing" if r["ratio"] is None else f"{r['ratio']:.3f}"
        verdict = "missing" if r["met"] is None else ("met" if r["met"] else "NOT met")
        lines.append(f"{r['name']:58} {measured:>9} {r['target']:>7.2f}  {verdict}")
    lines.extend(skipped_lines(report))
    load = report["machine"].get("load_average")
    lines.append("")
    lines.append(f"machine: {report['machine']['cpus']} CPUs, load average {load}")
    if "engines" in report["machine"]:
        named = ", ".join(f"{g} {e}" for g, e in report["machine"]["engines"].items())
        lines.append(f"engines: {named}")
    return "\n".join(lines)


def skipped_lines(report: dict[str, Any]) -> list[str]:
    """One line per comparison that could not be made, with the reason (empty when none)."""
    missing: dict[str, str] = report["missing"]
    lines = []
    for ratio in report["ratios"]:
        if ratio["ratio"] is not None:
            continue
        reasons = sorted({missing[k] for k in (ratio["ours"], ratio["reference"]) if k in missing})
        lines.append(f"skipped: {ratio['name']} ({'; '.join(reasons) or 'no figure'})")
    return ["", *lines] if lines else []


def chart(report: dict[str, Any], path: str) -> None:
    """Two panels: absolute rates (log scale) and ratio / target per comparison."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rated = [r for r in report["rows"] if r["kind"] in ("playout", "mcts")]
    fig, (left, right) = plt.subplots(1, 2, figsize=(15, 6.5))
    colours = {"ours": "tab:blue", "openspiel": "tab:orange", "adapter": "tab:green"}
    labels = [r["label"] for r in rated]
    values = [r["value"] or 0.0 for r in rated]
    left.barh(labels, values, color=[colours[r["key"].split("/")[1]] for r in rated])
    left.set_xscale("log")
    left.invert_yaxis()
    left.set_xlabel("steps/s (playouts), simulations/s (MCTS); log scale")
    left.set_title("Absolute rates, one process run")
    names = [r["name"] for r in report["ratios"]]
    scores = [(r["ratio"] or 0.0) / r["target"] for r in report["ratios"]]
    right.barh(
        names, scores, color=["tab:green" if r["met"] else "tab:red" for r in report["ratios"]]
    )
    right.axvline(1.0, color="black", linewidth=1)
    right.invert_yaxis()
    right.set_xlabel("measured ratio / target ratio (>= 1 means met)")
    right.set_title("Ratios against their targets")
    load = report["machine"].get("load_average")
    fig.suptitle(f"gameshelf bench {report['machine']['time_utc']} (load average {load})")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gameshelf bench`` (shared by the command and ``main``)."""
    parser.add_argument("--quick", action="store_true", help="a short run (about a minute)")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--png", metavar="FILE", help="write a chart (needs matplotlib)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds (override)")
    parser.add_argument("--seconds", type=float, help="seconds per playout row per round")
    parser.add_argument("--mcts-seconds", type=float, help="seconds per MCTS row per round")
    parser.add_argument("--mcts-sims", type=int, help="simulations per search")
    parser.add_argument("--memory-steps", type=int, help="playout steps traced for memory")
    parser.add_argument(
        "--only",
        metavar="WORDS",
        help="measure only rows whose key contains one of these comma-separated words "
        "(e.g. playout/ours/axiom,openspiel/chess: Axiom's playout rows and chess)",
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The run's settings: ``--quick`` or the full run, with any override applied."""
    base = QUICK if args.quick else FULL
    return Settings(
        rounds=args.rounds or base.rounds,
        seconds=args.seconds or base.seconds,
        mcts_seconds=args.mcts_seconds or base.mcts_seconds,
        mcts_sims=args.mcts_sims or base.mcts_sims,
        memory_steps=args.memory_steps or base.memory_steps,
        only=tuple(word for word in (args.only or "").split(",") if word),
    )


def run_command(args: argparse.Namespace) -> int:
    """Measure, print the table, write JSON / PNG when asked. Returns 0."""
    if args.png:
        try:
            importlib.import_module("matplotlib")
        except ModuleNotFoundError as exc:
            raise GameshelfError(f"--png needs {install_hint(exc) or exc}") from None
    report = run(settings_from(args), log=lambda text: print(text, file=sys.stderr, flush=True))
    print(table(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
    if args.png:
        chart(report, args.png)
    return 0


DESCRIPTION = "Side-by-side speed benchmark: our engines against OpenSpiel's, in one process run."


def main(argv: list[str] | None = None) -> int:
    """``gameshelf bench`` as a standalone program (``python -m gameshelf.bench``)."""
    parser = argparse.ArgumentParser(prog="gameshelf bench", description=DESCRIPTION)
    add_arguments(parser)
    try:
        return run_command(parser.parse_args(argv))
    except GameshelfError as exc:
        print(f"gameshelf bench: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
