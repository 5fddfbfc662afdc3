"""Primary keys carried by an archive: kept on import when they are free, so permalinks survive a restore.

An archive names the rows people link to by number (``#comment-812``, ``/gndt/updates/4031/``) with their
``pk``. Loading into an empty database keeps them all, gaps included; loading into a database that already
numbers rows in the same range lets the database number that list afresh instead, since two rows cannot share
a key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.management.color import no_style
from django.db import connection


def keep_primary_keys(model, objects: Sequence, pks: Sequence[int | None]) -> bool:
    """Give ``objects`` the keys in ``pks`` when every one has a key, none repeats, and the table holds no row
    numbered between the lowest and the highest of them (one query, whatever the size)."""
    if not objects or any(pk is None for pk in pks) or len(set(pks)) != len(pks):
        return False
    if model.objects.filter(pk__gte=min(pks), pk__lte=max(pks)).exists():
        return False
    for obj, pk in zip(objects, pks, strict=True):
        obj.pk = pk
    return True


def reset_sequences(models: Iterable) -> None:
    """After rows were written with their own keys, new rows must be numbered after them (PostgreSQL keeps a
    separate counter; SQLite's follows the largest key by itself)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


def optional_pk(reader) -> int | None:
    return reader.integer("pk", required=False, minimum=1)
