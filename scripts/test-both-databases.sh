#!/usr/bin/env bash
# Runs the test suite on SQLite and on PostgreSQL at the same time, each in one process (TEST_WORKERS=0, the
# default) or spread over TEST_WORKERS processes (pytest-xdist), and fails if either run fails. The tests
# marked once_per_suite run once in all, each in whichever run takes it first (tests/once_per_suite.py), in a
# folder of claims made afresh here. Each run writes to a log of its own under .run/; when both have ended,
# both logs are printed whole, one after the other, so a failure reads as it would alone; each ends with its
# twenty slowest tests.
#
# Usage: scripts/test-both-databases.sh POSTGRES_URL [pytest arguments...]
set -uo pipefail

postgres_url=${1:?the PostgreSQL URL to run on}
shift
python=${PYTHON:-.venv/bin/python}
workers=${TEST_WORKERS:-0}
spread=()
if [ "$workers" != 0 ]; then
  spread=(-n "$workers" --dist loadgroup)
fi
mkdir -p .run
claims=$(mktemp -d "$PWD/.run/once-per-suite.XXXXXX")
trap 'rm -rf "$claims"' EXIT
export ONCE_PER_SUITE_CLAIMS=$claims

started=$(date +%s)
run() {  # name, then the environment's DATABASE_URL ("" for SQLite)
  local name=$1 url=$2
  if [ -z "$url" ]; then
    env -u DATABASE_URL "$python" -m pytest "${spread[@]}" --durations=20 "${@:3}" > ".run/test-$name.log" 2>&1
  else
    DATABASE_URL=$url "$python" -m pytest "${spread[@]}" --durations=20 "${@:3}" > ".run/test-$name.log" 2>&1
  fi
  local status=$?
  echo "[test] $name: exit $status after $(($(date +%s) - started)) s (.run/test-$name.log)"
  return $status
}

if [ "$workers" = 0 ]; then
  echo "[test] SQLite and PostgreSQL side by side, each in one process"
else
  echo "[test] SQLite and PostgreSQL side by side, $workers workers each"
fi
run sqlite "" "$@" &
sqlite=$!
run postgres "$postgres_url" "$@" &
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
