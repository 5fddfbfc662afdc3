"""After a large import the planner knows the tables' new sizes (``blognomic.moving.archive.planner``)."""

from __future__ import annotations

import pytest
from django.db import connection

from blognomic.moving.archive import import_archive, planner
from tests.test_archive import game_archive
from votes.models import Comment

pytestmark = pytest.mark.django_db


def planned_rows(model) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [model._meta.db_table])
        return cursor.fetchone()[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's planner statistics")
def test_a_large_import_leaves_the_planner_counting_the_rows_it_wrote(monkeypatch):
    monkeypatch.setattr(planner, "LARGE_IMPORT", 1)  # the test archive is small; the rule is the same
    import_archive(game_archive())
    assert Comment.objects.exists()
    assert planned_rows(Comment) == Comment.objects.count()


def test_a_small_import_leaves_the_statistics_to_the_database():
    assert planner.analyze_after_import(planner.LARGE_IMPORT - 1) is False
