#!/usr/bin/env bash
# Set up gameshelf with its test tools in .venv and run everything CI runs:
# ruff (lint), mypy (strict types) and the whole pytest suite on all cores.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
echo "== ruff"
.venv/bin/ruff check src tests
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n auto -q "$@"
