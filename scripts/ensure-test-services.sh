#!/usr/bin/env bash
# Makes sure what the whole test suite needs is on this machine before it runs:
# Chromium (browser tests), Java (the HTML checker), MediaWiki with PHP's SQLite driver (export round trip),
# docker-compose v1 (offline validation of docker-compose.yml), Caddy (the proxy in front of gunicorn, for the
# slow-client test),
# PostgreSQL with a "blognomic" role that may create the test database, and Redis.
# Missing Debian packages are installed with apt (root, or sudo); stopped services are started.
# Prints the DATABASE_URL to use for the PostgreSQL run on its last line.
set -euo pipefail

log() { printf '[services] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium chromium-driver)
command -v java >/dev/null || missing+=(default-jre-headless)  # the Nu HTML Checker
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v caddy >/dev/null || missing+=(caddy)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v pg_ctlcluster >/dev/null || missing+=(postgresql)
# MediaWiki on SQLite, for the round trip of our MediaWiki export through its own importer.
[ -f /usr/share/mediawiki/maintenance/importDump.php ] || missing+=(mediawiki)
php -m 2>/dev/null | grep -qi '^pdo_sqlite$' || missing+=(php-cli php-sqlite3)
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  log "starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 0.5; done
fi
psql_admin() { as_root runuser -u postgres -- psql -v ON_ERROR_STOP=1 -qtA "$@"; }
if ! psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname='blognomic'" | grep -q 1; then
  log "creating the blognomic database role"
  psql_admin -c "CREATE ROLE blognomic LOGIN PASSWORD 'blognomic' CREATEDB;"
fi
if ! psql_admin -c "SELECT 1 FROM pg_database WHERE datname='blognomic'" | grep -q 1; then
  psql_admin -c "CREATE DATABASE blognomic OWNER blognomic;"
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "starting Redis"
  mkdir -p .run
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --logfile "$PWD/.run/redis.log"
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done
fi

echo "postgres://blognomic:blognomic@127.0.0.1:5432/blognomic"
