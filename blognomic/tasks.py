"""Periodic tasks of the blog itself."""

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from blognomic.models import Heartbeat


@shared_task
def heartbeat() -> int:
    """Record that beat and a worker are alive; the admin panel shows the last run."""
    now = timezone.now()
    updated = Heartbeat.objects.filter(name="beat").update(last_run_at=now, runs=F("runs") + 1)
    if not updated:
        Heartbeat.objects.get_or_create(name="beat", defaults={"last_run_at": now, "runs": 1})
    return Heartbeat.objects.get(name="beat").runs
