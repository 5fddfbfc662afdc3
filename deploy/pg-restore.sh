#!/bin/sh
# Restores a whole PostgreSQL database from a backup's pg_dump (blognomic-YYYY-MM-DD.dump), all or nothing.
#
#   deploy/pg-restore.sh blognomic-YYYY-MM-DD.dump DATABASE
#
# DATABASE is a database name or a connection string (postgres://user@host:5432/blognomic); the usual PG*
# variables apply. The dump is listed first, so a file that is not a dump, or whose table of contents is
# cut, is refused before anything is touched. The restore then runs in one transaction and stops at the
# first error, so a dump cut short in its data leaves the database exactly as it was.
set -eu

if [ "$#" -ne 2 ]; then
	echo "usage: $0 blognomic-YYYY-MM-DD.dump DATABASE" >&2
	exit 2
fi
dump=$1
database=$2

if [ ! -r "$dump" ]; then
	echo "Cannot read $dump; nothing was restored." >&2
	exit 1
fi
if ! pg_restore --list "$dump" >/dev/null; then
	echo "$dump is not a readable pg_dump archive (pg_restore --list refused it); nothing was restored." >&2
	exit 1
fi
if ! pg_restore --clean --if-exists --single-transaction --exit-on-error --no-owner --dbname "$database" "$dump"; then
	echo "The restore of $dump failed and was rolled back; the database is as it was before." >&2
	exit 1
fi
echo "Restored $dump into the database."
