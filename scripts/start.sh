#!/usr/bin/env bash
# Set up gameshelf in .venv (first run only) and start the main job: a game of Rubik's Cage
# in the terminal against the greedy bot. Extra arguments replace the default game, e.g.
#   scripts/start.sh "cage(players=3)" --seat 0=human --seat 1=greedy --seat 2=random
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/gameshelf ] || [ pyproject.toml -nt .venv/.installed ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
  touch .venv/.installed
fi
if [ "$#" -eq 0 ]; then
  set -- cage --seat 0=human --seat 1=greedy
fi
exec .venv/bin/gameshelf play "$@"
