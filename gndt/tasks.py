"""Celery tasks of the GNDT: thin wrappers over the idempotent services in ``gndt.services``."""

from celery import shared_task
from django.utils import timezone

from gndt.services import gndt_effects_apply_due


@shared_task
def apply_scheduled_effects() -> str:
    """Run by beat every few minutes; a period already applied is never applied again."""
    return str(gndt_effects_apply_due(now=timezone.now()))
