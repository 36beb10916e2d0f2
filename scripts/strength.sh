#!/usr/bin/env bash
# Regenerate docs/strength.md: arena runs per game, move times per level, the solver ladder.
# Pass --only SLUG[,SLUG] to rerun some sections (others come from build/strength/*.json;
# without one, a section stays as docs/strength.md and bot_ratings.json show it).
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m gameshelf.arena.strength --jobs 2 "$@"
