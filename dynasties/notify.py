"""On-site notifications, by email as well where the player wants it. A key makes every notice idempotent.

A notice of a ``kind`` (one of ``NoticePreferences.KINDS``) reaches only the players who want that kind;
a notice without one (a seasonal announcement, the roster's daily report) reaches everyone named.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction

from dynasties.models import NoticePreferences, Notification, User


def preferences_of(users: Iterable[User]) -> dict[int, dict[str, bool]]:
    """Each user's preferences (the defaults where they never changed any), in one query."""
    users = list(users)
    stored = {p.user_id: p for p in NoticePreferences.objects.filter(user__in=users)}
    defaults = NoticePreferences.defaults()
    return {
        user.pk: ({name: getattr(stored[user.pk], name) for name in defaults} if user.pk in stored else defaults)
        for user in users
    }


def notify(*, users: Iterable[User], key: str, text: str, url: str = "", now: datetime, email: bool = True,
           dry_run: bool = False, kind: str | None = None) -> list[User]:
    """Tell each user once per ``key``; returns who was newly told."""
    users = list(users)
    wants = preferences_of(users)
    told = []
    for user in users:
        if kind is not None and not wants[user.pk].get(kind, True):
            continue
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
        if email and user.email and wants[user.pk]["by_email"]:
            send_mail(subject=text[:120], message=f"{text}\n\n{url}".strip(),
                      from_email=settings.DEFAULT_FROM_EMAIL, recipient_list=[user.email], fail_silently=True)
    return told


def admins_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now).filter(is_admin=True))


def players_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now))
