"""The cleanup after a test that commits (``tests/flush_by_delete.py``): the next test finds every table empty
but the content types and permissions, which keep their ids. The two tests run in this order."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from blognomic.web.freshness import VERSION_TABLE
from dynasties.models import User

pytestmark = pytest.mark.django_db(transaction=True)
seen: dict[str, object] = {}


def rows_by_table() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.django_table_names(only_existing=True, include_views=False):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def test_a_committing_test_writes_rows():
    User.objects.create_user(username="Leftover", password="x")
    assert User.objects.filter(username="Leftover").exists()
    seen["user_type"] = ContentType.objects.get_for_model(User, for_concrete_model=False).pk
    seen["permissions"] = Permission.objects.count()


def test_the_next_finds_only_the_content_types_and_permissions():
    assert seen, "runs after the test above"
    left = {table: n for table, n in rows_by_table().items() if n}
    # The site's watch sees the cleanup's own DELETEs as writes and moves the database's content version.
    assert set(left) - {VERSION_TABLE} == {"django_content_type", "auth_permission"}
    assert ContentType.objects.get_for_model(User, for_concrete_model=False).pk == seen["user_type"]
    assert Permission.objects.count() == seen["permissions"]
