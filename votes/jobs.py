"""Time-based work on votable matters, as idempotent services with the time passed in.

Each returns a report of what it did (or, with ``dry_run``, would do). Running one twice, or late, does
nothing more than running it once on time: flags are set once and notices carry unique keys.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from dynasties.beat import JobReport
from dynasties.models import Game
from dynasties.notify import Notice, admins_now, notify, notify_many
from dynasties.webhooks import webhook_queue_many
from votes import engine
from votes.models import Kind, Post
from votes.selectors import judge_posts, resolvable_matters
from votes.state import game_state

# Posts flagged per query.
FLAG_BATCH = 1000


def matters_flag_resolvable(*, now: datetime, dry_run: bool = False) -> JobReport:
    """Mark pending matters the moment they become enactable or failable, and tell the admins once.

    The flags, notices and webhook events are written together, a few queries for the whole run, so a run
    that finds hundreds of matters at once (after an import or an outage) is as quick as one that finds one.
    """
    state = game_state(now)
    posts = list(Post.objects.pending().select_related("author"))
    judgements = judge_posts(posts, state=state, now=now)
    report = JobReport()
    flagged: dict[str, list[int]] = {"enactable_since": [], "failable_since": []}
    notices: list[Notice] = []
    events: list[tuple[str, dict]] = []
    for post in posts:
        judgement = judgements[post.pk]
        for flag, legal, verb in (("enactable_since", judgement.can_enact, "enacted"),
                                  ("failable_since", judgement.can_fail, "failed")):
            if not legal or getattr(post, flag) is not None:
                continue
            report.done.append(f"{post.slug}: may now be {verb}")
            flagged[flag].append(post.pk)
            key = f"{flag}:{post.pk}"
            notices.append(Notice(key=key, text=f"“{post.title}” may now be {verb}.", url=post.get_absolute_url()))
            events.append((key, {
                "event": "matter_resolvable", "title": post.title, "kind": post.kind, "may_be": verb,
                "url": settings.SITE_URL.rstrip("/") + post.get_absolute_url(), "at": now.isoformat()}))
    if dry_run or not notices:
        return report
    for flag, pks in flagged.items():
        for start in range(0, len(pks), FLAG_BATCH):
            Post.objects.filter(pk__in=pks[start:start + FLAG_BATCH], **{f"{flag}__isnull": True}).update(
                **{flag: now})
    notify_many(users=admins_now(now), notices=notices, now=now, kind="resolvable")
    webhook_queue_many(events=events, now=now)
    return report


def proposals_mark_stale(*, now: datetime, dry_run: bool = False) -> JobReport:
    """2016: a proposal pending more than seven days is skipped as “oldest” and any admin may fail it."""
    profile = Game.load().rules_profile()
    report = JobReport()
    for post in Post.objects.pending().filter(kind=Kind.PROPOSAL, stale_since__isnull=True):
        if not engine.is_stale(post.posted_at, profile=profile, now=now):
            continue
        report.done.append(f"{post.slug}: pending more than seven days")
        if dry_run:
            continue
        Post.objects.filter(pk=post.pk, stale_since__isnull=True).update(stale_since=now)
        notify(users=admins_now(now), key=f"stale:{post.pk}", now=now, url=post.get_absolute_url(),
               text=f"“{post.title}” has been pending more than seven days; any admin may fail it.")
    return report


def matters_auto_resolve(*, now: datetime, dry_run: bool = False) -> JobReport:
    """When the game allows it, resolve every matter that is legal to resolve now, as the system: exactly what
    the admin panel offers (both ask ``selectors.resolvable_matters``), enacting where both are legal."""
    from votes.services import VoteError, matter_resolve

    report = JobReport()
    if not Game.load().auto_resolve:
        return report
    # Resolving one matter can make the next proposal the oldest, so look again after each.
    for _ in range(100):
        resolvable = resolvable_matters(game_state(now), now=now)
        if not resolvable:
            break
        post, action = resolvable[0]
        report.done.append(f"{post.slug}: {action}")
        if dry_run:
            break
        try:
            matter_resolve(post=post, admin=None, action=action, now=now)
        except VoteError as error:
            report.done.append(f"{post.slug}: refused ({error})")
            break
    return report
