"""On-site notifications, by email as well where the player wants it. A key makes every notice idempotent.

A notice of a ``kind`` (one of ``NoticePreferences.KINDS``) reaches only the players who want that kind;
a notice without one (a seasonal announcement, the roster's daily report) reaches everyone named.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction

from dynasties.models import NoticePreferences, Notification, User

# Keys per query when many notices are checked at once.
_KEY_BATCH = 1000


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


@dataclass(frozen=True)
class Notice:
    """One notice for ``notify_many``: what ``notify`` takes besides the users."""

    key: str
    text: str
    url: str = ""


def notify_many(*, users: Iterable[User], notices: Sequence[Notice], now: datetime, kind: str | None = None,
                email: bool = True) -> int:
    """``notify`` for many notices to the same users in a fixed number of queries; returns how many were new."""
    users = list(users)
    return sum(notify_each(deliveries=[(notice, users) for notice in notices], now=now, kind=kind,
                           email=email).values())


def notify_each(*, deliveries: Sequence[tuple[Notice, Sequence[User]]], now: datetime, kind: str | None = None,
                email: bool = True, dry_run: bool = False) -> dict[str, int]:
    """``notify`` for many notices, each to its own users, in a fixed number of queries; returns, by key, how
    many were newly told (or, with ``dry_run``, would be).

    A beat job that finds hundreds of matters at once (the first run after an import, or after an outage)
    would otherwise spend several queries per notice and reader. Notices to a user who wants them by email
    still go one by one, so a notice that another run wrote first is never mailed twice.
    """
    everyone = {user.pk: user for _, users in deliveries for user in users}
    wants = preferences_of(everyone.values())
    wanted = {pk for pk in everyone if kind is None or wants[pk].get(kind, True)}
    counts = {notice.key: 0 for notice, _ in deliveries}
    if not wanted:
        return counts
    keys = list(counts)
    told: set[tuple[int, str]] = set()
    for start in range(0, len(keys), _KEY_BATCH):
        told.update(Notification.objects.filter(user__in=list(wanted), key__in=keys[start:start + _KEY_BATCH])
                    .values_list("user_id", "key"))
    mailed = {pk for pk in wanted if email and everyone[pk].email and wants[pk]["by_email"]}
    new, one_by_one = [], []
    for notice, users in deliveries:
        for user in users:
            if user.pk not in wanted or (user.pk, notice.key) in told:
                continue
            told.add((user.pk, notice.key))
            if user.pk in mailed:
                one_by_one.append((notice, user))
                continue
            counts[notice.key] += 1
            new.append(Notification(user=user, key=notice.key, text=notice.text, url=notice.url, created_at=now))
    if dry_run:
        for notice, _ in one_by_one:
            counts[notice.key] += 1
        return counts
    Notification.objects.bulk_create(new, batch_size=_KEY_BATCH, ignore_conflicts=True)
    for notice, user in one_by_one:
        counts[notice.key] += len(notify(users=[user], key=notice.key, text=notice.text, url=notice.url, now=now,
                                         email=email, kind=kind))
    return counts


def admins_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now).filter(is_admin=True))


def players_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now))
