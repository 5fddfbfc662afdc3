"""Celery tasks for votable matters: thin wrappers over the services in ``votes.jobs``."""

from celery import shared_task
from django.utils import timezone

from votes import jobs, notices


@shared_task
def flag_resolvable_matters() -> str:
    return str(jobs.flag_resolvable_matters(now=timezone.now()))


@shared_task
def mark_stale_proposals() -> str:
    return str(jobs.proposals_mark_stale(now=timezone.now()))


@shared_task
def auto_resolve_matters() -> str:
    return str(jobs.matters_auto_resolve(now=timezone.now()))


@shared_task
def send_notices() -> str:
    return str(notices.notices_send(now=timezone.now()))


@shared_task
def email_digests() -> str:
    return str(notices.digests_send(now=timezone.now()))
