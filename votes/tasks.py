"""Celery tasks for votable matters: thin wrappers over the services in ``votes.jobs``."""

from celery import shared_task
from django.utils import timezone

from votes.jobs import matters_flag_resolvable


@shared_task
def flag_resolvable_matters() -> dict:
    report = matters_flag_resolvable(now=timezone.now())
    return {"enactable": report.newly_enactable, "failable": report.newly_failable}
