#!/usr/bin/env bash
# Set up gameshelf in .venv (first run, or after pyproject.toml changes), build the browser
# table (web/, with npm), and start the main job: the game server on an embedded SQLite
# database (./gameshelf.sqlite3). It prints its URL.
# Arguments go to `gameshelf serve`, e.g. scripts/start.sh --port 9000 (a busy port is named,
# with this hint, before anything is served).
# Terminal play instead: .venv/bin/gameshelf play cage --seat 0=human --seat 1=greedy
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-venv.sh server
.venv/bin/python -m gameshelf.cli.preflight "$@"  # a busy port: say so now, not after the build
if command -v npm >/dev/null 2>&1; then
  bash scripts/build-web.sh
else
  echo "start: npm not found, serving the API only (install Node.js 20 to build the table)" >&2
fi
exec .venv/bin/gameshelf serve "$@"
