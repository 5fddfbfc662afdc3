"""The content version: one number for the whole site that every write to the database moves on.

Cached pages are keyed by it (see ``blognomic.web.page_cache``), so a page rendered before a write is never served
after it. The number moves on for every INSERT, UPDATE, DELETE or TRUNCATE that any code sends through
Django's connections — saves, ``QuerySet.update()``, ``bulk_create()``, raw SQL, models added later — because
it watches the SQL itself rather than relying on every service to remember (``watch_writes``). Only the
bookkeeping that no page shows is left out, each table named with its reason in ``BOOKKEEPING_TABLES`` (and each
column, written alone, in ``BOOKKEEPING_COLUMNS``).

A reader's read markers (``READ_MARKER_TABLES``) change their own pages alone, so marking what they have read
(inside ``dynasties.read_markers.marking_read``) moves that reader's own version instead, which the page cache
keys their pages by beside the content version: the cache stays warm for everyone else, and their unread counts
are right at once on every device they use.

Where the number lives decides which processes see it, so the store follows the deployment:

- ``cache``: the cache backend, when Redis is configured (every worker and Celery share it); while Redis is
  out there is no version (``VersionUnavailable``), and when it returns the version moves on
  (``retire_pages_from_before``, see ``blognomic.web.sturdy_cache``);
- ``database``: one row in the database, the default without Redis, right for any number of workers and
  costing one small query per cached page;
- ``memory``: this process only, for a single process (the test suite); never for several workers.

A write inside a transaction moves the number once, after the commit, whichever the store: a reader before
then renders the data as it was before the write, which the number it read still names rightly, and the
database store never holds a lock the writer's other rows could wait on. Until then the writer's own
connection sees rows the number does not yet count, so a page it reads or a part it keeps is neither served
from the cache nor stored (``version_lags_writes``). (In memory, for the test suite, whose transactions never
commit, every write moves it at once.)
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.signals import connection_created
from django.db.models import F

from blognomic.web.models import ContentVersion, ReaderVersion
from dynasties.read_markers import reader_marking

STORES = ("memory", "cache", "database")
# Kept with no timeout: the cache's default (five minutes) would re-seed it, emptying the page cache, with no write.
CACHE_KEY = "blognomic:content-version"
READER_KEY = "blognomic:reader-version:{}"
VERSION_TABLE = "blognomic_contentversion"
READER_VERSION_TABLE = "blognomic_readerversion"

# Bookkeeping: writes that change no page the page cache keeps, so they never move any version. By table, or
# by the start of the names of an app's tables (``axes_``).
BOOKKEEPING_TABLES = {
    "django_session": "who is logged in: written by logins and by messages to show; the page cache knows a "
    "reader by what the session claims, never by its row",
    "axes_": "failed logins and lockouts, shown on no page",
    VERSION_TABLE: "the content version's own row",
    READER_VERSION_TABLE: "the readers' own versions",
    "django_admin_log": "Django's admin's record of its own edits, shown in that admin alone, which is never cached",
    "django_migrations": "which migrations ran",
    "blognomic_heartbeat": "beat's last run, written every minute and shown in Django's admin and on the admin "
    "panel (kept PAGE_CACHE_SECONDS at most): it would otherwise empty the page cache "
    "every minute",
    "tokens_tokenuse": "when and from where each personal access token was last used, shown only on its owner's "
    "account page, which is never cached: a bot's every request would otherwise empty the page cache",
    "tokens_idempotentanswer": "the API's first answers, given again to retried writes; shown on no page (the "
    "write itself moves the version)",
    "blognomic_jobfailure": "failed jobs, shown on the admin panel (kept PAGE_CACHE_SECONDS at most): a job "
    "failing every minute would otherwise empty the page cache every minute",
}
UNWATCHED_TABLE_PREFIXES = tuple(BOOKKEEPING_TABLES)

# Bookkeeping by column: an UPDATE that sets this one column of the table and nothing else moves no version; any
# other write to the table still does.
BOOKKEEPING_COLUMNS = {
    ("dynasties_user", "last_login"): "when an account last logged in, written by every login and shown on no page "
    "but Django's admin, which is never cached: it would otherwise empty the page cache at each login",
}

# Read markers: how far one account has read, shown to that account alone. Written inside ``marking_read`` they
# move that reader's own version, not the content version; any other write to these tables (a new notice, an
# account's rows deleted) moves the content version like every write.
READ_MARKER_TABLES = {
    "dynasties_notification": "``read_at``: which of the reader's notices are unread (their notices page, the "
    "count in their header)",
    "messaging_participant": "``last_read_at``: how far the reader has read a conversation (their inbox, the "
    "count in their header)",
}

_WRITE = re.compile(
    r"""^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|REPLACE\s+INTO)\s+[`"]?(\w+)""",
    re.IGNORECASE,
)


# ``UPDATE "table" SET "column" = %s WHERE …``: one column set, as ``save(update_fields=[column])`` writes it.
_SETS_ONE_COLUMN = re.compile(
    r"""^\s*UPDATE\s+[`"]?(\w+)[`"]?\s+SET\s+[`"]?(\w+)[`"]?\s*=\s*%s\s+WHERE\b""", re.IGNORECASE
)


class _MemoryVersion:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value = 0
        # Unique to this process: two processes counting from zero must never share keys in a shared cache.
        self._process = uuid.uuid4().hex
        self._readers: dict[int, int] = {}

    def read(self) -> str:
        return f"{self._process}:{self._value}"

    def bump(self) -> None:
        with self._lock:
            self._value += 1

    def read_reader(self, reader: int) -> str:
        return f"{self._process}:{self._readers.get(reader, 0)}"

    def bump_reader(self, reader: int) -> None:
        with self._lock:
            self._readers[reader] = self._readers.get(reader, 0) + 1


_memory = _MemoryVersion()


def store_name() -> str:
    name = getattr(settings, "CONTENT_VERSION_STORE", "database")
    if name not in STORES:
        raise ValueError(f"CONTENT_VERSION_STORE must be one of {', '.join(STORES)}, not {name!r}.")
    return name


def current_version() -> int | str:
    """The version now, as every process sees it (read once per cached request)."""
    name = store_name()
    if name == "memory":
        return _memory.read()
    if name == "cache":
        return _from_cache([CACHE_KEY])[0][0]
    # Plain SQL: it runs on every cached page, and building the query through the ORM cost more than running it.
    with connections["default"].cursor() as cursor:
        cursor.execute(f"SELECT value FROM {VERSION_TABLE} WHERE id = 1")
        row = cursor.fetchone()
    return row[0] if row else 0


def current_versions(reader: int | None) -> tuple[int | str, int | str | None]:
    """The content version and the reader's own version (None for a visitor)."""
    return current_version(), own_version_beside(reader, [])[0]


class VersionUnavailable(Exception):
    """The cache keeps no version now (Redis is out): nothing may be served from it or stored under it."""


def version_beside(keys: Sequence[str]) -> tuple[int | str, dict[str, Any]]:
    """The content version, and what the cache holds under ``keys``: in one round trip where the version is kept
    in the cache (a cached page reads the reader's session beside it)."""
    if store_name() == "cache":
        (content,), found = _from_cache([CACHE_KEY], beside=keys)
        return content, found
    return current_version(), _cached(keys)


def own_version_beside(reader: int | None, keys: Sequence[str]) -> tuple[int | str | None, dict[str, Any]]:
    """The reader's own version (None for a visitor), and what the cache holds under ``keys``: in one round trip
    where the version is kept in the cache (a cached page reads itself beside it)."""
    name = store_name()
    if reader is None:
        return None, _cached(keys)
    if name == "cache":
        (own,), found = _from_cache([READER_KEY.format(reader)], beside=keys)
        return own, found
    if name == "memory":
        return _memory.read_reader(reader), _cached(keys)
    with connections["default"].cursor() as cursor:
        cursor.execute(f"SELECT value FROM {READER_VERSION_TABLE} WHERE account_id = %s", [reader])
        row = cursor.fetchone()
    return (row[0] if row else 0), _cached(keys)


def _cached(keys: Sequence[str]) -> dict[str, Any]:
    return cache.get_many(keys) if keys else {}


def _from_cache(keys: list[str], beside: Sequence[str] = ()) -> tuple[list[int], dict[str, Any]]:
    """The versions under ``keys``, and whatever the cache holds under the keys ``beside`` them, in one read."""
    values = cache.get_many([*keys, *beside])
    missing = [key for key in keys if key not in values]
    if missing:
        # A cache that lost a key (restarted, evicted) must not fall back to a number already used.
        for key in missing:
            cache.add(key, _fresh_start(), timeout=None)
        values.update(cache.get_many(missing))
    if any(key not in values for key in keys):
        raise VersionUnavailable("The cache holds no content version: is Redis answering?")
    return [int(values[key]) for key in keys], {key: values[key] for key in beside if key in values}


def _fresh_start() -> int:
    # Nanoseconds since the epoch: larger than any count reached since the last start.
    return time.time_ns()


def bump_version() -> None:
    """Move the version on now, in whichever store the settings name."""
    name = store_name()
    if name == "memory":
        _memory.bump()
    elif name == "cache":
        try:
            cache.incr(CACHE_KEY)
        except ValueError:
            cache.add(CACHE_KEY, _fresh_start(), timeout=None)
            cache.incr(CACHE_KEY)
    else:
        _bump_database()


def retire_pages_from_before(sender=None, **kwargs) -> None:
    """Receiver of ``blognomic.web.sturdy_cache.redis_returned``: Redis may hold pages older than the database
    (writes during the outage could not move the version it holds), so the version moves on."""
    if store_name() == "cache":
        bump_version()


def bump_reader_version(reader: int) -> None:
    """Move one reader's own version on now."""
    name = store_name()
    if name == "memory":
        _memory.bump_reader(reader)
    elif name == "cache":
        key = READER_KEY.format(reader)
        try:
            cache.incr(key)
        except ValueError:
            cache.add(key, _fresh_start(), timeout=None)
            cache.incr(key)
    else:
        _bump_reader_database(reader)


@dataclass(frozen=True)
class _ReaderBump:
    """``bump_reader_version`` for one reader, equal to another for the same reader (registered once per
    transaction, as ``bump_version`` is)."""

    reader: int

    def __call__(self) -> None:
        bump_reader_version(self.reader)


def _bump_reader_database(reader: int) -> None:
    if not ReaderVersion.objects.filter(pk=reader).update(value=F("value") + 1):
        ReaderVersion.objects.get_or_create(pk=reader, defaults={"value": 1})


def _bump_database() -> None:
    # Runs only outside a transaction (after the commit, or in autocommit), so a failure spoils nothing else;
    # the one expected is the table not existing yet while the first migrations write.
    try:
        if not ContentVersion.objects.filter(pk=1).update(value=F("value") + 1):
            ContentVersion.objects.get_or_create(pk=1, defaults={"value": 1})
    except DatabaseError:
        if not _migrating():
            raise


def _migrating() -> bool:
    return VERSION_TABLE not in connections[DEFAULT_DB_ALIAS].introspection.table_names()


def content_changed(connection) -> None:
    """A write went through ``connection``: move the version on now (unless the store is the database and a
    transaction is open) and once more after the transaction commits."""
    _moved(connection, bump_version)


def reader_changed(connection, reader: int) -> None:
    """A read marker of ``reader`` was written through ``connection``: move their own version, as above."""
    _moved(connection, _ReaderBump(reader))


def _moved(connection, bump: Callable[[], None]) -> None:
    if not connection.in_atomic_block:
        bump()
        return
    # In memory every statement moves it (a test's reads share the writer's transaction, which never commits).
    if store_name() == "memory":
        bump()
    if not any(callback == bump for _, callback, _ in connection.run_on_commit):
        connection.on_commit(bump)


def version_lags_writes(using: str = "default") -> bool:
    """Whether this thread's connection has written, in a transaction still open, what the version will count
    only once it commits: what it reads now must not be kept under the version, nor taken from what is."""
    if store_name() == "memory":
        return False
    connection = connections[using]
    return connection.in_atomic_block and any(
        callback == bump_version or isinstance(callback, _ReaderBump) for _, callback, _ in connection.run_on_commit
    )


def written_table(sql: str) -> str | None:
    """The table a statement writes to, or None for a statement that writes nothing."""
    match = _WRITE.match(sql)
    return match.group(1).lower() if match else None


def is_bookkeeping_update(sql: str) -> bool:
    """Whether the statement sets one of ``BOOKKEEPING_COLUMNS`` and nothing else."""
    match = _SETS_ONE_COLUMN.match(sql)
    if match is None:
        return False
    return (match.group(1).lower(), match.group(2).lower()) in BOOKKEEPING_COLUMNS


def _watch(execute, sql, params, many, context):
    result = execute(sql, params, many, context)
    table = written_table(sql) if isinstance(sql, str) else None
    if not table or table.startswith(UNWATCHED_TABLE_PREFIXES) or is_bookkeeping_update(sql):
        return result
    reader = reader_marking()
    if reader is not None and table in READ_MARKER_TABLES:
        reader_changed(context["connection"], reader)
    else:
        content_changed(context["connection"])
    return result


def _install(connection) -> None:
    if _watch not in connection.execute_wrappers:
        connection.execute_wrappers.append(_watch)


def _on_connection_created(sender, connection, **kwargs) -> None:
    _install(connection)


def watch_writes() -> None:
    """Watch every connection, those already open and those opened later (called once at start-up)."""
    connection_created.connect(_on_connection_created, dispatch_uid="blognomic.web.freshness.watch")
    for connection in connections.all(initialized_only=True):
        _install(connection)
