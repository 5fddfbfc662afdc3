"""The site's root gave its models to the rooms whose job they are: a database from before keeps every table and
every row, and the migrations that moved them write no SQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from blognomic.flows.amendments.models import AmendmentApplication
from blognomic.moving.wordpress.models import WordPressItem
from blognomic.running.models import DemoClock, Heartbeat, JobFailure
from blognomic.web.models import ContentVersion, ReaderVersion

AT = datetime(2026, 3, 14, 9, 30, tzinfo=UTC)
ROOMS = ("running", "web", "amendments", "wordpress")
BEFORE = [("blognomic", "0012_demo_clock"), *((room, None) for room in ROOMS)]
# Migrating runs outside a test transaction (SQLite cannot change its schema inside one).
pytestmark = pytest.mark.django_db(transaction=True)
MOVES = [("blognomic", "0013_models_moved_to_their_rooms"), *((room, "0001_initial") for room in ROOMS)]


def _migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _old_rows(old) -> None:
    """Rows written through the models as the site's root held them, before the move."""
    author = old.get_model("dynasties", "User").objects.create(username="Quillwright", password="!")
    post = old.get_model("votes", "Post").objects.create(
        slug="lanterns-for-the-bridge", title="Lanterns for the bridge", author=author, posted_at=AT
    )
    old.get_model("blognomic", "Heartbeat").objects.create(name="tidy-lanterns", last_run_at=AT, runs=3)
    old.get_model("blognomic", "JobFailure").objects.create(task="tidy-lanterns", at=AT, error="The wick broke.")
    old.get_model("blognomic", "DemoClock").objects.create(ahead=timedelta(hours=5))
    old.get_model("blognomic", "ContentVersion").objects.create(pk=7, value=41)  # the site moves row 1 on every write
    old.get_model("blognomic", "ReaderVersion").objects.create(account_id=4242, value=7)
    old.get_model("blognomic", "WordPressItem").objects.create(kind="post", source_id=9001, post=post)
    old.get_model("blognomic", "AmendmentApplication").objects.create(
        post=post, digest="d" * 64, applied=True, by=author, at=AT, descriptions=["Lit the lanterns."]
    )


def test_rows_written_before_the_move_are_read_by_the_rooms_models_after_it():
    """Migrating back to before the move, writing a row of each model, and migrating forward changes no table and
    loses no row: each room's model reads what the root's model wrote."""
    latest = _latest()
    tables = set(connection.introspection.table_names())
    try:
        _migrate(BEFORE)
        others = [node for node in latest if node[0] not in ("blognomic", *ROOMS)]
        old = MigrationExecutor(connection).loader.project_state([*others, BEFORE[0]]).apps
        _old_rows(old)
        _migrate(latest)
        assert set(connection.introspection.table_names()) == tables
        assert Heartbeat.objects.get().runs == 3
        assert JobFailure.objects.get().error == "The wick broke."
        assert DemoClock.objects.get().ahead == timedelta(hours=5)
        assert ContentVersion.objects.get(pk=7).value == 41
        assert ReaderVersion.objects.get(pk=4242).value == 7
        assert WordPressItem.objects.get().post.slug == "lanterns-for-the-bridge"
        application = AmendmentApplication.objects.get()
        assert application.descriptions == ["Lit the lanterns."]
        assert application.post.amendment_applications.get() == application
    finally:
        _migrate(latest)


def test_content_types_follow_the_models_to_their_rooms():
    """A content type recorded for a model of the root names the model's room after the move, so permissions and
    the admin's history of it stay attached."""
    latest = _latest()
    content_type = apps.get_model("contenttypes", "ContentType")
    try:
        _migrate(BEFORE)
        content_type.objects.filter(app_label__in=ROOMS).delete()
        content_type.objects.get_or_create(app_label="blognomic", model="heartbeat")
        content_type.objects.get_or_create(app_label="blognomic", model="amendmentapplication")
        _migrate(latest)
        moved = set(content_type.objects.filter(model__in=["heartbeat", "amendmentapplication"]).values_list())
        assert {(app, model) for _, app, model in moved} == {
            ("running", "heartbeat"),
            ("amendments", "amendmentapplication"),
        }
    finally:
        _migrate(latest)


@pytest.mark.parametrize(("app", "name"), MOVES)
def test_the_moves_write_no_sql(app, name):
    """Moving a model to its room changes only Django's idea of which app owns it: no table is created, altered
    or dropped."""
    out = StringIO()
    call_command("sqlmigrate", app, name, stdout=out)
    statements = [line for line in out.getvalue().splitlines() if line and not line.startswith("--")]
    assert statements in (["BEGIN;", "COMMIT;"], [])
