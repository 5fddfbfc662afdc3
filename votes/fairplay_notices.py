"""Fair Play notices: once a post or comment is saved, the admins are told, once, when its author has passed a
threshold of the Fair Play rule (``votes.fairplay``). Nothing is refused: the rule calls spam subjective, so
the admins judge.

The checks run after the write commits, so a refused or rolled-back write tells nobody, and a notice never
holds the matter's lock.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from dynasties.clock import day_start, next_day_start
from dynasties.notify import admins_now, notify
from votes import fairplay
from votes.models import Comment, Post

# A run of comments longer than this is named by its latest comments only; no real thread comes near it.
LONGEST_RUN_READ = 500


def _tell_admins(threshold: fairplay.Threshold, *, text: str, url: str, now: datetime) -> None:
    notify(users=admins_now(now), key=threshold.key, text=text, url=url, now=now)


def fair_play_check_post(*, post: Post, now: datetime, new: bool = True) -> list[str]:
    """After ``post`` was made (``new``) or edited at ``now``: its author's posts that day, and its length.

    An anonymous post names nobody and does not count towards its author's day, which would unmask it.
    """
    found = []
    if new and not post.anonymous:
        times = list(
            Post.objects.filter(
                author_id=post.author_id,
                anonymous=False,
                posted_at__gte=day_start(now),
                posted_at__lt=next_day_start(now),
            ).values_list("posted_at", flat=True)
        )
        threshold = fairplay.posts_in_a_day(times, player_id=post.author_id, now=now)
        if threshold is not None:
            day = f"{day_start(now).date().isoformat()} (UTC)"
            text = fairplay.POSTS_FLAG.format(player=post.author.username, count=threshold.count, day=day)
            _tell_admins(threshold, text=text, url=post.get_absolute_url(), now=now)
            found.append(text)
    threshold = fairplay.entry_too_long(body=post.body, flavour=post.flavour, post_id=post.pk)
    if threshold is not None:
        by = "" if post.anonymous else f" by {post.author.username}"
        text = fairplay.WORDS_FLAG.format(title=post.title, by=by, count=threshold.count)
        _tell_admins(threshold, text=text, url=post.get_absolute_url(), now=now)
        found.append(text)
    return found


def fair_play_check_comment(*, comment: Comment, now: datetime) -> list[str]:
    """After ``comment`` was added at ``now``: the run of comments in a row it ends on its post."""
    latest = list(
        Comment.objects.filter(post_id=comment.post_id)
        .order_by("-at", "-pk")
        .values_list("pk", "author_id")[:LONGEST_RUN_READ]
    )
    threshold = fairplay.comments_in_a_row(latest[::-1], post_id=comment.post_id)
    if threshold is None:
        return []
    post = comment.post
    text = fairplay.COMMENTS_FLAG.format(player=comment.author.username, count=threshold.count, title=post.title)
    _tell_admins(threshold, text=text, url=post.get_absolute_url(), now=now)
    return [text]


def after_commit(check, **kwargs) -> None:
    """Run a Fair Play check once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: check(**kwargs))
