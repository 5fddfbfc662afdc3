"""The tokens' beat job: forget idempotency keys older than a day."""

from celery import shared_task
from django.utils import timezone

from blognomic.community.tokens.idempotency_store import answers_forget


@shared_task
def forget_idempotency_keys() -> str:
    return str(answers_forget(now=timezone.now()))
