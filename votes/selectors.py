"""Plain reads on posts and comments: matters pending at a moment, the votes on pending matters, a player's
proposal allowance, enactments awaiting the Ruleset, the latest comments.

Judging matters is ``votes.judging``; what the post page, the admin panel and the toteboards show is
``votes.page_models``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from dynasties.models import User
from votes import limits
from votes.models import Comment, Kind, Outcome, Post, Resolution, Status


def pending_at(at: datetime, *, kinds: Sequence[str] | None = None) -> list[Post]:
    """Votable matters that were pending at ``at``: posted by then and not resolved by then.

    One query, reading only matters pending now or resolved after ``at`` (a matter resolved by then and
    never reopened since cannot have been pending), so its cost follows the queue, not the archive.
    """
    resolved_later = Resolution.objects.filter(post=OuterRef("pk"), at__gt=at)
    outcome_then = (
        Resolution.objects.filter(post=OuterRef("pk"), at__lte=at).order_by("-at", "-pk").values("outcome")[:1]
    )
    matters = Post.objects.votable() if kinds is None else Post.objects.filter(kind__in=kinds)
    return list(
        matters.filter(posted_at__lte=at)
        .filter(Q(status=Status.PENDING) | Exists(resolved_later))
        .annotate(outcome_then=Subquery(outcome_then))
        .filter(Q(outcome_then__isnull=True) | Q(outcome_then=Resolution.REOPENED))
        .select_related("author")
        .order_by("posted_at", "pk")
    )


def votes_by_post(pending: Sequence[Post]) -> dict[int, list[Comment]]:
    """Every comment with an icon on these posts, oldest first, grouped by post: one query."""
    by_post: dict[int, list[Comment]] = defaultdict(list)
    votes = Comment.objects.filter(post__in=pending, icon__isnull=False).select_related("author")
    for comment in votes.order_by("at", "pk"):
        by_post[comment.post_id].append(comment)
    return by_post


def last_failed_dov_with_against(author: User) -> datetime | None:
    """When the author's latest Declaration of Victory failed, if it had any AGAINST vote."""
    failed = (
        Post.objects.filter(author=author, kind=Kind.DOV, status=Status.FAILED)
        .filter(pk__in=Comment.objects.filter(icon="against").values("post_id"))
        .prefetch_related("resolutions")
        .order_by("-posted_at")
    )
    moments = [r.at for post in failed for r in post.resolutions.all() if r.outcome != Resolution.REOPENED]
    return max(moments) if moments else None


def proposal_allowance_of(author: User, *, profile, now: datetime) -> limits.Allowance:
    """How many more proposals ``author`` may post today and have pending, by the profile's limits."""

    recent = (
        Post.objects.counting_towards_limits()
        .filter(author=author)
        .filter(Q(posted_at__gte=now - timedelta(days=2)) | Q(status=Status.PENDING))
    )
    own = [
        limits.OwnProposal(posted_at=p.posted_at, pending=p.status == Status.PENDING, trivial=p.trivial)
        for p in recent.only("posted_at", "status", "trivial")
    ]
    return limits.proposal_allowance(profile=profile, now=now, own=own)


# An enactment older than this is taken to have been carried out, or to have needed no Ruleset change.
AWAITING_RULESET_DAYS = 7


RULESET_SLUG = "ruleset"


def enacted_awaiting_ruleset(*, now: datetime) -> list[Post]:
    """Proposals and CfJs enacted in the last week that no Ruleset revision cites yet, newest first.

    The Ruleset's revisions name the post that caused them (``Revision.post``, reverse name ``revisions``);
    the lookup goes through that relation so this layer imports nothing of the wiki's.
    """

    return list(
        Post.objects.filter(
            kind__in=(Kind.PROPOSAL, Kind.CFJ),
            status=Status.ENACTED,
            resolutions__outcome=Outcome.ENACTED,
            resolutions__at__gte=now - timedelta(days=AWAITING_RULESET_DAYS),
            # Enacted here: an imported enactment changed the old site's ruleset, not this one's.
            resolutions__imported_at__isnull=True,
        )
        .exclude(revisions__page__slug=RULESET_SLUG)
        .exclude(amendment_applications__applied=True)  # its amendment carried out what it changed
        .exclude(carried_out_at__isnull=False)  # an admin said it was carried out by other means
        .distinct()
        .order_by("-posted_at")[:10]
    )


RECENT_COMMENTS = 5


def recent_comments(limit: int = RECENT_COMMENTS, *, at: datetime | None = None) -> list[Comment]:
    """The latest comments anywhere (made by ``at``, for the game as it stood then), for the sidebar: one
    query that reads the newest rows of the index on ``at`` and only the columns the box shows."""
    return list(
        _recent_comments(Comment.objects.shown() if at is None else Comment.objects.shown().filter(at__lte=at), limit)
    )


def _recent_comments(comments: QuerySet[Comment], limit: int) -> QuerySet[Comment]:
    return (
        comments.select_related("author", "post")
        .only("pk", "at", "text", "icon", "author__username", "post__slug", "post__title")
        .order_by("-at", "-pk")[:limit]
    )
