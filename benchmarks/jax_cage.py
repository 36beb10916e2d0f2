"""Steps per second of the batched JAX Cage (random legal play, jit + vmap + scan).

    .venv/bin/python benchmarks/jax_cage.py [--batches 1024,4096] [--steps 200] [--json out.json]

On a machine where JAX sees a GPU, add 1048576 (2^20) to --batches.
"""

from __future__ import annotations

import argparse
import json
import time

import jax

from gameshelf.rl.jax.cage import CageEnv, random_legal_actions


def measure(batch: int, steps: int, players: int = 2) -> float:
    """Environment steps per second at ``batch`` (games that end are restarted)."""
    env = CageEnv(players=players)

    def one_step(carry: tuple, _: None) -> tuple:
        states, key = carry
        key, sub = jax.random.split(key)
        actions = random_legal_actions(sub, states.legal_action_mask)
        states = jax.vmap(env.step)(states, actions)
        fresh = jax.vmap(env.init)(jax.random.split(sub, batch))
        states = jax.tree_util.tree_map(
            lambda new, old: jax.numpy.where(
                states.terminated.reshape((-1,) + (1,) * (old.ndim - 1)), new, old
            ),
            fresh,
            states,
        )
        return (states, key), None

    @jax.jit
    def run(key: jax.Array) -> jax.Array:
        states = jax.vmap(env.init)(jax.random.split(key, batch))
        (states, _), _ = jax.lax.scan(one_step, (states, key), None, length=steps)
        return states.ply

    run(jax.random.PRNGKey(0)).block_until_ready()  # compile
    began = time.perf_counter()
    run(jax.random.PRNGKey(1)).block_until_ready()
    return batch * steps / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", default="1024,4096")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    for batch in (int(b) for b in args.batches.split(",")):
        rate = measure(batch, args.steps)
        rows.append({"batch": batch, "steps_per_s": round(rate), "device": str(jax.devices()[0])})
        print(f"batch {batch:>8}: {rate:>14,.0f} steps/s on {jax.devices()[0]}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=2)


if __name__ == "__main__":
    main()
