"""Time-based work on votable matters, as idempotent services with the time passed in."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from blognomic.models import Post
from dynasties.selectors import game_state
from votes.selectors import judge_posts


@dataclass
class FlagReport:
    newly_enactable: list[str] = field(default_factory=list)
    newly_failable: list[str] = field(default_factory=list)


def matters_flag_resolvable(*, now: datetime, dry_run: bool = False) -> FlagReport:
    """Mark pending matters the moment their votes and age make them enactable or failable.

    A matter is flagged once: its ``enactable_since``/``failable_since`` is set the first time and never moved,
    so running twice or late records nothing more.
    """
    state = game_state(now)
    posts = list(Post.objects.pending().select_related("author"))
    judgements = judge_posts(posts, state=state, now=now)
    report = FlagReport()
    with transaction.atomic():
        for post in posts:
            judgement = judgements[post.pk]
            changed = []
            if judgement.can_enact and post.enactable_since is None:
                post.enactable_since = now
                changed.append("enactable_since")
                report.newly_enactable.append(post.slug)
            if judgement.can_fail and post.failable_since is None:
                post.failable_since = now
                changed.append("failable_since")
                report.newly_failable.append(post.slug)
            if changed and not dry_run:
                Post.objects.filter(pk=post.pk).update(**{name: now for name in changed})
    return report
