"""On-site notifications, by email as well where the player wants it. A key makes every notice idempotent.

A mail is only put in the outbox here (``dynasties.mail``); a beat job sends it, so no request waits on it.

A notice of a ``kind`` (one of ``NoticePreferences.KINDS``) reaches only the players who want that kind;
a notice without one (a seasonal announcement, the roster's daily report) reaches everyone named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction

from dynasties.mail import absolute, mail_queue
from dynasties.models import NoticePreferences, Notification, User
from dynasties.read_markers import marking_read

# Keys per query when many notices are checked at once.
_KEY_BATCH = 1000


def wants_notice(*, on: bool, since: datetime | None, at: datetime | None) -> bool:
    """Whether a player is told of an event at ``at`` by a kind that is ``on`` (turned on at ``since``).

    Turning a kind on never tells of what happened before: the job looks back two days, and a player who
    turns replies on must not hear of the comments of the day before. ``since`` is None for a kind on all
    along; ``at`` is None for a notice about the present (a matter closing soon).
    """
    return on and (since is None or at is None or at >= since)


def _stored(users: list[User]) -> dict[int, NoticePreferences]:
    return {p.user_id: p for p in NoticePreferences.objects.filter(user__in=users)}


def preferences_of(users: Iterable[User]) -> dict[int, dict[str, bool]]:
    """Each user's preferences (the defaults where they never changed any), in one query."""
    users = list(users)
    return _switches(users, _stored(users))


def _switches(users: list[User], stored: dict[int, NoticePreferences]) -> dict[int, dict[str, bool]]:
    defaults = NoticePreferences.defaults()
    return {
        user.pk: ({name: getattr(stored[user.pk], name) for name in defaults} if user.pk in stored else defaults)
        for user in users
    }


def _wanting(
    users: list[User],
    *,
    kind: str | None,
) -> tuple[dict[int, dict[str, bool]], Callable[[User, datetime | None], bool]]:
    """The users' switches, and ``wants(user, at)``: whether one of them is told of an event of ``kind`` at
    ``at`` (every notice of no kind is)."""
    stored = _stored(users)
    switches = _switches(users, stored)
    since = {pk: preferences.turned_on_since(kind) for pk, preferences in stored.items()} if kind else {}

    def wants(user: User, at: datetime | None) -> bool:
        if kind is None:
            return True
        return wants_notice(on=switches[user.pk].get(kind, True), since=since.get(user.pk), at=at)

    return switches, wants


def notice_preferences_save(*, user: User, chosen: dict[str, bool], now: datetime) -> NoticePreferences:
    """Save the player's switches; a kind that goes from off to on remembers ``now``, so nothing that happened
    before is told (a kind that stays on keeps its moment)."""
    with transaction.atomic():
        preferences, _ = NoticePreferences.objects.select_for_update().get_or_create(
            user=user, defaults=NoticePreferences.defaults()
        )
        turned_on_at = dict(preferences.turned_on_at or {})
        for kind, _, _ in NoticePreferences.KINDS:
            if chosen.get(kind) and not getattr(preferences, kind):
                turned_on_at[kind] = now.isoformat()
            elif not chosen.get(kind):
                turned_on_at.pop(kind, None)
        for name in NoticePreferences.defaults():
            setattr(preferences, name, bool(chosen.get(name)))
        preferences.turned_on_at = turned_on_at
        preferences.save()
    return preferences


def mail_notice(*, user: User, text: str, url: str, kind: str | None, now: datetime) -> None:
    """Put a notice in the outbox for a player who wants notices by mail; its link leads back to the site and
    its unsubscribe link stops that kind (or, for a notice of no kind, every notice by mail)."""
    body = f"{text}\n\n{absolute(url)}" if url else text
    mail_queue(
        user=user,
        to=user.email,
        kind=kind or "notice",
        subject=text[:120],
        text=body,
        now=now,
        unsubscribe=kind or "by_email",
    )


def notice_preferences_turn_off(*, user: User, kind: str) -> None:
    """Turn one switch of the player's preferences off (an unsubscribe link); the others stay as they were."""
    with transaction.atomic():
        preferences, _ = NoticePreferences.objects.select_for_update().get_or_create(
            user=user, defaults=NoticePreferences.defaults()
        )
        setattr(preferences, kind, False)
        preferences.turned_on_at = {k: v for k, v in (preferences.turned_on_at or {}).items() if k != kind}
        preferences.save(update_fields=[kind, "turned_on_at"])


def notify(
    *,
    users: Iterable[User],
    key: str,
    text: str,
    url: str = "",
    now: datetime,
    email: bool = True,
    dry_run: bool = False,
    kind: str | None = None,
    at: datetime | None = None,
) -> list[User]:
    """Tell each user once per ``key`` of an event at ``at`` (None: about the present); returns who was newly
    told."""
    users = list(users)
    switches, wanting = _wanting(users, kind=kind)
    told = []
    for user in users:
        if not wanting(user, at):
            continue
        if Notification.objects.filter(user=user, key=key).exists():
            continue
        told.append(user)
        if dry_run:
            continue
        try:
            # The notice and its mail are kept together: the key says the player was told, so a process stopped
            # between the two would leave a mail no later run puts in the outbox.
            with transaction.atomic():
                Notification.objects.create(user=user, key=key, text=text, url=url, created_at=now)
                if email and user.email and switches[user.pk]["by_email"]:
                    mail_notice(user=user, text=text, url=url, kind=kind, now=now)
        except IntegrityError:  # another run got there first
            told.pop()
    return told


def notices_mark_read(*, user: User, now: datetime) -> int:
    """Marks the user's unread notices read; returns how many. With none unread it writes nothing at all: a
    reader opening their notices again and again must not write (on SQLite even an UPDATE that matches no row
    takes the database's write lock)."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if not unread.exists():
        return 0
    with marking_read(user):
        return unread.update(read_at=now)


@dataclass(frozen=True)
class Notice:
    """One notice for ``notify_many``: what ``notify`` takes besides the users."""

    key: str
    text: str
    url: str = ""
    at: datetime | None = None  # when what it tells of happened; None: it is about the present


def notify_many(
    *, users: Iterable[User], notices: Sequence[Notice], now: datetime, kind: str | None = None, email: bool = True
) -> int:
    """``notify`` for many notices to the same users in a fixed number of queries; returns how many were new."""
    users = list(users)
    return sum(
        notify_each(deliveries=[(notice, users) for notice in notices], now=now, kind=kind, email=email).values()
    )


def notify_each(
    *,
    deliveries: Sequence[tuple[Notice, Sequence[User]]],
    now: datetime,
    kind: str | None = None,
    email: bool = True,
    dry_run: bool = False,
) -> dict[str, int]:
    """``notify`` for many notices, each to its own users, in a fixed number of queries; returns, by key, how
    many were newly told (or, with ``dry_run``, would be).

    A beat job that finds hundreds of matters at once (the first run after an import, or after an outage)
    would otherwise spend several queries per notice and reader. Notices to a user who wants them by email
    still go one by one, so a notice that another run wrote first is never mailed twice.
    """
    everyone = {user.pk: user for _, users in deliveries for user in users}
    switches, wanting = _wanting(list(everyone.values()), kind=kind)
    wanted = {pk for pk in everyone if kind is None or switches[pk].get(kind, True)}
    counts = {notice.key: 0 for notice, _ in deliveries}
    if not wanted:
        return counts
    keys = list(counts)
    told: set[tuple[int, str]] = set()
    for start in range(0, len(keys), _KEY_BATCH):
        told.update(
            Notification.objects.filter(user__in=list(wanted), key__in=keys[start : start + _KEY_BATCH]).values_list(
                "user_id", "key"
            )
        )
    mailed = {pk for pk in wanted if email and everyone[pk].email and switches[pk]["by_email"]}
    new, one_by_one = [], []
    for notice, users in deliveries:
        for user in users:
            if user.pk not in wanted or (user.pk, notice.key) in told or not wanting(user, notice.at):
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
        counts[notice.key] += len(
            notify(
                users=[user],
                key=notice.key,
                text=notice.text,
                url=notice.url,
                now=now,
                email=email,
                kind=kind,
                at=notice.at,
            )
        )
    return counts


def admins_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now).filter(is_admin=True))


def players_now(now: datetime) -> list[User]:
    return list(User.objects.active_at(now))
