#!/usr/bin/env bash
# The README's test command and all that CI runs (.ci/run calls only this). On a fresh clone of
# a fresh machine it first sets up everything the tests need, then runs ruff (lint and format), mypy
# (strict types) and the whole pytest suite on all cores:
# - Debian's chromium and chromium-driver (the real-browser tests), nginx (the proxy in front of
#   several server processes) and postgresql, installed
#   with apt-get when missing (as root); where that cannot be done it stops before any test,
#   with one line saying what to install;
# - .venv with gameshelf[dev] (scripts/setup-venv.sh);
# - the browser table, built from web/ with npm (scripts/build-web.sh; Node.js 20+);
# - a throw-away PostgreSQL cluster of this run's own (scripts/postgres.sh; stopped when the run
#   ends): its URL goes to GAMESHELF_TEST_POSTGRES_URL so that the server suite runs on SQLite
#   and on PostgreSQL (a URL already set is used).
# Arguments go to pytest, e.g. scripts/test.sh tests/cli -x. A skipped test fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

stop() {
  echo "test: $*" >&2
  exit 1
}

# Debian packages the tests need that are missing here.
missing_packages() {
  local wanted=()
  [ -x "${GAMESHELF_CHROMIUM:-/usr/bin/chromium}" ] || wanted+=(chromium)
  [ -x "${GAMESHELF_CHROMEDRIVER:-/usr/bin/chromedriver}" ] || wanted+=(chromium-driver)
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || wanted+=(nginx)
  if [ -z "${GAMESHELF_TEST_POSTGRES_URL:-}" ]; then
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || wanted+=(postgresql)
  fi
  echo "${wanted[*]}"
}

missing=$(missing_packages)
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    stop "the tests need Debian's $missing: install them (as root: apt-get install $missing), then run again"
  fi
  echo "test: installing $missing with apt-get"
  # shellcheck disable=SC2086  # one word per package
  if ! apt-get update -qq || ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; then
    stop "apt-get could not install $missing: install them (apt-get install $missing), then run again"
  fi
  missing=$(missing_packages)
  [ -z "$missing" ] || stop "still missing after apt-get: $missing (set GAMESHELF_CHROMIUM / GAMESHELF_CHROMEDRIVER if they live elsewhere)"
fi
command -v npm >/dev/null 2>&1 \
  || stop "npm not found: install Node.js 20 or newer (with npm) to build the browser table, then run again"

bash scripts/setup-venv.sh dev
bash scripts/build-web.sh
# A private PostgreSQL cluster for this run alone, stopped and removed when the run ends,
# however it ends (a URL already set is used as it is, and left alone).
pg_dir=""
stop_postgres() {
  [ -z "$pg_dir" ] || bash scripts/postgres.sh stop "$pg_dir" || true
}
trap stop_postgres EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -z "${GAMESHELF_TEST_POSTGRES_URL:-}" ]; then
  pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/gameshelf-pg.XXXXXX")
  GAMESHELF_TEST_POSTGRES_URL=$(bash scripts/postgres.sh start "$pg_dir") \
    || stop "scripts/postgres.sh could not start PostgreSQL (see above)"
fi
export GAMESHELF_TEST_POSTGRES_URL

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .  # the docs' Python examples included
echo "== mypy"
.venv/bin/mypy
# What a user installs (sdist, pure and compiled wheels), tried outside the checkout; a run of
# some tests only (pytest arguments given) leaves it out.
if [ $# -eq 0 ]; then
  echo "== package"
  bash scripts/package-smoke.sh
else
  echo "== package: left out (pytest arguments given); scripts/package-smoke.sh runs it"
fi
log=$(mktemp)
trap 'rm -f "$log"; stop_postgres' EXIT
# Both engines: the rules' own suites once more on the Python source, then everything on the
# engine the checkout runs (compiled where scripts/compile-engines.py could build it: a test
# then holds every game to it).
engine=pure
[ -f src/gameshelf/_compiled.json ] && engine=compiled
all_ran() {
  if tail -n 1 "$log" | grep -Eq '[0-9]+ (skipped|xfailed|xpassed)'; then
    stop "some tests did not run (see the summary above): everything must run here"
  fi
}
if [ $# -eq 0 ]; then
  echo "== pytest, pure Python engines: conformance, perft, golden files"
  GAMESHELF_PURE=1 GAMESHELF_EXPECT_ENGINE=pure .venv/bin/python -m pytest -n auto -q \
    tests/contract/test_conformance.py tests/contract/test_perft.py \
    tests/contract/test_golden.py tests/core/test_engines.py 2>&1 | tee "$log"
  all_ran
fi
echo "== pytest, $engine engines"
GAMESHELF_EXPECT_ENGINE=$engine .venv/bin/python -m pytest -n auto -q "$@" 2>&1 | tee "$log"
all_ran
