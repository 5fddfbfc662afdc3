"""Failed jobs recorded where admins look: every task that raises, in a worker, under beat or in-process,
leaves a ``JobFailure`` the admin panel lists. What failed and why, in one line; the traceback is logged."""

from __future__ import annotations

import logging

from django.utils import timezone

from blognomic.running.models import JobFailure

ERROR_LENGTH = 1000
logger = logging.getLogger(__name__)


def record_job_failure(sender=None, task_id=None, exception=None, **kwargs) -> None:
    name = getattr(sender, "name", None) or str(sender)
    error = f"{type(exception).__name__}: {exception}" if exception is not None else "failed"
    logger.error("Job %s failed: %s", name, error)
    JobFailure.objects.create(
        task=name[:200], task_id=(task_id or "")[:255], at=timezone.now(), error=error[:ERROR_LENGTH]
    )
