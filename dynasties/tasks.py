"""Celery tasks for the game's calendar: thin wrappers over ``dynasties.jobs``."""

from celery import shared_task
from django.utils import timezone

from dynasties import jobs


@shared_task
def announce_seasonal_hiatus() -> str:
    return str(jobs.seasonal_hiatus_announce(now=timezone.now()))
