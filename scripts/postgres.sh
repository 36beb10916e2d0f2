#!/usr/bin/env bash
# Install (if needed) and start a local PostgreSQL, create the test database, and print the
# SQLAlchemy URL for it. Used by .ci/run; handy for running the server tests on PostgreSQL:
#   export GAMESHELF_TEST_POSTGRES_URL=$(scripts/postgres.sh)
set -euo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h | grep -q "^$version main"; then
  pg_createcluster "$version" main >&2
fi
pg_ctlcluster "$version" main start >&2 2>/dev/null || true
for _ in $(seq 1 30); do
  pg_isready -q && break
  sleep 1
done
su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'gameshelf'\"" >&2
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_database WHERE datname='gameshelf_test'\"" | grep -q 1 \
  || su postgres -c "createdb gameshelf_test" >&2
# Drop the per-test databases earlier runs left behind.
for old in $(su postgres -c "psql -Atc \"SELECT datname FROM pg_database WHERE datname ~ '^gameshelf_t_[0-9a-f]{12}\$'\""); do
  su postgres -c "dropdb --if-exists $old" >&2
done
echo "postgresql+psycopg://postgres:gameshelf@127.0.0.1:5432/gameshelf_test"
