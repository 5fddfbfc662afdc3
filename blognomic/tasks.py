"""Periodic tasks of the site as a whole: the heartbeat, the statistics, the roster's daily report, backups."""

from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from blognomic.community.accounts.reset import password_reset_mail  # noqa: F401  (registered with the worker here)
from blognomic.community.stats.selectors import warm
from blognomic.community.stats.tasks import count_statistics  # noqa: F401  (registered with the worker here)
from blognomic.flows.roster.jobs import idle_candidates_report
from blognomic.running.backups import backup_write
from blognomic.running.models import Heartbeat


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
    the aggregates take seconds (benchmarks/RESULTS.md), which the first reader of /stats/
    after each post, comment or resolution would otherwise wait for; not while a count is queued, running or
    resting after the last. Returns the version of the figures cached."""
    return warm(timezone.now())


@shared_task
def report_idle_candidates() -> str:
    return str(idle_candidates_report(now=timezone.now()))


@shared_task
def write_backup() -> str:
    """Today's backup into BACKUP_DIR, old ones rotated out; nothing when BACKUP_DIR is empty. A failed
    pg_dump, or an archive that restore would refuse, raises, so the failure is recorded and shown on the
    admin panel."""
    if not settings.BACKUP_DIR:
        return "Backups are off (BACKUP_DIR is empty)."
    return str(backup_write(now=timezone.now(), directory=Path(settings.BACKUP_DIR), keep=settings.BACKUP_KEEP))
