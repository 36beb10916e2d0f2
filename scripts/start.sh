#!/usr/bin/env bash
# Set up gameshelf in .venv (first run, or after pyproject.toml changes) and start the main job:
# the game server on an embedded SQLite database (./gameshelf.sqlite3). It prints its URL.
# Arguments go to `gameshelf serve`, e.g. scripts/start.sh --port 9000
# Terminal play instead: .venv/bin/gameshelf play cage --seat 0=human --seat 1=greedy
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/gameshelf ] || [ pyproject.toml -nt .venv/.installed ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[server]'
  touch .venv/.installed
fi
exec .venv/bin/gameshelf serve "$@"
