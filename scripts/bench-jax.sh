#!/usr/bin/env bash
# Batch-simulation benchmark of the JAX Cage against pgx connect_four (issue #10).
# Builds a separate, gitignored .venv-bench (the project's .venv never gets pgx) with
# gameshelf[jax] plus pgx, then runs benchmarks/jax_cage.py with any arguments given, e.g.
#   scripts/bench-jax.sh --batches 1024,4096 --json out/jax_cage.json
set -euo pipefail
cd "$(dirname "$0")/.."
PGX_VERSION=2.6.0   # resolves and runs with jax 0.10.2, the version of the project's .venv
JAX_VERSION=0.10.2
if [ ! -x .venv-bench/bin/python ]; then
  python3 -m venv .venv-bench
fi
.venv-bench/bin/python -m pip install --quiet --disable-pip-version-check \
  -e '.[jax]' "jax==${JAX_VERSION}" "jaxlib==${JAX_VERSION}" "pgx==${PGX_VERSION}"
exec .venv-bench/bin/python benchmarks/jax_cage.py "$@"
