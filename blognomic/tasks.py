"""Periodic tasks of the site as a whole: the heartbeat, and the roster's daily report."""

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from blognomic.models import Heartbeat
from blognomic.roster.jobs import idle_candidates_report


@shared_task
def heartbeat() -> int:
    """Record that beat and a worker are alive; the admin panel shows the last run."""
    now = timezone.now()
    updated = Heartbeat.objects.filter(name="beat").update(last_run_at=now, runs=F("runs") + 1)
    if not updated:
        Heartbeat.objects.get_or_create(name="beat", defaults={"last_run_at": now, "runs": 1})
    return Heartbeat.objects.get(name="beat").runs


# Named as it was when it lived in the dynasties app, so schedules and queued messages keep working.
@shared_task(name="dynasties.tasks.report_idle_candidates")
def report_idle_candidates() -> str:
    return str(idle_candidates_report(now=timezone.now()))
