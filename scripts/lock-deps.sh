#!/usr/bin/env bash
# Rewrite constraints.txt: the exact version of every package gameshelf[dev] installs (and so
# of every smaller extra), resolved afresh from the package index into a throw-away venv.
# scripts/setup-venv.sh installs with `-c constraints.txt`, so a fresh machine (and CI) gets
# these versions, not whatever the index holds that day; run this after changing the
# dependencies in pyproject.toml (or to take newer releases), then run scripts/test.sh.
#   scripts/lock-deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$python" -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[dev]"
{
  echo "# Exact versions for scripts/setup-venv.sh (pip install -c constraints.txt)."
  echo "# Written by scripts/lock-deps.sh with $("$scratch/venv/bin/python" -V) on $(uname -m); do not edit by hand."
  "$scratch/venv/bin/python" -m pip freeze --disable-pip-version-check --exclude-editable
} > "$scratch/constraints.txt"
mv "$scratch/constraints.txt" constraints.txt  # whole or not at all
echo "lock: constraints.txt pins $(grep -c '==' constraints.txt) packages" >&2
