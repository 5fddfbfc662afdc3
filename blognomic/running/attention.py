"""What needs an admin's attention in the running of the site: jobs that failed, webhook deliveries and mail
given up on, and a beat that has gone quiet. Shown at the top of the admin panel."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings

from blognomic.running.health import beat_is_fresh, beat_last_run
from blognomic.running.models import JobFailure
from dynasties.models import OutgoingMail, WebhookDelivery
from votes import horizon

# Older failures are history: the admin panel counts those of the last week.
RECENT = timedelta(days=7)
FAILURES_SHOWN = 3


@dataclass
class Attention:
    failed_jobs: int
    failed_deliveries: int
    failed_mails: int
    beat_last_run: datetime | None
    beat_stale: bool
    latest_job_failures: list[JobFailure] = field(default_factory=list)

    @property
    def needed(self) -> bool:
        return bool(self.failed_jobs or self.failed_deliveries or self.failed_mails or self.beat_stale)


def needs_attention(*, now: datetime) -> Attention:
    since = now - RECENT
    jobs = JobFailure.objects.filter(at__gte=since)
    last_run = beat_last_run()
    stale_after = timedelta(seconds=settings.BEAT_STALE_SECONDS)
    if last_run is not None:
        # The block tells beat's age to the minute and turns to a warning once it goes stale: a cached panel
        # must not outlive either (see ``votes.horizon``).
        horizon.note((last_run + stale_after, horizon.next_mark(last_run, timedelta(minutes=1), now=now)), now=now)
    return Attention(
        failed_jobs=jobs.count(),
        latest_job_failures=list(jobs.order_by("-at", "-pk")[:FAILURES_SHOWN]),
        failed_deliveries=WebhookDelivery.objects.filter(status=WebhookDelivery.FAILED, created_at__gte=since).count(),
        failed_mails=OutgoingMail.objects.filter(status=OutgoingMail.FAILED, created_at__gte=since).count(),
        beat_last_run=last_run,
        # The panel judges beat by its heartbeat alone: the grace a just-started web process gives is /healthz/'s.
        beat_stale=not beat_is_fresh(last_run=last_run, now=now, up_for=RECENT, stale_after=stale_after),
    )
