"""Telling players what they asked to hear about: new matters, matters closing before they voted, their own
matters resolved, replies and mentions; the public events also go to the admins' webhooks; and a daily
digest by email. Idempotent beat jobs: every notice has a key, so a second run tells nobody twice.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from dynasties.beat import JobReport
from dynasties.mail import absolute, mail_queue
from dynasties.models import EmailDigest, User
from dynasties.notify import Notice, notify, notify_each, preferences_of
from dynasties.webhooks import webhook_queue, webhook_queue_many
from votes.judging import judge_posts
from votes.models import Comment, Outcome, Post, Resolution
from votes.state import game_state

LOOK_BACK = timedelta(days=2)  # how far back a run looks; keys make the overlap harmless
# Keys name posts by their id (slug) and resolutions by their time, which an archive round trip keeps, so a
# restored game is not told again what it was told before.
CLOSING_WITHIN = timedelta(hours=12)
# What was imported from another site happened there: nobody is told of it again here, however recent its
# times (the past stays past). A matter imported pending is told of as it closes or is resolved here.


def _key(kind: str, *parts: str) -> str:
    """A notice's key: its kind and a digest of what it is about (a post id may be 200 characters long)."""
    return f"{kind}:{hashlib.sha256(chr(31).join(parts).encode()).hexdigest()[:40]}"


def _event(kind: str, post: Post, now: datetime, **extra) -> dict:
    return {
        "event": kind,
        "title": post.title,
        "kind": post.kind,
        "url": absolute(post.get_absolute_url()),
        "author": None if post.anonymous else post.author.username,
        "at": now.isoformat(),
        **extra,
    }


def notices_send(*, now: datetime, dry_run: bool = False) -> JobReport:
    """Everything due since the last run: each notice once, each webhook event once."""
    state = game_state(now)
    active = [user for user in state.roster.active]
    report = JobReport()
    report.done += _new_matters(now=now, active=active, dry_run=dry_run)
    report.done += _closing_soon(now=now, state=state, active=active, dry_run=dry_run)
    _resolved(now=now, dry_run=dry_run)
    report.done += _replies_and_mentions(now=now, active=active, dry_run=dry_run)
    return report


def _new_matters(*, now: datetime, active: list[User], dry_run: bool) -> list[str]:
    """Each matter posted lately, to the chat, and to the players while it is pending."""
    recent = (
        Post.objects.votable()
        .played_here()
        .filter(posted_at__gte=now - LOOK_BACK, posted_at__lte=now)
        .select_related("author")
    )
    # Written together, a few queries for the whole run: after an outage or an import hundreds may be due.
    posted_events, new_matters = [], []
    for post in recent:
        posted_events.append((_key("posted", post.slug), _event("matter_posted", post, post.posted_at)))
        if post.is_pending:
            new_matters.append(
                (
                    Notice(
                        key=_key("new-matter", post.slug),
                        text=f"New: “{post.title}”.",
                        url=post.get_absolute_url(),
                        at=post.posted_at,
                    ),
                    [u for u in active if u.pk != post.author_id],
                    post,
                )
            )
    if not dry_run:  # the chat hears of every matter, even one resolved before this run
        webhook_queue_many(events=posted_events, now=now)
    told = notify_each(
        deliveries=[(notice, users) for notice, users, _ in new_matters], now=now, kind="new_matter", dry_run=dry_run
    )
    return [
        f"{post.slug}: told {told[notice.key]} of a new matter" for notice, _, post in new_matters if told[notice.key]
    ]


def _closing_soon(*, now: datetime, state, active: list[User], dry_run: bool) -> list[str]:
    """The players who have not voted on a matter that may be resolved within 12 hours."""
    judgements = judge_posts(state.pending, state=state, now=now)
    by_name = {user.username: user for user in active}
    closing = []
    for post in state.pending:
        judgement = judgements.get(post.pk)
        if judgement is None:
            continue
        soon = [moment for moment in (judgement.enact_from, judgement.fail_from) if moment is not None]
        if not (judgement.can_enact or judgement.can_fail or any(moment <= now + CLOSING_WITHIN for moment in soon)):
            continue
        waiting = [by_name[name] for name in by_name if name not in judgement.tally.votes]
        closing.append(
            (
                Notice(
                    key=_key("closing", post.slug),
                    url=post.get_absolute_url(),
                    text=f"“{post.title}” may be resolved within 12 hours and you have not voted.",
                ),
                waiting,
                post,
            )
        )
    told = notify_each(
        deliveries=[(notice, users) for notice, users, _ in closing], now=now, kind="closing_soon", dry_run=dry_run
    )
    return [f"{post.slug}: told {told[notice.key]} it closes soon" for notice, _, post in closing if told[notice.key]]


def _resolved(*, now: datetime, dry_run: bool) -> None:
    """Each matter resolved lately, to its author and to the chat."""
    resolutions = (
        Resolution.objects.filter(at__gte=now - LOOK_BACK, at__lte=now, imported_at__isnull=True)
        .exclude(outcome=Resolution.REOPENED)
        .select_related("post", "post__author")
    )
    for resolution in resolutions:
        post = resolution.post
        verb = "enacted" if resolution.outcome == Outcome.ENACTED else f"failed ({resolution.outcome})"
        if post.author.joined_at is not None:
            notify(
                users=[post.author],
                key=_key("resolved", post.slug, resolution.at.isoformat()),
                now=now,
                url=post.get_absolute_url(),
                kind="own_resolved",
                dry_run=dry_run,
                at=resolution.at,
                text=f"Your “{post.title}” was {verb}.",
            )
        if not dry_run:
            webhook_queue(
                key=_key("resolved", post.slug, resolution.at.isoformat()),
                now=now,
                payload=_event("matter_resolved", post, resolution.at, outcome=resolution.outcome),
            )


def _replies_and_mentions(*, now: datetime, active: list[User], dry_run: bool) -> list[str]:
    comments = list(
        Comment.objects.filter(at__gte=now - LOOK_BACK, at__lte=now, imported_at__isnull=True)
        .select_related("author", "post")
        .order_by("at", "pk")
    )
    if not comments:
        return []
    earlier: dict[int, list[tuple[datetime, int]]] = defaultdict(list)
    for post_id, author_id, at in Comment.objects.filter(post__in={c.post_id for c in comments}).values_list(
        "post_id", "author_id", "at"
    ):
        earlier[post_id].append((at, author_id))
    by_pk = {user.pk: user for user in active}
    replies, mentions = [], []
    for comment in comments:
        url = f"{comment.post.get_absolute_url()}#comment-{comment.pk}"
        before = {author for at, author in earlier[comment.post_id] if at < comment.at and author != comment.author_id}
        replies.append(
            (
                Notice(
                    key=f"reply:{comment.pk}",
                    url=url,
                    at=comment.at,
                    text=f"{comment.author.username} commented after you on “{comment.post.title}”.",
                ),
                [by_pk[pk] for pk in before if pk in by_pk],
            )
        )
        named = [user for user in active if user.pk != comment.author_id and _names(comment.text, user.username)]
        mentions.append(
            (
                Notice(
                    key=f"mention:{comment.pk}",
                    url=url,
                    at=comment.at,
                    text=f"{comment.author.username} named you on “{comment.post.title}”.",
                ),
                named,
            )
        )
    # Each kind written together: a run after an outage may find thousands of comments.
    replied = notify_each(deliveries=replies, now=now, kind="reply", dry_run=dry_run)
    mentioned = notify_each(deliveries=mentions, now=now, kind="mention", dry_run=dry_run)
    done = []
    for comment in comments:
        told = replied[f"reply:{comment.pk}"] + mentioned[f"mention:{comment.pk}"]
        if told:
            done.append(f"comment {comment.pk}: told {told}")
    return done


def _names(text: str, name: str) -> bool:
    """Whether ``text`` names the player: the whole name, not inside another word, in any case."""
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text or "", re.IGNORECASE) is not None


def digests_send(*, now: datetime, dry_run: bool = False) -> JobReport:
    """Once a day, email each player who asked for it the pending matters still waiting for their vote."""
    state = game_state(now)
    report = JobReport()
    wanting = [
        user
        for user, prefs in zip(state.roster.active, preferences_of(state.roster.active).values(), strict=True)
        if prefs["daily_digest"] and user.email
    ]
    if not wanting:
        return report
    judgements = judge_posts(state.pending, state=state, now=now)
    for user in wanting:
        waiting = [
            post
            for post in state.pending
            if post.pk in judgements and user.username not in judgements[post.pk].tally.votes
        ]
        if not waiting or EmailDigest.objects.filter(user=user, day=now.date()).exists():
            continue
        report.done.append(f"{user.username}: {len(waiting)} waiting")
        if dry_run:
            continue
        try:
            with transaction.atomic():
                EmailDigest.objects.create(user=user, day=now.date(), sent_at=now)
        except IntegrityError:
            continue
        lines = [f"- {post.title}: {absolute(post.get_absolute_url())}" for post in waiting]
        mail_queue(
            user=user,
            to=user.email,
            kind="daily_digest",
            now=now,
            unsubscribe="daily_digest",
            subject=f"{len(waiting)} matters wait for your vote",
            text="These pending matters wait for your vote:\n\n" + "\n".join(lines),
        )
    return report
