"""The content version moves on with every write to a table any page shows, whichever way the write is sent:
a save, ``QuerySet.update()``, ``bulk_create()``, a delete, raw SQL; for every model of the site's apps,
including ones added later; and in each store (memory, the cache, the database row)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, transaction
from django.db.models import F
from django.test import Client

from blognomic.web.freshness import (
    UNWATCHED_TABLE_PREFIXES,
    current_version,
    is_bookkeeping_update,
    version_lags_writes,
    written_table,
)
from blognomic.web.page_cache import kept_for_version
from dynasties.models import Game, User
from tests.factories import make_proposal, make_table, vote
from votes.models import Post

pytestmark = pytest.mark.django_db


def moves_version(action) -> bool:
    before = current_version()
    action()
    return current_version() != before


def site_models():
    """Every model of the project's own apps, those added later included."""
    ours = {config.label for config in apps.get_app_configs() if Path(config.path).is_relative_to(settings.BASE_DIR)}
    return [
        model
        for model in apps.get_models()
        if model._meta.app_label in ours and not model._meta.db_table.startswith(UNWATCHED_TABLE_PREFIXES)
    ]


def test_every_model_of_the_site_is_watched():
    """A table that writes without moving the version would serve stale pages; none may be left out."""
    assert len(site_models()) > 30
    for model in site_models():
        table = connection.ops.quote_name(model._meta.db_table)

        def delete_nothing(table=table):
            with connection.cursor() as cursor:
                cursor.execute(f"DELETE FROM {table} WHERE 1 = 0")

        assert moves_version(delete_nothing), model._meta.label


def test_a_save_an_update_a_bulk_create_and_a_delete_each_move_the_version(t0):
    players = make_table(3, start=t0)
    post = make_proposal(players[1], at=t0)
    game = Game.load()
    assert moves_version(lambda: game.save())
    assert moves_version(lambda: Post.objects.filter(pk=post.pk).update(title=F("title")))
    assert moves_version(lambda: User.objects.bulk_create([User(username="Late Keeper")]))
    assert moves_version(lambda: User.objects.filter(username="Late Keeper").delete())


def test_raw_sql_moves_the_version(t0):
    make_table(2, start=t0)

    def raw_update():
        with connection.cursor() as cursor:
            cursor.execute(f"UPDATE {connection.ops.quote_name(User._meta.db_table)} SET first_name = %s", ["Keeper"])

    assert moves_version(raw_update)


def test_reading_and_storing_sessions_move_nothing(t0):
    make_table(2, start=t0)

    def read_and_log_in():
        list(Post.objects.all())
        session = SessionStore()
        session["seen"] = True
        session.save()

    assert not moves_version(read_and_log_in)


def test_logging_in_moves_no_version(t0):
    """A login writes only when the account last logged in, which no page shows: it must not empty the cache."""
    players = make_table(2, start=t0)
    assert not moves_version(lambda: Client().force_login(players[0]))
    assert User.objects.get(pk=players[0].pk).last_login is not None


def test_an_update_of_last_login_with_anything_else_moves_the_version(t0):
    players = make_table(2, start=t0)
    user = User.objects.get(pk=players[0].pk)
    user.last_login, user.first_name = t0, "Keeper"
    assert moves_version(lambda: user.save(update_fields=["last_login", "first_name"]))
    assert moves_version(lambda: User.objects.filter(pk=user.pk).update(last_login=t0, is_active=False))


@pytest.mark.parametrize(
    "sql, bookkeeping",
    [
        ('UPDATE "dynasties_user" SET "last_login" = %s WHERE "dynasties_user"."id" = %s', True),
        ("update `dynasties_user` set `last_login` = %s where `id` = %s", True),
        ('UPDATE "dynasties_user" SET "last_login" = %s, "is_active" = %s WHERE "id" = %s', False),
        ('UPDATE "dynasties_user" SET "is_active" = %s WHERE "id" = %s', False),
        ('UPDATE "dynasties_user" SET "last_login" = NULL', False),
        ('UPDATE "votes_post" SET "last_login" = %s WHERE "id" = %s', False),
    ],
)
def test_which_updates_are_bookkeeping(sql, bookkeeping):
    assert is_bookkeeping_update(sql) is bookkeeping


@pytest.mark.parametrize(
    "sql, table",
    [
        ('INSERT INTO "votes_post" ("title") VALUES (%s)', "votes_post"),
        ('  update "gndt_cell" SET "value" = %s', "gndt_cell"),
        ("DELETE FROM `ruleset_page`", "ruleset_page"),
        ('TRUNCATE "dynasties_user"', "dynasties_user"),
        ('SELECT * FROM "votes_post" FOR UPDATE', None),
        ("WITH x AS (SELECT 1) SELECT * FROM x", None),
    ],
)
def test_which_statements_are_writes(sql, table):
    assert written_table(sql) == table


def test_the_database_store_moves_after_the_commit_for_every_worker(settings, t0, django_capture_on_commit_callbacks):
    settings.CONTENT_VERSION_STORE = "database"
    start = current_version()
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            make_table(2, start=t0)
            assert current_version() == start, "not before the commit: the writer holds no lock on the version"
    assert current_version() > start


@pytest.mark.django_db(transaction=True)
def test_a_vote_moves_the_cache_store_once_after_the_commit(settings, t0):
    """Finding: "each vote moves the version about twice" (once at its first write, again at the commit), so
    every page was missed, rendered and missed again. A reader before the commit renders the data the version
    it read names; one move, after the commit, retires it."""
    players = make_table(4, start=t0)
    post = make_proposal(players[1], at=t0)
    settings.CONTENT_VERSION_STORE = "cache"
    start = current_version()
    with transaction.atomic():
        vote(post, players[2], "for", at=t0 + timedelta(minutes=1))
        assert current_version() == start, "not before the commit"
        assert version_lags_writes()
    assert current_version() == start + 1
    assert not version_lags_writes()


@pytest.mark.django_db(transaction=True)
def test_a_writer_neither_keeps_nor_reuses_a_part_before_its_commit(settings, t0, rf):
    """Inside a transaction that has written, the version does not yet count the write: a part worked out
    there is neither taken from the cache nor stored in it; after the commit it is worked out afresh."""
    from django.core.cache import cache

    def kept_answers() -> int:
        return sum(":count:" in key for key in cache._cache)

    settings.CONTENT_VERSION_STORE = "cache"
    request = rf.get("/")
    assert kept_for_version(request, "count", "players", lambda: "before") == "before"
    with transaction.atomic():
        make_table(2, start=t0)
        assert kept_for_version(request, "count", "players", lambda: "during") == "during"
        assert kept_answers() == 1
    assert kept_for_version(rf.get("/"), "count", "players", lambda: "after") == "after"


def test_an_unknown_store_is_refused(settings):
    settings.CONTENT_VERSION_STORE = "disk"
    with pytest.raises(ValueError, match="CONTENT_VERSION_STORE"):
        current_version()
