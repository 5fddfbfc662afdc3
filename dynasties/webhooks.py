"""Outgoing webhooks: the game's public events POSTed as JSON to addresses the admins set up, as our plain
event or as a Discord or Slack message (``dynasties.chat_formats``), as each webhook says.

Events are queued as ``WebhookDelivery`` rows inside whatever transaction made them, and sent later by a
beat job, so a slow or failing receiver never holds up a vote or another job. A failed send is retried
with back-off and, after ``MAX_ATTEMPTS``, recorded as failed with the reason.

An address must lead to the public internet, when it is set up and again at every delivery (a name's answer
may change in between): ``dynasties.destinations`` says what is public, ``dynasties.outbound`` connects.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction

from dynasties import outbound
from dynasties.beat import JobReport
from dynasties.chat_formats import FormatError, chat_body, check_format
from dynasties.destinations import DestinationError, parse_destination
from dynasties.models import Webhook, WebhookDelivery

MAX_ATTEMPTS = 5
TIMEOUT_SECONDS = 5
PER_RUN = 50


class WebhookError(ValueError):
    """The webhook cannot be set up as given; the message says why."""


def retry_delay(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failure: 1, 2, 4, 8 … minutes."""
    return timedelta(minutes=2 ** max(0, attempts - 1))


def check_url(url: str, *, resolve: bool = True) -> str:
    """``url`` without surrounding spaces, when it is an http(s) address that leads to the public internet.

    The name is resolved here, so a typo or an address inside the network is refused at once; delivery checks
    again, since the name may lead elsewhere later. ``resolve=False`` (an archive, read without the network)
    checks everything but where a name leads.
    """
    url = (url or "").strip()
    try:
        destination = parse_destination(url)
        if resolve or destination.literal is not None:
            outbound.checked_addresses(destination, allowed=settings.WEBHOOK_ALLOWED_NETWORKS)
    except DestinationError as problem:
        raise WebhookError(str(problem)) from None
    return url


def check_webhook_format(value: object) -> str:
    """The format a webhook speaks, when it is one we know (an empty choice is plain JSON)."""
    try:
        return check_format(value)
    except FormatError as problem:
        raise WebhookError(str(problem)) from None


def webhook_queue(*, key: str, payload: dict, now: datetime) -> int:
    """Queue one event for every enabled webhook, once per key; returns how many were newly queued."""
    queued = 0
    for webhook in Webhook.objects.filter(enabled=True):
        try:
            with transaction.atomic():
                WebhookDelivery.objects.create(
                    webhook=webhook, key=key, payload=payload, created_at=now, next_attempt_at=now
                )
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
                    WebhookDelivery.objects.create(
                        webhook=webhook, key=key, payload=payload, created_at=now, next_attempt_at=now
                    )
            except IntegrityError:  # queued before
                continue
            queued += 1
    return queued


def _post(url: str, payload: dict) -> str | None:
    """Send one JSON POST; None when the receiver accepted it, else why not."""
    return outbound.post_json(url, payload, allowed=settings.WEBHOOK_ALLOWED_NETWORKS, timeout=TIMEOUT_SECONDS)


def webhooks_deliver(*, now: datetime, dry_run: bool = False, send=_post) -> JobReport:
    """Send the deliveries that are due; retry failures later, give up after MAX_ATTEMPTS."""
    report = JobReport()
    due = (
        WebhookDelivery.objects.filter(status=WebhookDelivery.PENDING, next_attempt_at__lte=now, webhook__enabled=True)
        .select_related("webhook")
        .order_by("pk")[:PER_RUN]
    )
    for delivery in due:
        if dry_run:
            report.done.append(f"{delivery.key} to {delivery.webhook.url}")
            continue
        problem = send(delivery.webhook.url, chat_body(delivery.payload, delivery.webhook.format))
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
