"""Reads for the dynasties' history pages."""

from __future__ import annotations

from django.utils import timezone

from dynasties.models import Dynasty, User
from ruleset.models import Page
from votes.models import Kind, Post, Status


def dynasty_history(dynasty: Dynasty) -> dict:
    """What the dynasty's history page shows: its players then, its big posts, its final ruleset."""
    end = dynasty.ended_at or timezone.now()
    posts = Post.objects.shown().filter(dynasty=dynasty).select_related("author")
    return {
        "players_at_start": list(User.objects.active_at(dynasty.started_at).values_list("username", flat=True)),
        "players_at_end": list(User.objects.active_at(end).values_list("username", flat=True)),
        "snapshot": Page.objects.filter(title=f"Ruleset {dynasty.number}").first(),
        "posts_of_interest": list(
            posts.filter(kind__in=[Kind.DOV, Kind.CFJ, Kind.ASCENSION, Kind.STORY]).order_by("posted_at")
        ),
        "proposal_counts": {
            "enacted": posts.filter(kind=Kind.PROPOSAL, status=Status.ENACTED).count(),
            "failed": posts.filter(kind=Kind.PROPOSAL, status=Status.FAILED).count(),
            "pending": posts.filter(kind=Kind.PROPOSAL, status=Status.PENDING).count(),
        },
    }
