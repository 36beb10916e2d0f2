#!/usr/bin/env bash
# Build the browser table (web/) into src/gameshelf/server/static, where the server serves it.
# Idempotent and quick when nothing changed: npm ci runs only when the lockfile changed, and
# the build only when a source file is newer than the last build.
set -euo pipefail
cd "$(dirname "$0")/../web"

if ! command -v npm >/dev/null 2>&1; then
  echo "build-web: npm not found; install Node.js 20+ (with npm) to build the browser table" >&2
  exit 1
fi

stamp=node_modules/.gameshelf-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi

out=../src/gameshelf/server/static/index.html
if [ -f "$out" ] && [ -z "$(find src index.html package.json vite.config.ts tsconfig.json -newer "$out" -print -quit)" ]; then
  echo "build-web: up to date"
  exit 0
fi
npm run build
