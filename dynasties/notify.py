"""On-site notifications, with an email for each new one. A key makes every notice idempotent."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction

from dynasties.models import Notification, User


def notify(*, users: Iterable[User], key: str, text: str, url: str = "", now: datetime, email: bool = True,
           dry_run: bool = False) -> list[User]:
    """Tell each user once per ``key``; returns who was newly told."""
    told = []
    for user in users:
        if Notification.objects.filter(user=user, key=key).exists():
            continue
        told.append(user)
        if dry_run:
            continue
        try:
            with transaction.atomic():
                Notification.objects.create(user=user, key=key, text=text, url=url, created_at=now)
        except IntegrityError:  # another run got there first
            told.pop()
            continue
        if email and user.email:
            send_mail(subject=text[:120], message=f"{text}\n\n{url}".strip(),
                      from_email=settings.DEFAULT_FROM_EMAIL, recipient_list=[user.email], fail_silently=True)
    return told


def admins_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now).filter(is_admin=True))


def players_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now))
