"""The content version: one number for the whole site that every write to the database moves on.

Cached pages are keyed by it (see ``blognomic.page_cache``), so a page rendered before a write is never served
after it. The number moves on for every INSERT, UPDATE, DELETE or TRUNCATE that any code sends through
Django's connections — saves, ``QuerySet.update()``, ``bulk_create()``, raw SQL, models added later — because
it watches the SQL itself rather than relying on every service to remember (``watch_writes``). Only tables
that no page shows are left out (sessions, login attempts, the version's own row).

Where the number lives decides which processes see it, so the store follows the deployment:

- ``cache``: the cache backend, when Redis is configured (every worker and Celery share it);
- ``database``: one row in the database, the default without Redis, right for any number of workers and
  costing one small query per cached page;
- ``memory``: this process only, for a single process (the test suite); never for several workers.

A write inside a transaction moves the number at once and again after the commit: a reader between the two
may have rendered the data from before the commit, and the second move retires what it stored. The database
store moves only after the commit, outside the writer's transaction, so it never holds a lock the writer's
other rows could wait on.
"""

from __future__ import annotations

import re
import threading
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.db.backends.signals import connection_created

STORES = ("memory", "cache", "database")
CACHE_KEY = "blognomic:content-version"
VERSION_TABLE = "blognomic_contentversion"

# Tables whose rows no page shows: writing them must not empty the page cache (logins write sessions and
# login attempts on every request that touches them).
UNWATCHED_TABLE_PREFIXES = ("django_session", "axes_", VERSION_TABLE, "django_admin_log", "django_migrations")

_WRITE = re.compile(
    r"""^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|REPLACE\s+INTO)\s+[`"]?(\w+)""",
    re.IGNORECASE,
)


class _MemoryVersion:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value = 0
        # Unique to this process: two processes counting from zero must never share keys in a shared cache.
        self._process = uuid.uuid4().hex

    def read(self) -> str:
        return f"{self._process}:{self._value}"

    def bump(self) -> None:
        with self._lock:
            self._value += 1


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
        value = cache.get(CACHE_KEY)
        if value is None:
            # A cache that lost the key (restarted, evicted) must not fall back to a number already used.
            cache.add(CACHE_KEY, _fresh_start())
            value = cache.get(CACHE_KEY, 0)
        return int(value)
    # Plain SQL: it runs on every cached page, and building the query through the ORM cost more than running it.
    with connections["default"].cursor() as cursor:
        cursor.execute(f"SELECT value FROM {VERSION_TABLE} WHERE id = 1")
        row = cursor.fetchone()
    return row[0] if row else 0


def _fresh_start() -> int:
    # Nanoseconds since the epoch: larger than any count reached since the last start.
    import time

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
            cache.add(CACHE_KEY, _fresh_start())
            cache.incr(CACHE_KEY)
    else:
        _bump_database()


def _bump_database() -> None:
    from django.db import DatabaseError
    from django.db.models import F

    from blognomic.models import ContentVersion

    # Runs only outside a transaction (after the commit, or in autocommit), so a failure spoils nothing else;
    # the one expected is the table not existing yet while the first migrations write.
    try:
        if not ContentVersion.objects.filter(pk=1).update(value=F("value") + 1):
            ContentVersion.objects.get_or_create(pk=1, defaults={"value": 1})
    except DatabaseError:
        if not _migrating():
            raise


def _migrating() -> bool:
    from django.db import connection

    return VERSION_TABLE not in connection.introspection.table_names()


def content_changed(connection) -> None:
    """A write went through ``connection``: move the version on now (unless the store is the database and a
    transaction is open) and once more after the transaction commits."""
    if not connection.in_atomic_block:
        bump_version()
        return
    name = store_name()
    registered = any(callback is bump_version for _, callback, _ in connection.run_on_commit)
    # In memory every statement moves it (a test's reads share the writer's transaction); in the cache the
    # first write of a transaction is enough, since the commit moves it again.
    if name == "memory" or (name == "cache" and not registered):
        bump_version()
    if not registered:
        connection.on_commit(bump_version)


def written_table(sql: str) -> str | None:
    """The table a statement writes to, or None for a statement that writes nothing."""
    match = _WRITE.match(sql)
    return match.group(1).lower() if match else None


def _watch(execute, sql, params, many, context):
    result = execute(sql, params, many, context)
    table = written_table(sql) if isinstance(sql, str) else None
    if table and not table.startswith(UNWATCHED_TABLE_PREFIXES):
        content_changed(context["connection"])
    return result


def _install(connection) -> None:
    if _watch not in connection.execute_wrappers:
        connection.execute_wrappers.append(_watch)


def _on_connection_created(sender, connection, **kwargs) -> None:
    _install(connection)


def watch_writes() -> None:
    """Watch every connection, those already open and those opened later (called once at start-up)."""
    connection_created.connect(_on_connection_created, dispatch_uid="blognomic.freshness.watch")
    for connection in connections.all(initialized_only=True):
        _install(connection)
