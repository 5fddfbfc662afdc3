"""``/stats/`` on games of their own rather than ``tests/test_stats.py``'s shared one: an empty game still
draws every chart, a reopened proposal counts from its standing resolution, an enactment is never shown stale,
and the views' queries do not grow with the real history imported."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from blognomic.community.stats import selectors
from blognomic.community.stats.plots import CHARTS
from blognomic.moving.history.loading import DEFAULT_DIRECTORY
from dynasties.models import Game
from tests.factories import make_proposal, make_table, vote
from tests.test_stats import COLD_QUERIES, own_cache, png_size  # noqa: F401  (own_cache: autouse, for these too)
from votes.models import Post
from votes.services import matter_reopen, matter_resolve

pytestmark = pytest.mark.django_db
needs_history = pytest.mark.skipif(
    not (Path(settings.BASE_DIR) / DEFAULT_DIRECTORY / "fullprophistory.csv").is_file(),
    reason="the real history's figures live beside the project",
)


def test_a_reopened_proposal_counts_from_its_standing_resolution(t0):
    players = make_table(5, start=t0)
    a = make_proposal(players[2], at=t0, title="Proposal: Lighthouses")
    for voter in players[3:]:
        vote(a, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=a, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    matter_reopen(post=a, admin=players[1], reason="A CfJ found a miscount.", now=t0 + timedelta(hours=20))
    matter_resolve(post=a, admin=players[1], action="enact", now=t0 + timedelta(hours=31))
    times = selectors.resolution_times()
    assert times.resolved == 1 and times.counts[5] == 1  # 31 hours: the 30–36 hour bin, not the first 13


def test_an_empty_game_still_draws_every_chart(client):
    for slug in CHARTS:
        response = client.get(reverse("stats_chart", args=[slug]))
        assert response.status_code == 200 and png_size(response.content)[0] > 0
    assert client.get(reverse("stats")).status_code == 200


def test_a_new_enactment_is_never_shown_stale(client, t0):
    """The page and the images are cached, but an enactment changes the version they are cached under."""
    players = make_table(5, start=t0)
    a = make_proposal(players[2], at=t0, title="Proposal: Lighthouses")
    b = make_proposal(players[3], at=t0 + timedelta(minutes=5), title="Proposal: Foghorns")
    for post in (a, b):
        for voter in players[1:]:
            vote(post, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=a, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    url = reverse("stats_chart", args=["proposals-by-dynasty"])
    row = '<a href="/players/P04/">P04</a></td><td class="number">1</td><td class="number">{}</td>'
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        before_png = client.get(url).content
        html = client.get(reverse("stats")).content.decode()
        assert "2 proposals, 1 enacted" in html and row.format(0) in html
        assert client.get(url).content == before_png  # served again from the cache
    matter_resolve(post=b, admin=players[1], action="enact", now=t0 + timedelta(hours=15))
    with time_machine.travel(t0 + timedelta(hours=16), tick=False):
        html = client.get(reverse("stats")).content.decode()
        assert "2 proposals, 2 enacted" in html and row.format(1) in html  # the cached table too
        assert client.get(url).content != before_png


def count(client, url: str, capture) -> int:
    with capture() as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def view_queries(client) -> dict[str, int]:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def capture():
        return CaptureQueriesContext(connection)

    chart = reverse("stats_chart", args=["top-players"])
    cache.clear()
    figures = {
        "page cold": count(client, reverse("stats"), capture),
        "page warm": count(client, reverse("stats"), capture),
    }
    cache.clear()
    figures["chart cold"] = count(client, chart, capture)
    figures["chart warm"] = count(client, chart, capture)
    return figures


@needs_history
def test_view_queries_do_not_grow_with_the_archive(client, django_assert_num_queries, settings):
    """The latest ten proposals, then with the three dynasties before them (over 200 proposals): same queries.

    The current dynasty and its six pending proposals are the same in both, so the sidebar is too.
    """
    settings.PAGE_CACHE = False  # the statistics' own cache, cold and warm, not the page cache's
    Game.load()  # the first page of all creates the game's row
    call_command("import_history", "--limit", "10", stdout=io.StringIO())
    small = view_queries(client)
    with django_assert_num_queries(COLD_QUERIES):
        selectors.statistics(timezone.now())
    call_command("import_history", "--dynasties", "229-231", stdout=io.StringIO())
    large = view_queries(client)
    with django_assert_num_queries(COLD_QUERIES):
        selectors.statistics(timezone.now())
    assert Post.objects.count() > 200
    assert small == large
    # Warm, not even the version is counted again: it is kept until the content changes.
    assert small["chart cold"] == COLD_QUERIES and small["chart warm"] == 0
    # The page adds the layout's own queries (the sidebar's game state) to the same figures.
    assert small["page cold"] - small["page warm"] == COLD_QUERIES
