"""Every main page runs the same number of queries whatever the archive's size.

The game is ``generate_archive``'s made-up history at two scales (79 and 395 proposals, 722 and 3,610
comments, 47 and 236 Ruleset revisions, 10 and 46 GNDT updates): the same pages, read by the same kind of
visitor, must cost the same queries at both, so a page's SQL does not grow with the archive, only (at most)
the rows a query reads.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.cache import caches
from django.db import connection
from django.db.models import Count, Max
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from blognomic.moving.archive import import_archive
from blognomic.moving.archive.generator import generate_archive
from dynasties.models import User
from ruleset.models import Revision
from votes.models import Kind, Post

pytestmark = pytest.mark.django_db

END = datetime(2026, 1, 1, tzinfo=UTC)

# Queries per page and reader with the response cache emptied (a cache miss), the same at every scale (where a
# matter could be enacted now, one more asks whether its amendment still applies; the
# Ruleset's two more are each rule's blame: the rule changes and the matters behind them; on PostgreSQL the
# search reads its results in a savepoint that sets the planner, four statements more: matches_through_the_index;
# the admin panel's five more are what needs attention: failed jobs and the latest three, failed deliveries and
# mail, beat's heartbeat).
EXPECTED = {
    "front page": 12,
    "front page (player)": 17,
    "busy post": 12,
    "busy post (player)": 17,
    "monthly archive": 9,
    "category": 11,
    "player page": 13,
    "Ruleset": 10,
    "Ruleset history": 9,
    "Ruleset diff": 9,
    "GNDT": 14,
    "GNDT log": 14,
    "admin panel": 22,
    "search": 10,
    "statistics": 14,
    "API: posts": 8,
    "messages": 12,
    "feed": 2,
}


def _pages() -> dict[str, tuple[str, str | None]]:
    """Each page to count: its path and who reads it (None: a visitor; "player" or "admin")."""
    busiest = Post.objects.annotate(n=Count("comments")).order_by("-n", "pk").values_list("slug", flat=True)[0]
    # The first dynasty's month: resolved posts only at every scale, as most of an archive's months are.
    month = Post.objects.order_by("posted_at").values_list("posted_at", flat=True)[0]
    author = (
        User.objects.filter(posts__kind=Kind.PROPOSAL)
        .annotate(n=Count("posts"))
        .order_by("-n", "pk")
        .values_list("username", flat=True)[0]
    )
    last = Revision.objects.filter(page__slug="ruleset").aggregate(top=Max("number"))["top"]
    post = reverse("post_detail", args=[busiest])
    return {
        "front page": (reverse("front_page"), None),
        "front page (player)": (reverse("front_page"), "player"),
        "busy post": (post, None),
        "busy post (player)": (post, "player"),
        "monthly archive": (reverse("month_archive", args=[month.year, month.month]), None),
        "category": (reverse("category", args=["proposals"]), None),
        "player page": (reverse("player_detail", args=[author]), None),
        "Ruleset": (reverse("wiki_page", args=["ruleset"]), None),
        "Ruleset history": (reverse("wiki_history", args=["ruleset"]), None),
        "Ruleset diff": (reverse("wiki_diff", args=["ruleset", str(last - 1), str(last)]), None),
        "GNDT": (reverse("gndt_table"), None),
        "GNDT log": (reverse("gndt_log"), None),
        "admin panel": (reverse("admin_panel"), "admin"),
        "search": (reverse("search") + "?q=lamp", None),
        "statistics": (reverse("stats"), None),
        "API: posts": ("/api/posts", None),
        "messages": (reverse("messages_inbox"), "player"),
        "feed": (reverse("feed"), None),
    }


def _readers() -> dict[str, User]:
    active = User.objects.filter(absences__isnull=True).order_by("username")
    return {
        "player": active.filter(is_admin=False).first() or active.first(),
        "admin": User.objects.filter(is_admin=True, absences__isnull=True).order_by("username").first(),
    }


def _count(client, path: str) -> int:
    """The queries of a page the response cache does not hold (the cost that could grow with the archive)."""
    client.get(path)  # a first request loads what every process keeps for good
    for alias in caches:
        caches[alias].clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(queries)


@pytest.mark.parametrize("scale", [0.005, 0.025])
def test_every_main_page_costs_the_same_queries_at_any_archive_size(client, scale):
    import_archive(generate_archive(scale=scale, end=END))
    readers = _readers()
    counts = {}
    with time_machine.travel(END + timedelta(hours=6), tick=False):
        for name, (path, reader) in _pages().items():
            client.logout()
            if reader:
                client.force_login(readers[reader])
            counts[name] = _count(client, path)
    expected = EXPECTED | {"search": EXPECTED["search"] + (4 if connection.vendor == "postgresql" else 0)}
    assert counts == expected
