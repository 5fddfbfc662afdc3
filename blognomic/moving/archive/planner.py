"""After a large import the database is told what its tables now hold, so the first pages read are planned well.

PostgreSQL plans each query from statistics that autovacuum refreshes in its own time. Until it does, a table
that went from empty to a hundred thousand rows in one transaction is planned as if it were still empty, and
the first pages read after restoring an archive pay for it. ``ANALYZE`` samples a bounded number of rows per
table, so it takes about the same time at ten times the size. SQLite plans from its indexes alone.
"""

from __future__ import annotations

from django.db import connection

from dynasties.models import User
from gndt.models import CellChange, Update
from ruleset.models import Revision, RuleChange
from votes.models import Comment, Post, Resolution

# The tables an archive fills by the thousand; the rest stay small whatever the game's age.
GROWING = (User, Post, Comment, Resolution, Revision, RuleChange, Update, CellChange)
# Below this many rows written, autovacuum's own pace is soon enough.
LARGE_IMPORT = 1000


def analyze_after_import(rows_written: int) -> bool:
    """Refresh the growing tables' statistics when an import wrote many rows; says whether it did."""
    if rows_written < LARGE_IMPORT or connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        for model in GROWING:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
    return True
