"""Celery tasks for the game's calendar and its mail: thin wrappers over ``dynasties.jobs``, ``dynasties.mail`` and
``dynasties.webhooks``."""

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from dynasties import jobs, mail, webhooks


@shared_task
def announce_seasonal_hiatus() -> str:
    return str(jobs.seasonal_hiatus_announce(now=timezone.now()))


@shared_task
def deliver_webhooks() -> str:
    return str(webhooks.webhooks_deliver(now=timezone.now()))


@shared_task
def send_outbox() -> str:
    return str(mail.mails_send(now=timezone.now()))


def send_soon() -> None:
    """Ask a worker to send the outbox now rather than at the next beat (for mail a player waits for: a
    confirmation link, a password reset), once the transaction that wrote it has committed."""
    transaction.on_commit(lambda: send_outbox.delay())
