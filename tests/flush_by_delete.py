"""How the tests that commit (a live server, real transactions) are cleaned up after: by DELETE, keeping the
content types and permissions that migrate made.

After each such test Django empties every table ("flush"), then has ``post_migrate`` make the content types and
permissions again (146 queries). On PostgreSQL it empties them with one TRUNCATE of all 58 tables, which gives
each table a new, empty file. Measured per test: 0.15–0.22 s on PostgreSQL and about 0.07 s on SQLite, where a
DELETE of the few rows a test wrote, with nothing made again, takes 5–11 ms.

The result for the next test is the same: empty tables, the sequences left where they were (Django's flush
does not reset them either unless asked), and the content types and permissions migrate made, now with the
same ids throughout the run. No test writes either table. Every foreign key Django makes is deferred to the
end of the transaction, so the tables can be emptied in any order. A test case that limits its apps or
serializes its rollback is left to Django as before. Dead rows are cleared by the suite's own vacuum between
tests (``tests/conftest.py``).

A test that needs the database emptied part way through (to import an archive into it, or restore a backup)
calls ``empty_every_table`` too, rather than Django's ``flush`` command: the database it leaves is the one a
freshly migrated site has, and it takes milliseconds where the command took 0.4–1.6 s on PostgreSQL.
"""

from __future__ import annotations

from functools import wraps

from django.db import connections
from django.test import TransactionTestCase

# What migrate's post_migrate makes, kept from one test to the next.
KEPT = frozenset({"django_content_type", "auth_permission"})


def empty_every_table(connection=None) -> None:
    """Every table of the database emptied but the content types and permissions that migrate made."""
    connection = connection or connections["default"]
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    deletes = [f"DELETE FROM {connection.ops.quote_name(table)}" for table in tables if table not in KEPT]
    deferred = ["SET CONSTRAINTS ALL DEFERRED"] if connection.vendor == "postgresql" else []
    connection.ops.execute_sql_flush(deferred + deletes)


def install() -> None:
    flush = TransactionTestCase._fixture_teardown

    @wraps(flush)
    def empty_tables(self) -> None:
        if self.available_apps is not None or self.serialized_rollback:
            return flush(self)
        for db_name in self._databases_names(include_mirrors=False):
            empty_every_table(connections[db_name])

    TransactionTestCase._fixture_teardown = empty_tables  # type: ignore[method-assign]
