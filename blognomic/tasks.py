"""Periodic tasks of the site as a whole: the heartbeat, the statistics, and the roster's daily report."""

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from blognomic.models import Heartbeat
from blognomic.roster.jobs import idle_candidates_report
from blognomic.stats.selectors import cached_statistics


@shared_task
def heartbeat() -> int:
    """Record that beat and a worker are alive; the admin panel shows the last run."""
    now = timezone.now()
    updated = Heartbeat.objects.filter(name="beat").update(last_run_at=now, runs=F("runs") + 1)
    if not updated:
        Heartbeat.objects.get_or_create(name="beat", defaults={"last_run_at": now, "runs": 1})
    return Heartbeat.objects.get(name="beat").runs


@shared_task
def warm_statistics() -> str:
    """Work out the statistics once the game has changed, before a reader asks for them: over a large archive
    the aggregates take seconds (3.6 s at ten times the real history), which the first reader of /stats/
    after each post, comment or resolution would otherwise wait for. Returns the version now cached."""
    return cached_statistics(timezone.now()).version


# Named as it was when it lived in the dynasties app, so schedules and queued messages keep working.
@shared_task(name="dynasties.tasks.report_idle_candidates")
def report_idle_candidates() -> str:
    return str(idle_candidates_report(now=timezone.now()))
