"""Steps per second of the batched JAX Cage against pgx ``connect_four``, in one process.

    scripts/bench-jax.sh [--batches 1024,4096] [--steps 200] [--repeat 5] [--json out.json]
    .venv/bin/python benchmarks/jax_cage.py ...        # the same without pgx: ours only

Both environments run the same loop: a uniformly random legal action per game, ``vmap`` of the
environment's ``step``, games that ended replaced by fresh ones (auto-reset), ``lax.scan`` over
``--steps`` steps, all under one ``jit``; compilation is excluded, the timed runs of the
environments alternate (so that a load spike on a shared machine hits all of them) and the best
of ``--repeat`` is kept. A last column measures our Cage under ``repetition_draw=0``, which keeps no
repetition history (``--no-variant`` skips it). The target of issue #10 is ours / pgx >= 1 at
batch 4,096 on the CPU. Where JAX sees a GPU, batch 2^20 is added to the default batches and
reported against 10^9 steps/s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from gameshelf.rl.jax.cage import CageEnv, random_legal_actions

CPU_TARGET_BATCH = 4096
GPU_BATCH = 2**20
GPU_GOAL = 1e9


def compile_loop(
    init: Callable[[jax.Array], Any],
    step: Callable[[Any, jax.Array], Any],
    done: Callable[[Any], jax.Array],
    batch: int,
    steps: int,
) -> Callable[[int], float]:
    """The benchmark loop, compiled and warmed up: call it with a seed to get its seconds."""
    batched_init = jax.vmap(init)
    batched_step = jax.vmap(step)

    def one_step(carry: tuple[Any, jax.Array], _: None) -> tuple[tuple[Any, jax.Array], None]:
        states, key = carry
        key, sub, fresh_key = jax.random.split(key, 3)
        actions = random_legal_actions(sub, states.legal_action_mask)
        states = batched_step(states, actions)
        fresh = batched_init(jax.random.split(fresh_key, batch))
        finished = done(states)
        states = jax.tree_util.tree_map(
            lambda new, old: jnp.where(finished.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
            fresh,
            states,
        )
        return (states, key), None

    @jax.jit
    def run(key: jax.Array) -> Any:
        states = batched_init(jax.random.split(key, batch))
        (states, _), _ = jax.lax.scan(one_step, (states, key), None, length=steps)
        return states

    jax.block_until_ready(run(jax.random.PRNGKey(0)))  # compile (and warm up)

    def timed(seed: int) -> float:
        began = time.perf_counter()
        jax.block_until_ready(run(jax.random.PRNGKey(seed)))
        return time.perf_counter() - began

    return timed


def interleaved(
    loops: dict[str, Callable[[int], float]], work: int, repeat: int
) -> dict[str, float]:
    """Steps/s of each loop, best of ``repeat`` runs taken in turn (so load spikes hit all)."""
    best = dict.fromkeys(loops, float("inf"))
    for attempt in range(repeat):
        for name, timed in loops.items():
            best[name] = min(best[name], timed(1 + attempt))
    return {name: work / seconds for name, seconds in best.items()}


def measure(
    init: Callable[[jax.Array], Any],
    step: Callable[[Any, jax.Array], Any],
    done: Callable[[Any], jax.Array],
    batch: int,
    steps: int,
    repeat: int = 1,
) -> float:
    """Best environment steps per second of ``repeat`` timed runs (games that end restart)."""
    loop = compile_loop(init, step, done, batch, steps)
    return interleaved({"one": loop}, batch * steps, repeat)["one"]


def cage_loop(
    batch: int, steps: int, players: int = 2, repetition_draw: int = 3
) -> Callable[[int], float]:
    """The loop over our Cage (``players`` players, default options unless told)."""
    env = CageEnv(players=players, repetition_draw=repetition_draw)
    return compile_loop(env.init, env.step, lambda s: s.terminated, batch, steps)


def load_pgx() -> tuple[Any, str]:
    """pgx's ``connect_four`` environment and its version, or None and why it is missing."""
    try:
        import pgx  # type: ignore[import-not-found]
    except ImportError as error:
        return None, f"pgx is not importable ({error}); run scripts/bench-jax.sh to compare"
    return pgx.make("connect_four"), f"pgx {pgx.__version__} connect_four"


def pgx_loop(env: Any, batch: int, steps: int) -> Callable[[int], float]:
    """The same loop over pgx ``connect_four``."""
    return compile_loop(
        env.init, lambda s, a: env.step(s, a), lambda s: s.terminated | s.truncated, batch, steps
    )


def has_gpu() -> bool:
    """Whether JAX sees a GPU."""
    return any(device.platform == "gpu" for device in jax.devices())


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--batches", help="comma-separated (default 1024,4096; +2^20 on a GPU)")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per cell; best kept")
    parser.add_argument("--players", type=int, default=2, help="players of our Cage")
    parser.add_argument("--no-pgx", action="store_true", help="measure ours only")
    parser.add_argument(
        "--no-variant",
        action="store_true",
        help="skip the Cage with repetition_draw=0 (no repetition history to keep)",
    )
    parser.add_argument("--json", help="write the results here as JSON")
    args = parser.parse_args(argv)
    gpu = has_gpu()
    if args.batches:
        batches = [int(b) for b in args.batches.split(",")]
    else:
        batches = [1024, CPU_TARGET_BATCH] + ([GPU_BATCH] if gpu else [])
    device = str(jax.devices()[0])
    pgx_env, pgx_note = (None, "skipped (--no-pgx)") if args.no_pgx else load_pgx()
    if pgx_env is None:
        print(f"pgx: {pgx_note}; measuring the Cage only", flush=True)
    print(
        f"jax {jax.__version__} on {device} ({jax.default_backend()}), {os.cpu_count()} CPUs, "
        f"load {_load()}, {args.steps} steps, best of {args.repeat}, {pgx_note}",
        flush=True,
    )
    header = ["batch", "Cage steps/s", "pgx c4 steps/s", "ours/pgx"]
    if not args.no_variant:
        header.append("Cage rep=0 steps/s")
    print("  ".join(f"{h:>18}" for h in header), flush=True)
    rows: list[dict[str, Any]] = []
    for batch in batches:
        loops = {"cage": cage_loop(batch, args.steps, args.players)}
        if pgx_env is not None:
            loops["pgx"] = pgx_loop(pgx_env, batch, args.steps)
        if not args.no_variant:
            loops["variant"] = cage_loop(batch, args.steps, args.players, repetition_draw=0)
        rates = interleaved(loops, batch * args.steps, args.repeat)
        ours = rates["cage"]
        theirs = rates.get("pgx")
        ratio = None if theirs is None else ours / theirs
        variant = rates.get("variant")
        rows.append(
            {
                "batch": batch,
                "cage_steps_per_s": round(ours),
                "pgx_connect_four_steps_per_s": None if theirs is None else round(theirs),
                "ratio": None if ratio is None else round(ratio, 3),
                "cage_repetition_draw_0_steps_per_s": None if variant is None else round(variant),
            }
        )
        cells = [f"{batch}", f"{ours:,.0f}"]
        cells.append("-" if theirs is None else f"{theirs:,.0f}")
        cells.append("-" if ratio is None else f"{ratio:.2f}")
        if variant is not None:
            cells.append(f"{variant:,.0f}")
        print("  ".join(f"{c:>18}" for c in cells), flush=True)
    verdicts = []
    target = next((r for r in rows if r["batch"] == CPU_TARGET_BATCH), None)
    target_ratio = None if target is None else target["ratio"]
    if target_ratio is None:
        verdicts.append(f"target ours/pgx >= 1 at batch {CPU_TARGET_BATCH}: not measured")
    else:
        met = "met" if target_ratio >= 1 else "NOT met"
        verdicts.append(
            f"target ours/pgx >= 1 at batch {CPU_TARGET_BATCH}: {target_ratio:.2f}, {met}"
        )
    gpu_row = next((r for r in rows if r["batch"] == GPU_BATCH), None)
    if gpu and gpu_row is not None:
        rate = gpu_row["cage_steps_per_s"]
        met = "met" if rate >= GPU_GOAL else "NOT met"
        verdicts.append(f"GPU goal >= 1e9 steps/s at batch 2^20: {rate:.3g}, {met}")
    for verdict in verdicts:
        print(verdict, flush=True)
    report = {
        "command": "benchmarks/jax_cage.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "jax": jax.__version__,
        "pgx": pgx_note,
        "device": device,
        "backend": jax.default_backend(),
        "gpu": gpu,
        "cpus": os.cpu_count(),
        "load_average": _load(),
        "machine": platform.machine(),
        "steps": args.steps,
        "repeat": args.repeat,
        "players": args.players,
        "rows": rows,
        "verdicts": verdicts,
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
    return report


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
