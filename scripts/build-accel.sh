#!/usr/bin/env bash
# Compile Axiom's rules, move generator and state (board.py, actions.py, state.py) with mypyc into
# .venv/gameshelf-accel/, keyed by the SHA-256 of the sources; the engine uses the build only
# while the sources are unchanged (docs/performance.md). Never fails: without mypyc or a C
# compiler it says so and the engine stays pure Python.
#   scripts/build-accel.sh            (GAMESHELF_PURE=1 at run time forces pure Python)
cd "$(dirname "$0")/.."
.venv/bin/python -c 'import sys; from gameshelf.games.axiom.accel import main; main(["build"])' || true
.venv/bin/python -c 'import sys; from gameshelf.games.axiom.accel import main; main(["status"])' || true
exit 0
