#!/usr/bin/env bash
# A throw-away PostgreSQL for the server tests: a private cluster of its own in a temporary
# folder, on a free port of 127.0.0.1 (its socket in that folder too), never the machine's own
# cluster, so that two test runs on one machine do not meet. Start prints the SQLAlchemy URL of
# an empty database `gameshelf_test` (the tests create their own databases beside it); stop
# shuts the cluster down and removes the folder. scripts/test.sh does both, stopping it when
# the run ends whatever the outcome:
#   dir=$(mktemp -d)
#   export GAMESHELF_TEST_POSTGRES_URL=$(scripts/postgres.sh start "$dir")
#   ...
#   scripts/postgres.sh stop "$dir"
# `start` without a folder makes one and names it on stderr. PostgreSQL's programs come from
# Debian's postgresql (/usr/lib/postgresql/VERSION/bin), installed with apt-get when missing and
# run as root. PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres`
# user, elsewhere to whoever runs this.
set -euo pipefail

usage() {
  echo "usage: scripts/postgres.sh start [FOLDER] | stop FOLDER" >&2
  exit 2
}

fail() {
  echo "postgres: $*" >&2
  exit 1
}

# The newest installed PostgreSQL's programs, installing Debian's package first if allowed.
find_bin() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
      || fail "PostgreSQL is not installed: install Debian's postgresql (apt-get install postgresql)"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  fi
  local version
  version=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
  echo "/usr/lib/postgresql/$version/bin"
}

# Run a command as the cluster's owner (the postgres user when this runs as root).
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local dir=${1:-}
  if [ -z "$dir" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/gameshelf-pg.XXXXXX")
    echo "postgres: cluster in $dir; stop it with: scripts/postgres.sh stop $dir" >&2
  fi
  [ -d "$dir" ] || fail "no folder $dir"
  [ -z "$(ls -A "$dir")" ] || fail "$dir is not empty: start wants a fresh folder"
  local bin password port
  bin=$(find_bin)
  [ "$(id -u)" != 0 ] || chown postgres: "$dir"
  chmod 700 "$dir"
  password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  as_owner sh -c 'umask 077 && printf "%s\n" "$1" > "$2"' sh "$password" "$dir/password"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/password" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
    || fail "initdb failed: $(tail -n 3 "$dir/initdb.log")"
  rm -f "$dir/password"
  # A free port can be taken between the probe and the start: try a few.
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    # Durability is worth nothing in a throw-away cluster; fsync off makes the tests faster.
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
      -o "-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      >/dev/null; then
      as_owner "$bin/createdb" -h "$dir" -p "$port" -U postgres gameshelf_test
      echo "postgresql+psycopg://postgres:$password@127.0.0.1:$port/gameshelf_test"
      return 0
    fi
  done
  fail "the cluster in $dir would not start: $(tail -n 3 "$dir/server.log" 2>/dev/null)"
}

stop() {
  local dir=${1:-}
  [ -n "$dir" ] || usage
  [ -d "$dir" ] || return 0  # already gone
  # Remove only a folder this script filled (or left empty), never one named by mistake.
  if [ -n "$(ls -A "$dir")" ] && [ ! -f "$dir/initdb.log" ]; then
    fail "$dir does not hold a cluster of scripts/postgres.sh; left as it is"
  fi
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$(find_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf -- "$dir"
}

case "${1:-start}" in
  start) start "${2:-}" ;;
  stop) stop "${2:-}" ;;
  *) usage ;;
esac
