#!/usr/bin/env bash
# Create .venv and install gameshelf into it, editable, with one extra: `server` (what
# scripts/start.sh needs) or `dev` (everything the tests need; it includes server and the
# `learn` extra's jax, mctx, optax and equinox, so self-play training is tested too), at the
# exact versions of constraints.txt (scripts/lock-deps.sh writes it), so that every fresh machine
# and CI get the same packages. Quick when nothing changed: pip runs again only after
# pyproject.toml or constraints.txt changes.
#   scripts/setup-venv.sh dev
set -euo pipefail
cd "$(dirname "$0")/.."
extra=${1:-server}
stamp=.venv/.installed-$extra
# Games are found through the installed entry points (group gameshelf.games, written by the
# editable install from pyproject.toml): an install that lacks them is redone too.
has_games() {
  .venv/bin/python -c 'import sys; from importlib.metadata import entry_points as e
sys.exit(not e(group="gameshelf.games"))' 2>/dev/null
}
# The engine modules listed in pyproject.toml, compiled in place with mypyc when their sources
# changed (needs mypyc, installed with mypy below, and a C compiler; without them it says so in
# one line and the engines stay pure Python). It exits non-zero only for a broken module list.
compile_engines() {
  .venv/bin/python scripts/compile-engines.py
}
if [ -x .venv/bin/gameshelf ] && [ -f "$stamp" ] && [ ! pyproject.toml -nt "$stamp" ] && [ ! constraints.txt -nt "$stamp" ] && has_games; then
  compile_engines
  exit 0
fi
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "setup: gameshelf needs Python 3.11 or newer as $python (or set PYTHON=/path/to/python3.11)" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv || {
    echo "setup: '$python -m venv' failed; install Debian's python3-venv and run again" >&2
    exit 1
  }
fi
echo "setup: installing gameshelf[$extra] into .venv" >&2
# mypy brings mypyc, which compiles the engines below (so scripts/start.sh runs them compiled too).
.venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[$extra]" mypy
if ! has_games; then
  echo "setup: the install registered no game (entry points of group gameshelf.games missing)" >&2
  exit 1
fi
touch "$stamp"
if [ "$extra" = dev ]; then
  touch .venv/.installed-server
fi
compile_engines
