"""Where the API's idempotent answers are kept: claimed before a write runs, filled in after, forgotten after a
day. The request side is ``blognomic.community.api.idempotency``."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from blognomic.community.tokens.models import IdempotentAnswer

KEPT_FOR = timedelta(days=1)
# A claim never filled in (its worker died mid-request) is taken over after this long.
ABANDONED_AFTER = timedelta(minutes=2)


def answer_claim(*, caller: str, key: str, fingerprint: str, now: datetime) -> tuple[IdempotentAnswer, bool]:
    """The row for this caller's key, and whether this request claimed it (and so must answer and fill it in)."""
    try:
        with transaction.atomic():
            return IdempotentAnswer.objects.create(
                caller=caller, key=key, fingerprint=fingerprint, created_at=now
            ), True
    except IntegrityError:
        pass  # another request holds the key: read what it holds below
    found = IdempotentAnswer.objects.get(caller=caller, key=key)
    expired = found.created_at <= now - KEPT_FOR
    abandoned = found.status is None and found.created_at <= now - ABANDONED_AFTER
    if expired or abandoned:
        taken = IdempotentAnswer.objects.filter(pk=found.pk, created_at=found.created_at).update(
            fingerprint=fingerprint, created_at=now, status=None, content_type="", location="", body=b""
        )
        if taken:
            found.refresh_from_db()
            return found, True
        found.refresh_from_db()
    return found, False


def answer_keep(answer: IdempotentAnswer, *, status: int, content_type: str, location: str, body: bytes) -> None:
    IdempotentAnswer.objects.filter(pk=answer.pk).update(
        status=status, content_type=content_type[:100], location=location[:500], body=body
    )


def answer_release(answer: IdempotentAnswer) -> None:
    """The request failed on the server's side: a retry with the key runs again."""
    IdempotentAnswer.objects.filter(pk=answer.pk, status=None).delete()


def answers_forget(*, now: datetime) -> int:
    old = IdempotentAnswer.objects.filter(created_at__lte=now - KEPT_FOR)
    # Asked first, so a quiet minute writes nothing.
    if not old.exists():
        return 0
    return old.delete()[0]
