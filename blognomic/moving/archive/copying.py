"""Inserting many rows whose keys nobody reads back: ``COPY`` on PostgreSQL, ``bulk_create`` elsewhere.

An archive's comments are most of its rows (144,000 in BlogNomic's history). ``bulk_create`` builds one
enormous ``INSERT … RETURNING`` per batch and binds every value into it; ``COPY`` streams the same values,
prepared by the same fields, in a fraction of the time. Model ``save()`` and signals are skipped either way.

``COPY`` goes through psycopg's own copy, not Django's ``execute``, so the watch on writes that moves the
content version (``blognomic.web.freshness``) never sees it: the version is moved here, as every other write
moves it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from blognomic.web.freshness import content_changed


def insert_without_keys(model, objects: Sequence, *, batch_size: int) -> None:
    """Write ``objects`` as new rows. Keys already set on them are written; unset ones are numbered by the
    database and not read back, so the objects keep ``pk=None``."""
    if not objects:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create(objects, batch_size=batch_size)
        return
    # Only PostgreSQL needs (and only its sites install) psycopg.
    from psycopg import sql

    with_keys = [obj for obj in objects if obj.pk is not None]
    without = [obj for obj in objects if obj.pk is None]
    for group, keyed in ((with_keys, True), (without, False)):
        if not group:
            continue
        fields = [f for f in model._meta.concrete_fields if keyed or not f.primary_key]
        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(model._meta.db_table), sql.SQL(", ").join(sql.Identifier(f.column) for f in fields)
        )
        with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
            for obj in group:
                copy.write_row([f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields])
    content_changed(connection)
