"""The admin panel's "needs attention" block: failed jobs, failed webhook deliveries, failed mail and a stale
beat, each with a link to where it can be seen in full ("the admin panel shows failed jobs and deliveries")."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from blognomic import tasks
from blognomic.running.backups import BackupError
from blognomic.running.models import Heartbeat, JobFailure
from dynasties.models import OutgoingMail, Webhook, WebhookDelivery
from tests.factories import PASSWORD, make_table
from tests.test_gndt_pages import count_queries

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, t0):
    make_table(3, start=t0)
    client.login(username="P02", password=PASSWORD)
    return client


def panel(client, now) -> str:
    with time_machine.travel(now, tick=False):
        response = client.get(reverse("admin_panel"))
    assert response.status_code == 200
    return response.content.decode()


def fail_a_delivery_and_a_mail(at) -> None:
    """As the delivery and mail jobs leave them once they give up (their own tests drive the retries)."""
    hook = Webhook.objects.create(url="https://chat.example.org/hook", created_at=at)
    WebhookDelivery.objects.create(
        webhook=hook,
        key="post:1",
        payload={},
        status=WebhookDelivery.FAILED,
        attempts=8,
        created_at=at,
        next_attempt_at=at,
        last_error="HTTP 500",
    )
    OutgoingMail.objects.create(
        to="p01@example.org",
        kind="digest",
        subject="Digest",
        text="…",
        status=OutgoingMail.FAILED,
        attempts=8,
        created_at=at,
        next_attempt_at=at,
        last_error="550 no such user",
    )


def test_a_job_that_raises_is_recorded_with_its_task_and_error(monkeypatch, settings, tmp_path, t0):
    """Every task that raises (here the backup, its pg_dump refused) leaves a JobFailure."""

    def refuse(**kwargs):
        raise BackupError("pg_dump failed with exit status 1 and said: connection refused")

    monkeypatch.setattr(tasks, "backup_write", refuse)
    settings.BACKUP_DIR = str(tmp_path)
    with time_machine.travel(t0, tick=False):
        result = tasks.write_backup.apply(throw=False)
    assert result.failed()
    failure = JobFailure.objects.get()
    assert failure.task == "blognomic.tasks.write_backup" and failure.task_id == result.id
    assert failure.at == t0
    assert failure.error == "BackupError: pg_dump failed with exit status 1 and said: connection refused"


def test_the_panel_lists_failed_jobs_deliveries_mails_and_links_to_them(admin_client, t0):
    JobFailure.objects.create(
        task="dynasties.tasks.deliver_webhooks", task_id="abc", at=t0, error="OperationalError: database is locked"
    )
    fail_a_delivery_and_a_mail(t0)
    Heartbeat.objects.create(name="beat", last_run_at=t0, runs=1)
    html = panel(admin_client, t0 + timedelta(minutes=1))
    assert "Needs attention" in html
    assert "1 failed job in the last seven days" in html
    assert (
        "<code>dynasties.tasks.deliver_webhooks</code> at 25 Jul 12:00 UTC: OperationalError: database is locked"
        in html
    )
    assert f'<a href="{reverse("webhooks")}">1 webhook delivery</a>' in html
    assert f'<a href="{reverse("mail_failures")}">1 mail</a>' in html
    assert "Beat" not in html.split("Needs attention")[1].split("</section>")[0], "beat ran a minute ago"
    assert "all failed jobs" not in html, "Django's admin is linked for staff only"


def test_a_stale_beat_needs_attention(admin_client, t0):
    """Beat records its heartbeat every minute; five minutes without one is stale."""
    Heartbeat.objects.create(name="beat", last_run_at=t0, runs=1)
    assert "Nothing needs attention" in panel(admin_client, t0 + timedelta(minutes=5))
    html = panel(admin_client, t0 + timedelta(minutes=10))
    assert "Beat last ran 10\xa0minutes ago: no periodic job" in html


def test_a_beat_that_never_ran_needs_attention(admin_client, t0):
    assert "Beat has never run" in panel(admin_client, t0)


def test_failures_older_than_a_week_are_history(admin_client, t0):
    JobFailure.objects.create(task="x", at=t0 - timedelta(days=8), error="old")
    fail_a_delivery_and_a_mail(t0 - timedelta(days=8))
    Heartbeat.objects.create(name="beat", last_run_at=t0, runs=1)
    assert "Nothing needs attention" in panel(admin_client, t0)


def test_staff_get_a_link_to_every_failed_job(admin_client, t0):
    from dynasties.models import User

    User.objects.filter(username="P02").update(is_staff=True)
    JobFailure.objects.create(task="x", at=t0, error="boom")
    html = panel(admin_client, t0)
    assert f'<a href="{reverse("admin:running_jobfailure_changelist")}">all failed jobs</a>' in html


def test_the_block_costs_the_same_with_one_failure_or_fifty(admin_client, t0, settings):
    settings.PAGE_CACHE = False
    JobFailure.objects.create(task="x", at=t0, error="boom")
    fail_a_delivery_and_a_mail(t0)
    with time_machine.travel(t0, tick=False):
        few = count_queries(admin_client, reverse("admin_panel"))
    for i in range(50):
        JobFailure.objects.create(task=f"x{i}", at=t0, error="boom")
    with time_machine.travel(t0, tick=False):
        assert count_queries(admin_client, reverse("admin_panel")) == few
