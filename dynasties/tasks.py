"""Celery tasks for the game's calendar: thin wrappers over ``dynasties.jobs``."""

from celery import shared_task
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
