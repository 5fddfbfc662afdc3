#!/usr/bin/env bash
# Runs the whole test suite on SQLite and on PostgreSQL side by side, each in its own pytest process writing
# its own log under .run/, and fails if either run fails. When both have ended, both logs are printed whole,
# one after the other, so a failure reads as it would alone.
#
# Usage: scripts/test-both-databases.sh POSTGRES_URL [pytest arguments...]
set -uo pipefail

postgres_url=${1:?the PostgreSQL URL to run on}
shift
python=${PYTHON:-.venv/bin/python}
mkdir -p .run

env -u DATABASE_URL "$python" -m pytest "$@" > .run/test-sqlite.log 2>&1 &
sqlite=$!
DATABASE_URL=$postgres_url "$python" -m pytest "$@" > .run/test-postgres.log 2>&1 &
postgres=$!
wait $sqlite
sqlite_status=$?
wait $postgres
postgres_status=$?

for name in sqlite postgres; do
  echo
  echo "==================== $name (.run/test-$name.log) ===================="
  cat ".run/test-$name.log"
done
echo
echo "[test] SQLite: exit $sqlite_status; PostgreSQL: exit $postgres_status"
[ $sqlite_status -eq 0 ] && [ $postgres_status -eq 0 ]
