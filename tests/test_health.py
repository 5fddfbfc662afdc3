"""/healthz/ as deployed: the database, Redis and beat's last run, each ``ok`` or ``not ok`` and nothing more;
200 when all are ok, 503 otherwise ("stale beat = unhealthy")."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import OperationalError, connection
from django.test import Client

from blognomic.running import health
from blognomic.running.health import beat_is_fresh
from blognomic.running.models import Heartbeat
from blognomic.tasks import heartbeat

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
STALE = timedelta(minutes=5)


def ask() -> tuple[int, str]:
    # A host no setting allows, as a container's or a monitor's request may be.
    response = Client().get("/healthz/", HTTP_HOST="10.1.2.3:8000")
    return response.status_code, response.content.decode()


@pytest.fixture
def long_running(monkeypatch, settings):
    """A web process up for long (since 1970, whatever time a test travels to), with beat expected beside it."""
    settings.HEALTH_CHECKS_BEAT = True
    settings.BEAT_STALE_SECONDS = 300
    monkeypatch.setattr(health, "STARTED_AT", 0.0)


def test_beat_is_fresh_within_the_stale_limit():
    assert beat_is_fresh(last_run=NOW - STALE, now=NOW, stale_after=STALE, up_for=timedelta(hours=1))
    assert not beat_is_fresh(
        last_run=NOW - STALE - timedelta(seconds=1), now=NOW, stale_after=STALE, up_for=timedelta(hours=1)
    )
    assert not beat_is_fresh(last_run=None, now=NOW, stale_after=STALE, up_for=timedelta(hours=1))


def test_a_process_just_started_gives_beat_time_to_run_first():
    """In docker-compose beat starts once the web server is healthy: a new web process must not wait on it."""
    assert beat_is_fresh(last_run=None, now=NOW, stale_after=STALE, up_for=timedelta(minutes=1))
    assert beat_is_fresh(last_run=NOW - timedelta(days=3), now=NOW, stale_after=STALE, up_for=timedelta(minutes=1))


def test_without_redis_or_beat_expected_the_database_alone_is_reported(settings):
    settings.REDIS_URL = ""
    settings.HEALTH_CHECKS_BEAT = False
    assert ask() == (200, "database ok\npages ok\n")


def test_beat_that_ran_a_minute_ago_is_ok_and_one_gone_quiet_is_a_503(long_running, settings):
    settings.REDIS_URL = ""
    assert ask() == (503, "database ok\nbeat not ok\npages ok\n"), "beat never ran"
    with time_machine.travel(NOW, tick=False):
        heartbeat.apply()
    with time_machine.travel(NOW + timedelta(minutes=1)):
        assert ask() == (200, "database ok\nbeat ok\npages ok\n")
    with time_machine.travel(NOW + timedelta(minutes=5, seconds=1)):
        assert ask() == (503, "database ok\nbeat not ok\npages ok\n")


def test_redis_that_answers_is_ok_and_one_that_does_not_is_a_503_without_its_address(settings, caplog):
    settings.HEALTH_CHECKS_BEAT = False
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert ask() == (200, "database ok\nredis ok\npages ok\n")
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    with caplog.at_level(logging.ERROR, logger="blognomic.running.health"):
        assert ask() == (503, "database ok\nredis not ok\npages ok\n")
    assert "Redis does not answer" in caplog.text


def test_a_database_that_does_not_answer_is_a_503_not_a_500(long_running, settings, monkeypatch):
    settings.REDIS_URL = ""

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    assert ask() == (503, "database not ok\nbeat not ok\npages ok\n")


def test_the_health_answer_is_never_kept_by_a_cache(settings):
    settings.HEALTH_CHECKS_BEAT = False
    response = Client().get("/healthz/")
    assert "no-store" in response["Cache-Control"]


def test_health_reads_two_rows_at_most(long_running, settings, django_assert_max_num_queries):
    """Cheap: one query for the database, one for beat's heartbeat."""
    settings.REDIS_URL = ""
    Heartbeat.objects.create(name="beat", last_run_at=NOW, runs=1)
    with django_assert_max_num_queries(2):
        Client().get("/healthz/")


def test_a_site_whose_static_files_were_not_collected_says_pages_not_ok(settings, tmp_path):
    """Under DEBUG=0 every page names its static files through the manifest ``collectstatic`` writes: deployed
    without it, every page is an error, and /healthz/ says so instead of ``ok``; once it has run, all is well."""
    from django.core.management import call_command

    settings.REDIS_URL = ""
    settings.HEALTH_CHECKS_BEAT = False
    settings.STATIC_ROOT = str(tmp_path / "static")
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    visitor = Client()
    # Even the error page cannot be drawn: gunicorn answers its bare 500.
    with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
        visitor.get("/")
    assert ask() == (503, "database ok\npages not ok\n")

    call_command("collectstatic", "--noinput", verbosity=0)
    # A server started afresh: the storage and the middleware read the manifest when they start.
    settings.STORAGES = {**settings.STORAGES}
    assert Client().get("/").status_code == 200
    assert ask() == (200, "database ok\npages ok\n")
