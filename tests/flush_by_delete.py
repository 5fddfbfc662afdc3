"""On PostgreSQL, the tests that commit (a live server, real transactions) are cleaned up with DELETE, not
TRUNCATE.

After each such test Django empties every table ("flush"). On PostgreSQL it does that with one TRUNCATE of all
58 tables, which gives each table a new, empty file: 0.3–0.4 s a test, whatever the test wrote, and over a
hundred tests do it in a run. A DELETE of the few rows a test wrote takes milliseconds. The result is the same
for the next test: empty tables, with the sequences left where they were (Django's flush does not reset them
either unless asked). Every foreign key Django makes is deferred to the end of the transaction, so the tables
can be emptied in any order; a flush that resets sequences, or cascades to tables it was not given, is left
to TRUNCATE as before. Dead rows are cleared by the suite's own vacuum between tests (``tests/conftest.py``).
"""

from __future__ import annotations

from functools import wraps

from django.db.backends.postgresql.operations import DatabaseOperations


def install() -> None:
    truncate = DatabaseOperations.sql_flush
    if getattr(truncate, "deletes", False):
        return

    @wraps(truncate)
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        deletes = [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]
        return [f"{style.SQL_KEYWORD('SET CONSTRAINTS ALL DEFERRED')};", *deletes]

    sql_flush.deletes = True  # type: ignore[attr-defined]
    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
