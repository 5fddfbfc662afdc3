"""Outgoing webhooks: the game's public events POSTed as JSON to addresses the admins set up.

Events are queued as ``WebhookDelivery`` rows inside whatever transaction made them, and sent later by a
beat job, so a slow or failing receiver never holds up a vote or another job. A failed send is retried
with back-off and, after ``MAX_ATTEMPTS``, recorded as failed with the reason.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Sequence
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.db import IntegrityError, transaction

from dynasties.beat import JobReport
from dynasties.models import Webhook, WebhookDelivery

MAX_ATTEMPTS = 5
TIMEOUT_SECONDS = 5
PER_RUN = 50
NOT_HTTP = "A webhook address must start with http:// or https:// and name a host."


class WebhookError(ValueError):
    """The webhook cannot be set up as given; the message says why."""


def retry_delay(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failure: 1, 2, 4, 8 … minutes."""
    return timedelta(minutes=2 ** max(0, attempts - 1))


def check_url(url: str) -> str:
    url = (url or "").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(url) > 500 or "\x00" in url:
        raise WebhookError(NOT_HTTP)
    return url


def webhook_queue(*, key: str, payload: dict, now: datetime) -> int:
    """Queue one event for every enabled webhook, once per key; returns how many were newly queued."""
    queued = 0
    for webhook in Webhook.objects.filter(enabled=True):
        try:
            with transaction.atomic():
                WebhookDelivery.objects.create(webhook=webhook, key=key, payload=payload, created_at=now,
                                               next_attempt_at=now)
        except IntegrityError:  # queued before
            continue
        queued += 1
    return queued


def webhook_queue_many(*, events: Sequence[tuple[str, dict]], now: datetime) -> int:
    """``webhook_queue`` for many (key, payload) events: the webhooks are read once, and with none
    enabled (the usual case) that one query is all."""
    webhooks = list(Webhook.objects.filter(enabled=True))
    queued = 0
    for webhook in webhooks:
        for key, payload in events:
            try:
                with transaction.atomic():
                    WebhookDelivery.objects.create(webhook=webhook, key=key, payload=payload, created_at=now,
                                                   next_attempt_at=now)
            except IntegrityError:  # queued before
                continue
            queued += 1
    return queued


def _post(url: str, payload: dict) -> str | None:
    """Send one JSON POST; None when the receiver accepted it, else why not."""
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "BlogNomic"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310 - http(s) only
            return None if 200 <= response.status < 300 else f"HTTP {response.status}"
    except urllib.error.HTTPError as error:
        return f"HTTP {error.code}"
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        return str(getattr(error, "reason", error))[:300] or type(error).__name__


def webhooks_deliver(*, now: datetime, dry_run: bool = False, send=_post) -> JobReport:
    """Send the deliveries that are due; retry failures later, give up after MAX_ATTEMPTS."""
    report = JobReport()
    due = WebhookDelivery.objects.filter(status=WebhookDelivery.PENDING, next_attempt_at__lte=now,
                                         webhook__enabled=True).select_related("webhook").order_by("pk")[:PER_RUN]
    for delivery in due:
        if dry_run:
            report.done.append(f"{delivery.key} to {delivery.webhook.url}")
            continue
        problem = send(delivery.webhook.url, delivery.payload)
        delivery.attempts += 1
        if problem is None:
            delivery.status, delivery.last_error = WebhookDelivery.SENT, ""
            report.done.append(f"{delivery.key} to {delivery.webhook.url}: sent")
        elif delivery.attempts >= MAX_ATTEMPTS:
            delivery.status, delivery.last_error = WebhookDelivery.FAILED, problem[:500]
            report.done.append(f"{delivery.key} to {delivery.webhook.url}: failed ({problem})")
        else:
            delivery.last_error = problem[:500]
            delivery.next_attempt_at = now + retry_delay(delivery.attempts)
            report.done.append(f"{delivery.key} to {delivery.webhook.url}: will retry ({problem})")
        delivery.save(update_fields=["status", "attempts", "last_error", "next_attempt_at"])
    return report
